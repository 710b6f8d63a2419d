import { normalisePath } from './layout.ts';

/** Spec §9: reserved widths (px) of the header areas around the navigation. */
export const HEADER_RESERVED = {
  logo: 216.39,
  more: 120,
  search: 250,
  visitorActions: 144,
  userActions: 220,
} as const;
/** Spec §9: nav recalculation on resize is throttled to this many ms. */
export const NAV_RESIZE_THROTTLE_MS = 100;
/** Spec §2.2, §9: below this width the header shows the menu button instead of the navigation. */
export const MOBILE_BREAKPOINT = 1000;

export interface NavOverflowInput {
  /** Width of the whole header row. */
  headerWidth: number;
  /** Measured width of each item, in order, and whether it is an ad item (ads always stay visible). */
  items: { id: string; width: number; ad: boolean }[];
  showSearch: boolean;
  loggedIn: boolean;
}

export interface NavOverflow {
  visible: string[];
  overflow: string[];
}

/**
 * Which items fit in the header and which move into the 'More' dropdown. Ad items are always visible;
 * normal items fit in order until the space (less the More button when needed) runs out.
 */
export function computeNavOverflow({ headerWidth, items, showSearch, loggedIn }: NavOverflowInput): NavOverflow {
  const available =
    headerWidth -
    HEADER_RESERVED.logo -
    (showSearch ? HEADER_RESERVED.search : 0) -
    (loggedIn ? HEADER_RESERVED.userActions : HEADER_RESERVED.visitorActions);
  const adWidth = items.filter((i) => i.ad).reduce((sum, i) => sum + i.width, 0);
  const normal = items.filter((i) => !i.ad);
  const normalWidth = normal.reduce((sum, i) => sum + i.width, 0);

  if (adWidth + normalWidth <= available) return { visible: items.map((i) => i.id), overflow: [] };

  let room = available - adWidth - HEADER_RESERVED.more;
  const fits = new Set<string>();
  for (const item of normal) {
    if (item.width > room) break;
    room -= item.width;
    fits.add(item.id);
  }
  return {
    visible: items.filter((i) => i.ad || fits.has(i.id)).map((i) => i.id),
    overflow: normal.filter((i) => !fits.has(i.id)).map((i) => i.id),
  };
}

const NO_BACK_PATHS = new Set(['/', '/login', '/register', '/create', '/community', '/galgame', '/lightnovel']);

/** Spec §2.2: the Back button shows when there is history to go back to, except on top-level pages. */
export function showBackButton(pathname: string, historyLength: number): boolean {
  return historyLength > 1 && !NO_BACK_PATHS.has(normalisePath(pathname));
}

/** Spec §2.3: the search box shows in the default header variant, except on /search. */
export function showHeaderSearch(variant: string, pathname: string): boolean {
  return variant === 'default' && normalisePath(pathname) !== '/search';
}
