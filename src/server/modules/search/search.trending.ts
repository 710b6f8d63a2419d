import { sql } from 'kysely';
import {
  SEARCH_KEYWORD_MAX,
  type SearchSuggestion,
  type TrendingItem,
  type TrendingWindow,
} from '../../../shared/search/search-model.ts';
import type { Db } from '../../db/database.ts';
import { nameKey } from './search.text.ts';

// 'Everyone is searching' (decision 024): a searcher counts once per keyword per hour, so repeating a
// search never pushes a keyword; trending sums the distinct searchers of each hour in a sliding window.
// Operators keep keywords out with the block list (npm run search:block).

const HOUR_MS = 60 * 60 * 1000;
const WINDOW_HOURS: Record<TrendingWindow, number> = { '1h': 1, '24h': 24, '7d': 24 * 7 };
/** Hours of counts kept: the longest window and the hour before it. */
export const TREND_KEEP_HOURS = 24 * 7 + 1;

export const hourOf = (now: Date): number => Math.floor(now.getTime() / HOUR_MS);

/**
 * Whether a request's search may count: made from this site's own pages, or opened by the reader
 * (typed, a bookmark), as the browser's Sec-Fetch-Site says. A search another site's page makes
 * visitors' browsers send (an image, a link, a script) does not count, so such a page cannot push a
 * keyword with its visitors' addresses. Browsers that send no such header count.
 */
export const searchMayCount = (fetchSite: string | null | undefined): boolean =>
  !fetchSite || fetchSite === 'same-origin' || fetchSite === 'none';

/** Who searched: a member by id, a visitor by address. */
export const searchActor = (userId: string | number | null | undefined, ip: string): string =>
  userId !== null && userId !== undefined ? `user:${userId}` : `ip:${ip}`;

/**
 * Counts one search of `keyword` by `actor`: the first of this hour counts, later ones do nothing.
 * Keywords without letters or digits, or longer than a keyword may be, are not counted.
 */
export async function recordSearch(db: Db, input: { keyword: string; actor: string; now?: Date }): Promise<boolean> {
  const keyword = input.keyword.trim();
  const key = nameKey(keyword);
  if (key === '' || keyword.length > SEARCH_KEYWORD_MAX) return false;
  const hour = hourOf(input.now ?? new Date());
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('search_query')
      .values({ keyword_key: key, actor: input.actor.slice(0, 200), hour })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .insertInto('search_trend')
      .values({ keyword_key: key, hour, keyword, searchers: 1 })
      .onConflict((oc) =>
        oc.columns(['keyword_key', 'hour']).doUpdateSet({
          searchers: sql`search_trend.searchers + 1`,
          keyword: (eb) => eb.ref('excluded.keyword'),
        }),
      )
      .execute();
    return true;
  });
}

/** Counted searches since hour `from`, per keyword, blocked keywords left out. */
const searchedSince = (db: Db, from: number) =>
  db
    .selectFrom('search_trend as t')
    .select(['t.keyword_key', sql<number>`sum(t.searchers)`.as('searchers')])
    .where('t.hour', '>=', from)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('search_block as b').select('b.keyword_key').whereRef('b.keyword_key', '=', 't.keyword_key')),
      ),
    )
    .groupBy('t.keyword_key')
    .orderBy('searchers', 'desc');

