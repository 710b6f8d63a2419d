import { describe, expect, it } from 'vitest';
import { translator } from '../../../shared/i18n/catalogues.ts';
import { authHref, navItemViews } from './nav-view.ts';

describe('navItemViews', () => {
  it("names the built sections in the page's language and keeps the ad item apart, without its link", () => {
    const { items, adItem } = navItemViews(translator('en'));
    expect(items.map((item) => [item.id, item.name, item.route, item.external])).toEqual([
      ['home', 'Home', '/', false],
      ['community', 'Community', '/community', false],
      ['galgame', 'Galgame', '/galgame', false],
      ['lightnovel', 'Light novel', '/lightnovel', false],
      ['rules', 'Community rules', '/docs/community/community-regulation', false],
    ]);
    expect(adItem).toMatchObject({ type: 'ad', route: 'about:blank', external: true, adStyle: 'v1' });
    expect(navItemViews(translator('zh-CN')).items[0]?.name).toBe('首页');
  });
});

describe('authHref', () => {
  it('carries the current path and query back', () => {
    expect(authHref('/login', { pathname: '/galgame/list', search: '?tag=3&page=2' })).toBe(
      '/login?jumpTo=%2Fgalgame%2Flist%3Ftag%3D3%26page%3D2',
    );
    expect(authHref('/register', { pathname: '/galgame/12', search: '' })).toBe('/register?jumpTo=%2Fgalgame%2F12');
  });

  it('needs no way back from the home page', () => {
    expect(authHref('/login', { pathname: '/', search: '' })).toBe('/login');
  });

  it('keeps the way back an auth page was given, never pointing back at itself', () => {
    expect(authHref('/register', { pathname: '/login', search: '?jumpTo=%2Fgalgame%3Fx%3D1' })).toBe(
      '/register?jumpTo=%2Fgalgame%3Fx%3D1',
    );
    expect(authHref('/login', { pathname: '/register', search: '' })).toBe('/login');
    expect(authHref('/login', { pathname: '/reset-password/', search: '' })).toBe('/login');
  });
});
