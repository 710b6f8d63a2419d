import type { Translate } from '../../../shared/i18n/index.ts';
import type { IconName } from '../../../shared/icons.ts';
import { isExternalRoute, navItemsFor, type AdStyle } from '../../../shared/navigation.ts';

/** A nav item as the header island receives it: names already in the page's language. */
export interface NavItemView {
  id: string;
  name: string;
  route: string;
  iconName: IconName;
  type: 'normal' | 'ad';
  adStyle?: AdStyle;
  tag?: string;
  external: boolean;
}

/**
 * The header's items in the page's language: the built sections, and the advertisement item apart,
 * without its link (shown once the link is known from the configuration).
 */
export function navItemViews(t: Translate): { items: NavItemView[]; adItem: NavItemView | null } {
  const views: NavItemView[] = navItemsFor('about:blank').map((item) => ({
    id: item.id,
    name: t(item.name),
    route: item.route,
    iconName: item.icon.iconName,
    type: item.type,
    ...(item.adStyle ? { adStyle: item.adStyle } : {}),
    ...(item.tag ? { tag: t(item.tag) } : {}),
    external: item.type === 'ad' || isExternalRoute(item.route),
  }));
  return {
    items: views.filter((item) => item.type !== 'ad'),
    adItem: views.find((item) => item.type === 'ad') ?? null,
  };
}

/** Pages whose own job is logging in: a link from them keeps the way back they were given. */
const AUTH_PAGES = ['/login', '/register', '/reset-password'];

/**
 * The header's login or register address, carrying the page to come back to (spec §2.1 jumpTo): the
 * current path and query, or on an auth page the jumpTo that page already carries.
 */
export function authHref(page: '/login' | '/register', location: { pathname: string; search: string }): string {
  const back = AUTH_PAGES.includes(location.pathname.replace(/\/+$/, '') || '/')
    ? new URLSearchParams(location.search).get('jumpTo')
    : `${location.pathname}${location.search}`;
  return back && back !== '/' ? `${page}?jumpTo=${encodeURIComponent(back)}` : page;
}
