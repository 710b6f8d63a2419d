import type { MessageKey } from './i18n/index.ts';

export interface NavLink {
  id: string;
  label: MessageKey;
  route: string;
}

/** Header navigation: only parts of the site that exist are listed. */
export const headerNav: NavLink[] = [
  { id: 'home', label: 'nav.home', route: '/' },
  { id: 'rules', label: 'nav.rules', route: '/docs/community/community-regulation' },
  { id: 'docs', label: 'nav.docs', route: '/docs' },
];

export const footerLinks: NavLink[] = [
  { id: 'docs', label: 'footer.docs', route: '/docs' },
  { id: 'rules', label: 'footer.rules', route: '/docs/community/community-regulation' },
  { id: 'privacy', label: 'footer.privacy', route: '/privacy-policy' },
  { id: 'terms', label: 'footer.terms', route: '/terms-of-service' },
  { id: 'friend-links', label: 'footer.friendLinks', route: '/friend-links' },
];

/** True when `route` is the current page or a parent section of it ('/' matches only itself). */
export function matchesRoute(route: string, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (route === '/') return path === '/';
  return path === route || path.startsWith(`${route}/`);
}

/** The one route to mark as current: the most specific match, so /docs/x/y does not also light up /docs. */
export function activeRoute(routes: readonly string[], pathname: string): string | null {
  const matches = routes.filter((route) => matchesRoute(route, pathname));
  return matches.sort((a, b) => b.length - a.length)[0] ?? null;
}