/** The most searched keywords of the window, most searchers first, blocked ones left out. */
export async function trendingKeywords(
  db: Db,
  options: { limit: number; window: TrendingWindow; now?: Date },
): Promise<TrendingItem[]> {
  const from = hourOf(options.now ?? new Date()) - WINDOW_HOURS[options.window] + 1;
  const rows = await searchedSince(db, from)
    .select(sql<number>`max(t.hour)`.as('last'))
    .orderBy('last', 'desc')
    .orderBy('t.keyword_key')
    .limit(options.limit)
    .execute();
  if (rows.length === 0) return [];
  // Each keyword as it was last typed.
  const latest = await db
    .selectFrom('search_trend')
    .select(['keyword_key', 'keyword', 'hour'])
    .where(
      'keyword_key',
      'in',
      rows.map((r) => r.keyword_key),
    )
    .where('hour', '>=', from)
    .execute();
  const shown = new Map<string, { keyword: string; hour: number }>();
  for (const r of latest) {
    const known = shown.get(r.keyword_key);
    if (!known || r.hour > known.hour) shown.set(r.keyword_key, { keyword: r.keyword, hour: r.hour });
  }
  return rows.map((r) => ({ keyword: shown.get(r.keyword_key)?.keyword ?? r.keyword_key, count: Number(r.searchers) }));
}

/** Searched keywords of the last week starting with the prefix, most searched first. */
export async function suggestSearches(
  db: Db,
  prefix: string,
  limit: number,
  now = new Date(),
): Promise<SearchSuggestion[]> {
  const key = nameKey(prefix);
  if (key === '') return [];
  const from = hourOf(now) - WINDOW_HOURS['7d'] + 1;
  const rows = await searchedSince(db, from)
    .select(sql<string>`max(t.keyword)`.as('keyword'))
    .where('t.keyword_key', '>=', key)
    .where('t.keyword_key', '<', `${key}\u{10FFFF}`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ keyword: r.keyword }));
}

/** Drops searches older than the longest window (and the per-hour dedupe rows of past hours). */
export async function pruneSearches(db: Db, now = new Date()): Promise<void> {
  const hour = hourOf(now);
  await db
    .deleteFrom('search_query')
    .where('hour', '<', hour - 1)
    .execute();
  await db
    .deleteFrom('search_trend')
    .where('hour', '<', hour - TREND_KEEP_HOURS)
    .execute();
}

/** The block list: keywords kept out of trending and suggestions. */
export async function blockKeyword(db: Db, keyword: string, now = new Date()): Promise<boolean> {
  const key = nameKey(keyword);
  if (key === '') return false;
  const result = await db
    .insertInto('search_block')
    .values({ keyword_key: key, keyword: keyword.trim(), created_at: now.toISOString() })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function unblockKeyword(db: Db, keyword: string): Promise<boolean> {
  const result = await db.deleteFrom('search_block').where('keyword_key', '=', nameKey(keyword)).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function blockedKeywords(db: Db): Promise<{ keyword: string; createdAt: string }[]> {
  const rows = await db.selectFrom('search_block').select(['keyword', 'created_at']).orderBy('created_at').execute();
  return rows.map((r) => ({ keyword: r.keyword, createdAt: r.created_at }));
}

export const isBlocked = async (db: Db, keyword: string): Promise<boolean> =>
  (await db
    .selectFrom('search_block')
    .select('keyword_key')
    .where('keyword_key', '=', nameKey(keyword))
    .executeTakeFirst()) !== undefined;

/** Searches one process already counted this hour, so repeats do not reach the database. */
const counted = new WeakMap<Db, { hour: number; seen: Set<string> }>();
const COUNTED_MAX = 100_000;

/**
 * Counts a search (see recordSearch) unless this process already counted the same searcher and
 * keyword this hour. Never fails: a search that is not counted is logged.
 */
export async function countSearch(
  ctx: { db: Db; logger: { warn: (obj: object, msg: string) => void } },
  keyword: string,
  actor: string,
): Promise<void> {
  const hour = hourOf(new Date());
  let state = counted.get(ctx.db);
  if (!state || state.hour !== hour || state.seen.size >= COUNTED_MAX) {
    state = { hour, seen: new Set() };
    counted.set(ctx.db, state);
  }
  const key = `${nameKey(keyword)}\n${actor}`;
  if (state.seen.has(key)) return;
  state.seen.add(key);
  await recordSearch(ctx.db, { keyword, actor }).catch((error: unknown) => {
    state.seen.delete(key);
    ctx.logger.warn({ err: error }, 'search not counted');
  });
}
