import type { AdStyle } from '../../../shared/navigation.ts';
import type { IconName } from '../../../shared/icons.ts';

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
