import { HttpError } from '../../server/platform/errors.ts';
import { pageTags } from '../../server/http/page-cache-policy.ts';
import type { GalgameCard, GalgameDetail, GalgameListQuery, Pagination } from '../../shared/catalogue.ts';
import { siteToday } from '../../shared/site-day.ts';

/** Route and query helpers of the Galgame pages: ids, list links, pagination and the release calendar. */

/** A route id as a positive integer (digits only, no leading zero); anything else is null, so the page answers 404. */
export function parseRouteId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * An empty 404 answer from a page: Astro then renders src/pages/404.astro for the requested path, so
 * the visitor sees the site's own 'Page not found: {path}'.
 */
export const notFoundResponse = () => new Response(null, { status: 404 });

/** Runs a service call; a 404 from it (unknown or unpublished id) becomes null. */
export async function orNotFound<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}

const LIST_PATH = '/galgame/list';

/** /galgame/list with the given filters; defaults (all, date, page 1) are left out so links stay short. */
export function listHref(query: Partial<GalgameListQuery>): string {
  const params = new URLSearchParams();
  if (query.tag !== undefined) params.set('tag', String(query.tag));
  if (query.platform !== undefined) params.set('platform', query.platform);
  if (query.year !== undefined) params.set('year', String(query.year));
  if (query.translation !== undefined) params.set('translation', query.translation);
  if (query.nsfw && query.nsfw !== 'all') params.set('nsfw', query.nsfw);
  if (query.sort && query.sort !== 'date') params.set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `${LIST_PATH}?${search}` : LIST_PATH;
}

/**
 * Where a page number past the end goes: the last page of the same list (filters kept), so a stale
 * or typed `?page=999` never shows a total above an empty result. Null when the page exists, or when
 * the list is empty anyway (page 1 then shows the empty state).
 */
export function lastPageRedirect(
  query: GalgameListQuery,
  pagination: { page: number; total: number; totalPages: number },
): string | null {
  if (pagination.total === 0 || pagination.page <= pagination.totalPages) return null;
  return listHref({ ...query, page: pagination.totalPages });
}

/**
 * How the list page states its size: exact, or "more than" when counting stopped at the cap; and
 * whether its pages end before its last game (lists page through LIST_COUNT_CAP games at most).
 */
export function listSize(pagination: Pagination): {
  key: 'galgame.list.total' | 'galgame.list.totalMore';
  endsEarly: boolean;
} {
  return {
    key: pagination.capped ? 'galgame.list.totalMore' : 'galgame.list.total',
    endsEarly: pagination.capped === true || pagination.totalPages * pagination.limit < pagination.total,
  };
}

/** The same list with one filter removed (and back to page 1). */
export function withoutFilter(query: GalgameListQuery, key: 'tag' | 'platform' | 'year' | 'translation' | 'nsfw') {
  const next: Partial<GalgameListQuery> = { ...query, page: 1 };
  if (key === 'nsfw') next.nsfw = 'all';
  else delete next[key];
  return listHref(next);
}

/** True when any filter differs from the defaults (sorting is not a filter). */
export function hasFilters(query: GalgameListQuery): boolean {
  return (
    query.tag !== undefined ||
    query.platform !== undefined ||
    query.year !== undefined ||
    query.translation !== undefined ||
    query.nsfw !== 'all'
  );
}

export type PageItem = { kind: 'page'; page: number; current: boolean } | { kind: 'gap'; key: string };

/** Page numbers to link: the first, the last, and `around` pages either side of the current one, with gaps. */
export function pageItems(current: number, totalPages: number, around = 2): PageItem[] {
  const pages = new Set<number>([1, totalPages]);
  for (let p = current - around; p <= current + around; p++) if (p >= 1 && p <= totalPages) pages.add(p);
  const sorted = [...pages].filter((p) => p >= 1).sort((a, b) => a - b);
  const items: PageItem[] = [];
  let previous = 0;
  for (const page of sorted) {
    // A gap of exactly one page shows that page instead of an ellipsis.
    if (page - previous === 2) items.push({ kind: 'page', page: page - 1, current: page - 1 === current });
    else if (page - previous > 2) items.push({ kind: 'gap', key: `gap-${page}` });
    items.push({ kind: 'page', page, current: page === current });
    previous = page;
  }
  return items;
}

