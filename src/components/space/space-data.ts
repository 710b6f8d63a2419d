import type { AstroGlobal } from 'astro';
import type { PublicUser } from '../../shared/auth-model.ts';
import type { UserStatistics } from '../../shared/users/space-model.ts';
import { spaceOwner, userStatistics } from '../../server/modules/users/space.service.ts';
import { toPublicUser } from '../../server/modules/users/users.service.ts';
import { notFoundResponse, orNotFound, parseRouteId } from '../galgame/galgame-routes.ts';
import { sessionViewer } from '../galgame/viewer.ts';
import type { Pagination } from '../../shared/catalogue-model.ts';

/** The space tabs (spec §2.1); `read` waits for the light-novel reader. */
export const SPACE_TABS = ['home', 'comment', 'dynamic', 'favorite', 'rate', 'read', 'setting'] as const;
export type SpaceTab = (typeof SPACE_TABS)[number];

export const spacePath = (userId: number, tab: SpaceTab = 'home') =>
  tab === 'home' ? `/space/${userId}` : `/space/${userId}/${tab}`;

/** What every space page shows above its tab: the member, their counts, and whether the viewer is them. */
export interface SpaceData {
  owner: PublicUser;
  /** The member's account id (server side only: the lists are read by it). */
  accountId: string;
  banned: boolean;
  stats: UserStatistics;
  /** The viewer is the owner (from the user-info cookie: display only; the API checks every call). */
  isOwner: boolean;
  /** The page is rendered for a member (the follow button's first look). */
  loggedIn: boolean;
}

/** The space of `/space/{id}`, or null for an id no member has (the page answers 404). */
export async function loadSpace(astro: AstroGlobal): Promise<SpaceData | null> {
  const id = parseRouteId(astro.params.id);
  if (id === null) return null;
  const db = astro.locals.app.db;
  const owner = await orNotFound(() => spaceOwner(db, id));
  if (!owner) return null;
  const stats = await userStatistics(db, id);
  const viewer = sessionViewer(astro);
  return {
    owner: toPublicUser(owner),
    accountId: owner.id,
    banned: owner.status === 'banned',
    stats,
    isOwner: viewer?.userId === owner.user_id,
    loggedIn: viewer !== null,
  };
}

/** The page number of `?page=`, 1 when missing or not a plain positive number. */
export function pageParam(url: URL, name = 'page'): number {
  const raw = url.searchParams.get(name) ?? '';
  return /^[1-9]\d{0,4}$/.test(raw) ? Number(raw) : 1;
}

/** The address of another page of a list, keeping the other query parameters. */
export function pageHref(url: URL, page: number, name = 'page'): string {
  const next = new URL(url);
  if (page <= 1) next.searchParams.delete(name);
  else next.searchParams.set(name, String(page));
  return `${next.pathname}${next.search}`;
}

/** Where a page past the end of a non-empty list goes (its last page), or null when the page exists. */
export function lastPageHref(url: URL, pagination: Pagination): string | null {
  if (pagination.total === 0 || pagination.page <= pagination.totalPages) return null;
  return pageHref(url, pagination.totalPages);
}

/**
 * A space tab that lists something page by page: the space and the list's page of `?page=` (no list for
 * a banned member), or the response to send instead: 404 for an unknown member, the last page for a page
 * past the end.
 */
export async function loadSpaceList<T extends { pagination: Pagination }>(
  astro: AstroGlobal,
  load: (space: SpaceData, page: number) => Promise<T>,
): Promise<Response | { space: SpaceData; list: T | null }> {
  const space = await loadSpace(astro);
  if (!space) return notFoundResponse();
  const list = space.banned ? null : await load(space, pageParam(astro.url));
  const lastPage = list ? lastPageHref(astro.url, list.pagination) : null;
  if (lastPage) return astro.redirect(lastPage, 302);
  return { space, list };
}
