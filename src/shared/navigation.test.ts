import { describe, expect, it } from 'vitest';
import { activeRoute, matchesRoute } from './navigation.ts';

describe('active navigation item', () => {
  const routes = ['/', '/docs/community/community-regulation', '/docs'];

  it('matches a route and its sub-pages; / only itself', () => {
    expect(matchesRoute('/', '/')).toBe(true);
    expect(matchesRoute('/', '/docs')).toBe(false);
    expect(matchesRoute('/docs', '/docs/guide/x')).toBe(true);
    expect(matchesRoute('/docs', '/docsx')).toBe(false);
    expect(matchesRoute('/docs', '/docs/')).toBe(true);
  });

  it('marks only the most specific match', () => {
    expect(activeRoute(routes, '/docs/community/community-regulation')).toBe('/docs/community/community-regulation');
    expect(activeRoute(routes, '/docs/guide/getting-started')).toBe('/docs');
    expect(activeRoute(routes, '/')).toBe('/');
    expect(activeRoute(routes, '/privacy-policy')).toBeNull();
  });
});
