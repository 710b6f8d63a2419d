import type { IconName } from './icons.ts';
import type { MessageKey } from './i18n/index.ts';

export type NavItemType = 'normal' | 'ad';
/** v1: animated gradient; v2: outlined. */
export type AdStyle = 'v1' | 'v2';

/** A header navigation item (spec §3 "Nav item"). */
export interface NavItem {
  id: string;
  name: MessageKey;
  route: string;
  icon: { iconName: IconName };
  type: NavItemType;
  adStyle?: AdStyle;
  tag?: MessageKey;
}

/** The header navigation of spec §2.2, in order. The ad item's route comes from configuration. */
export const NAV_ITEMS: readonly NavItem[] = [
  { id: 'home', name: 'nav.home', route: '/', icon: { iconName: 'house' }, type: 'normal' },
  { id: 'community', name: 'nav.community', route: '/community', icon: { iconName: 'messages' }, type: 'normal' },
  { id: 'galgame', name: 'nav.galgame', route: '/galgame', icon: { iconName: 'gamepad' }, type: 'normal' },
  { id: 'lightnovel', name: 'nav.lightnovel', route: '/lightnovel', icon: { iconName: 'book-open' }, type: 'normal' },
  {
    id: 'rules',
    name: 'nav.rules',
    route: '/docs/community/community-regulation',
    icon: { iconName: 'scroll' },
    type: 'normal',
  },
  {
    id: 'ai-girlfriend',
    name: 'nav.aiGirlfriend',
    route: '',
    icon: { iconName: 'heart' },
    type: 'ad',
    adStyle: 'v1',
    tag: 'nav.tag.ad',
  },
];

/**
 * Sections whose pages exist. A nav item for a section that is not built yet is left out, so no link
 * leads to a missing page; each section's issue adds its route here.
 */
export const BUILT_ROUTES: ReadonlySet<string> = new Set([
  '/',
  '/community',
  '/galgame',
  '/lightnovel',
  '/docs/community/community-regulation',
]);

/**
 * Pages linked from menus (header bell, avatar menu) that exist. Like BUILT_ROUTES, a link appears
 * only when its page is built; the issue that builds a page adds its path pattern here.
 */
export const BUILT_PAGES: readonly RegExp[] = [
  /^\/login$/,
  /^\/register$/,
  /^\/reset-password$/,
  /^\/message\/(system|private)$/,
  /^\/search$/,
  /^\/lightnovel(\/list|\/\d+|\/volumes\/\d+)?$/,
  /^\/space\/\d+(\/(comment|dynamic|favorite|rate|setting|setting\/points))?$/,
  /^\/create\/home$/,
  /^\/creator-application$/,
];

export function isPageBuilt(path: string, built: readonly RegExp[] = BUILT_PAGES): boolean {
  return built.some((pattern) => pattern.test(path));
}

/** The items to show: built sections, and the ad item only when its link is configured. */
export function navItemsFor(adUrl: string | null | undefined, built: ReadonlySet<string> = BUILT_ROUTES): NavItem[] {
  return NAV_ITEMS.flatMap((item) => {
    if (item.type === 'ad') return adUrl ? [{ ...item, route: adUrl }] : [];
    return built.has(item.route) ? [item] : [];
  });
}

export function isExternalRoute(route: string): boolean {
  return /^https?:\/\//i.test(route);
}

export interface FooterLink {
  id: string;
  label: MessageKey;
  route: string;
}

export const footerLinks: FooterLink[] = [
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
