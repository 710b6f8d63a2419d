import { describe, expect, it } from 'vitest';
import { LAYOUTS, headerVariant, isHeaderHidden, isValidRouteId, keepsScrollOnNavigation } from './layout.ts';

describe('layout rules', () => {
  it('knows the nine layouts of the spec', () => {
    expect([...LAYOUTS].sort()).toEqual(
      ['community', 'default', 'editor', 'galgame-detail', 'home', 'login', 'message', 'reader', 'space'].sort(),
    );
  });

  it('uses the create header on any path containing /create', () => {
    expect(headerVariant('/create/home')).toBe('create');
    expect(headerVariant('/x/create')).toBe('create');
    expect(headerVariant('/community', 'community')).toBe('community');
    expect(headerVariant('/galgame')).toBe('default');
  });

  it('hides the header on login pages and the reader', () => {
    for (const p of ['/login', '/register', '/reset-password', '/lightnovel/read', '/login/'])
      expect(isHeaderHidden(p)).toBe(true);
    for (const p of ['/', '/lightnovel', '/loginx', '/docs']) expect(isHeaderHidden(p)).toBe(false);
  });

  it('keeps the scroll position on volume pages and user spaces only', () => {
    expect(keepsScrollOnNavigation('/lightnovel/volumes/12')).toBe(true);
    expect(keepsScrollOnNavigation('/space/3')).toBe(true);
    expect(keepsScrollOnNavigation('/space/3/favorite')).toBe(true);
    expect(keepsScrollOnNavigation('/lightnovel/12')).toBe(false);
    expect(keepsScrollOnNavigation('/docs')).toBe(false);
  });

  it('treats an empty or blank route id as invalid', () => {
    expect(isValidRouteId('1')).toBe(true);
    expect(isValidRouteId('')).toBe(false);
    expect(isValidRouteId('  ')).toBe(false);
    expect(isValidRouteId(undefined)).toBe(false);
  });
});
