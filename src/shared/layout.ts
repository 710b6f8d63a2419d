/** The nine layouts of spec §2.1. */
export const LAYOUTS = [
  'home',
  'default',
  'community',
  'galgame-detail',
  'login',
  'message',
  'reader',
  'space',
  'editor',
] as const;
export type LayoutName = (typeof LAYOUTS)[number];

export type HeaderVariant = 'default' | 'community' | 'create';

/** Spec §2.2: the create variant on any path containing /create, otherwise default. */
export function headerVariant(pathname: string, layout?: LayoutName): HeaderVariant {
  if (pathname.includes('/create')) return 'create';
  return layout === 'community' ? 'community' : 'default';
}

const HEADERLESS = ['/login', '/register', '/reset-password', '/lightnovel/read'];

/** Spec §2.2: no header on the login pages and in the reader. */
export function isHeaderHidden(pathname: string): boolean {
  const path = normalisePath(pathname);
  return HEADERLESS.some((p) => path === p || path.startsWith(`${p}/`));
}

/** Spec §2.1: navigating to these pages keeps the scroll position instead of jumping to the top. */
export function keepsScrollOnNavigation(pathname: string): boolean {
  const path = normalisePath(pathname);
  return /^\/lightnovel\/volumes\/[^/]+$/.test(path) || /^\/space\/[^/]+(\/|$)/.test(path);
}

export function normalisePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Spec §2.1: a route parameter id must be non-empty (whitespace counts as empty). */
export function isValidRouteId(id: string | undefined): id is string {
  return typeof id === 'string' && id.trim().length > 0;
}