/** A page item shown on phones, on wider screens, or on both. */
export type ResponsivePageItem = PageItem & { phone: boolean; wide: boolean };

/**
 * One row of page links for both widths: phones get `phoneAround` pages either side of the current
 * one, wider screens `wideAround` (a superset). Items only wider screens show are marked, and a phone
 * gets its own gap where it skips them, so the row renders once instead of once per width.
 */
export function responsivePageItems(
  current: number,
  totalPages: number,
  phoneAround = 1,
  wideAround = 2,
): ResponsivePageItem[] {
  const pagesOf = (items: PageItem[]) => new Set(items.flatMap((item) => (item.kind === 'page' ? [item.page] : [])));
  const phone = pagesOf(pageItems(current, totalPages, phoneAround));
  const wide = pagesOf(pageItems(current, totalPages, wideAround));
  const items: ResponsivePageItem[] = [];
  let lastPhone = 0;
  let lastWide = 0;
  for (const page of [...new Set([...phone, ...wide])].sort((a, b) => a - b)) {
    const onPhone = phone.has(page);
    const onWide = wide.has(page);
    const phoneGap = onPhone && page - lastPhone > 1;
    const wideGap = onWide && page - lastWide > 1;
    if (phoneGap || wideGap) items.push({ kind: 'gap', key: `gap-${page}`, phone: phoneGap, wide: wideGap });
    items.push({ kind: 'page', page, current: page === current, phone: onPhone, wide: onWide });
    if (onPhone) lastPhone = page;
    if (onWide) lastWide = page;
  }
  return items;
}

export interface Month {
  year: number;
  month: number;
}

/** `?month=YYYY-MM`, or the site's current month when missing or malformed. */
export function parseMonth(raw: string | null, now: Date): Month {
  const match = raw ? /^(\d{4})-(\d{2})$/.exec(raw) : null;
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    if (year >= 1980 && year <= 2100 && month >= 1 && month <= 12) return { year, month };
  }
  const [year, month] = siteToday(now).split('-').map(Number);
  return { year: year ?? 1970, month: month ?? 1 };
}

export function shiftMonth({ year, month }: Month, delta: number): Month {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export const monthKey = ({ year, month }: Month) => `${year}-${String(month).padStart(2, '0')}`;

export const releasesHref = (month: Month) => `/galgame/releases?month=${monthKey(month)}`;

/** Games of one month grouped by their release day, in date order (the input is already sorted). */
export function groupByDay(games: readonly GalgameCard[]): { date: string; games: GalgameCard[] }[] {
  const days = new Map<string, GalgameCard[]>();
  for (const game of games) {
    if (!game.releaseDate) continue;
    days.set(game.releaseDate, [...(days.get(game.releaseDate) ?? []), game]);
  }
  return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, list]) => ({ date, games: list }));
}

/** The data a game's page shows from its detail: the game, related games, characters, people, producers. */
export function galgameTags(game: GalgameDetail): string[] {
  return [
    pageTags.galgame(game.id),
    ...game.related.map((g) => pageTags.galgame(g.id)),
    ...game.characters.flatMap((c) => [pageTags.character(c.id), ...(c.voice ? [pageTags.person(c.voice.id)] : [])]),
    ...game.staff.map((p) => pageTags.person(p.id)),
    ...game.producers.map((p) => pageTags.producer(p.id)),
  ];
}

/** The data a list of games shows: which games are published, and each game's card. */
export function cardTags(games: readonly Pick<GalgameCard, 'id'>[]): string[] {
  return [pageTags.galgames, ...games.map((game) => pageTags.galgame(game.id))];
}
