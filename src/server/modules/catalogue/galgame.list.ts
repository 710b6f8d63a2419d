import { sql } from 'kysely';
import {
  LIST_COUNT_CAP,
  LIST_PAGE_SIZE,
  type GalgameCard,
  type GalgameListQuery,
  type ListSort,
} from '../../../shared/catalogue.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { offsetOf, pageInfo, type Page, type PageRequest } from '../../db/paginate.ts';
import { ALL_FACET, facetKey, PLATFORM_BITS, TRANSLATION_BITS } from './catalogue.facets.ts';
import { cardColumns, toCard } from './catalogue.mappers.ts';

// /galgame/list on the facet rows (docs/decisions/011-fast-list-queries.md). A list reads one facet's
// rows in the order of the sort from its index, checking the filters that facet does not cover on each
// row; the facet is the one with the fewest games, so the rows read are bounded by the smallest filter.
// With a year, only that year's range of the facet's date index is read (and sorted, for the other sorts).

export type ListFilters = Omit<GalgameListQuery, 'sort' | 'page'>;

/** How one list is read. */
export interface ListPlan {
  facet: string;
  /** The NSFW flags listed: two are read side by side and merged in order. */
  nsfw: readonly (0 | 1)[];
  /** release_key bounds of the year filter when the facet does not cover it. */
  releaseRange: readonly [number, number] | null;
  platformBit: number | null;
  translationBit: number | null;
  /** The tag filter when the facet does not cover it: looked up in galgame_tag per row. */
  probeTag: number | null;
  /** Games in the facet per listed NSFW flag: the list's total when nothing else filters. */
  facetGames: ReadonlyMap<0 | 1, number>;
}

/** Games per facet and NSFW flag, from the facet counts. */
export type FacetSizes = ReadonlyMap<string, ReadonlyMap<number, number>>;

const gamesIn = (sizes: FacetSizes, facet: string, flags: readonly number[]) =>
  flags.reduce((n, flag) => n + (sizes.get(facet)?.get(flag) ?? 0), 0);

const NSFW_FLAGS = { all: [0, 1], safe: [0], nsfw: [1] } as const satisfies Record<string, readonly (0 | 1)[]>;

/** A tag looked up per row costs about five rows read from an index (measured on SQLite). */
const PROBE_COST = 5;

interface Candidate {
  facet: string;
  tag?: true;
  platform?: true;
  translation?: true;
  year?: true;
}

/** The facets that could drive a list: one per filter, tag and translation together as one. */
function candidates(f: ListFilters): Candidate[] {
  const list: Candidate[] = [];
  if (f.tag !== undefined && f.translation !== undefined)
    list.push({ facet: facetKey.tagTranslation(f.tag, f.translation), tag: true, translation: true });
  else if (f.tag !== undefined) list.push({ facet: facetKey.tag(f.tag), tag: true });
  else if (f.translation !== undefined) list.push({ facet: facetKey.translation(f.translation), translation: true });
  if (f.platform !== undefined) list.push({ facet: facetKey.platform(f.platform), platform: true });
  if (f.year !== undefined) list.push({ facet: facetKey.year(f.year), year: true });
  return list;
}

/** Games of the facets the filters name, per listed NSFW flag. */
export async function facetSizes(db: Db, f: ListFilters): Promise<FacetSizes> {
  const facets = [ALL_FACET, ...candidates(f).map((c) => c.facet)];
  const rows = await db
    .selectFrom('galgame_facet_count')
    .select(['facet', 'nsfw', 'games'])
    .where('facet', 'in', facets)
    .where('nsfw', 'in', [...NSFW_FLAGS[f.nsfw]])
    .execute();
  const sizes = new Map<string, Map<number, number>>();
  for (const r of rows) sizes.set(r.facet, (sizes.get(r.facet) ?? new Map()).set(r.nsfw, Number(r.games)));
  return sizes;
}

/**
 * Chooses the facet to read. A year with another filter is a range of that filter's date index: at most
 * a year's games, read in date order or sorted by rating or views; a year alone is its own facet.
 */
export function planList(f: ListFilters, sizes: FacetSizes): ListPlan {
  const flags = NSFW_FLAGS[f.nsfw];
  const all = candidates(f);
  const others = all.filter((c) => !c.year);
  const pool = others.length > 0 ? others : all.length > 0 ? all : [{ facet: ALL_FACET }];
  const cost = (c: Candidate) => gamesIn(sizes, c.facet, flags) * (f.tag !== undefined && !c.tag ? PROBE_COST : 1);
  const chosen = pool.reduce((best, c) => (cost(c) < cost(best) ? c : best));
  return {
    facet: chosen.facet,
    nsfw: flags,
    releaseRange: f.year !== undefined && !chosen.year ? [f.year * 10_000, f.year * 10_000 + 9_999] : null,
    platformBit: f.platform !== undefined && !chosen.platform ? PLATFORM_BITS[f.platform] : null,
    translationBit: f.translation !== undefined && !chosen.translation ? TRANSLATION_BITS[f.translation] : null,
    probeTag: f.tag !== undefined && !chosen.tag ? f.tag : null,
    facetGames: new Map(flags.map((flag) => [flag, gamesIn(sizes, chosen.facet, [flag])])),
  };
}

/** True when a filter names a facet without games: the list is empty, nothing needs reading. */
export const emptyByCounts = (f: ListFilters, sizes: FacetSizes) =>
  [ALL_FACET, ...candidates(f).map((c) => c.facet)].some((facet) => gamesIn(sizes, facet, NSFW_FLAGS[f.nsfw]) === 0);

const exactFromCounts = (plan: ListPlan) =>
  plan.releaseRange === null && plan.platformBit === null && plan.translationBit === null && plan.probeTag === null;

/** The facet rows of one NSFW flag that pass the plan's filters. */
function facetRows(db: Db, plan: ListPlan, nsfw: 0 | 1) {
  let q = db.selectFrom('galgame_facet as f').where('f.facet', '=', plan.facet).where('f.nsfw', '=', nsfw);
  if (plan.releaseRange)
    q = q.where('f.release_key', '>=', plan.releaseRange[0]).where('f.release_key', '<=', plan.releaseRange[1]);
  if (plan.platformBit !== null) q = q.where(sql<boolean>`(${sql.ref('f.platform_mask')} & ${plan.platformBit}) <> 0`);
  if (plan.translationBit !== null)
    q = q.where(sql<boolean>`(${sql.ref('f.translation_mask')} & ${plan.translationBit}) <> 0`);
  const tag = plan.probeTag;
  if (tag !== null)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('galgame_tag as t')
          .select('t.tag_id')
          .where('t.tag_id', '=', tag)
          .whereRef('t.galgame_id', '=', 'f.galgame_id'),
      ),
    );
  return q;
}

const SORT_COLUMN = { date: 'release_key', rating: 'rating_avg', popularity: 'view_count' } as const;

/**
 * One page of a planned list: the ids in order from the facet index (both NSFW flags merged when both are
 * listed; the id breaks ties, so pages never overlap), then the cards of those games only.
 */
export function pageQuery(db: Db, plan: ListPlan, sort: ListSort, request: PageRequest) {
  const column = SORT_COLUMN[sort];
  const [first, second] = plan.nsfw.map((flag) =>
    facetRows(db, plan, flag).select((eb) => ['f.galgame_id', eb.ref(`f.${column}`).as('k')]),
  );
  if (!first) throw new Error('a list reads at least one NSFW flag');
  // SQLite merges the two flags' index scans in order. PostgreSQL (15) cannot merge a UNION and would
  // sort both flags whole, so there each flag is first cut to the rows up to this page, in index order.
  const upTo = offsetOf(request) + request.limit;
  const cut = dialectOf(db) === 'postgres';
  const arm = (flag: typeof first, cutHere: boolean) =>
    db
      .selectFrom((cutHere ? flag.orderBy('k', 'desc').orderBy('galgame_id', 'desc').limit(upTo) : flag).as('arm'))
      .select(['arm.galgame_id', 'arm.k']);
  const source = second ? arm(first, cut).unionAll(arm(second, cut)) : arm(first, false);
  const ids = db
    .selectFrom(source.as('u'))
    .select(['u.galgame_id', 'u.k'])
    .orderBy('k', 'desc')
    .orderBy('galgame_id', 'desc')
    .limit(request.limit)
    .offset(offsetOf(request));
  return db
    .selectFrom(ids.as('x'))
    .innerJoin('galgame as g', 'g.id', 'x.galgame_id')
    .select(cardColumns)
    .orderBy('x.k', 'desc')
    .orderBy('x.galgame_id', 'desc');
}

/**
 * Counts the rows of one NSFW flag, reading at most `upTo` of them. When the facet holds no more games
 * than that, a plain count does (twice as fast as counting through a limited subquery).
 */
export function countQuery(db: Db, plan: ListPlan, nsfw: 0 | 1, upTo: number) {
  const count = sql<number>`count(*)`.as('n');
  if ((plan.facetGames.get(nsfw) ?? 0) <= upTo) return facetRows(db, plan, nsfw).select(count);
  return db.selectFrom(facetRows(db, plan, nsfw).select('f.galgame_id').limit(upTo).as('c')).select(count);
}

/**
 * The number of games of a planned list: exact from the facet counts when the facet is the whole list,
 * else counted up to `cap` (then the cap and `capped`: there are more).
 */
export async function countList(
  db: Db,
  plan: ListPlan,
  cap = LIST_COUNT_CAP,
): Promise<{ total: number; capped: boolean }> {
  if (exactFromCounts(plan)) return { total: [...plan.facetGames.values()].reduce((a, b) => a + b, 0), capped: false };
  let counted = 0;
  for (const flag of plan.nsfw) {
    const row = await countQuery(db, plan, flag, cap + 1 - counted).executeTakeFirstOrThrow();
    counted += Number(row.n);
    if (counted > cap) return { total: cap, capped: true };
  }
  return { total: counted, capped: false };
}

export interface ListOptions {
  pageSize?: number;
  /** Games a list counts and pages through at most (LIST_COUNT_CAP). */
  countCap?: number;
}

/**
 * /galgame/list: one page of published games under the filters and sort, with the total. Pages end
 * after `countCap` games; a page past the end has no items (the page sends the visitor to the last).
 */
export async function listGalgames(
  db: Db,
  query: GalgameListQuery,
  { pageSize = LIST_PAGE_SIZE, countCap = LIST_COUNT_CAP }: ListOptions = {},
): Promise<Page<GalgameCard>> {
  const request = { page: query.page, limit: pageSize };
  const sizes = await facetSizes(db, query);
  const plan = planList(query, sizes);
  const { total, capped } = emptyByCounts(query, sizes)
    ? { total: 0, capped: false }
    : await countList(db, plan, countCap);
  const pagination = pageInfo(request, total, { capped, maxPages: Math.ceil(countCap / pageSize) });
  if (total === 0 || query.page > pagination.totalPages) return { items: [], pagination };
  const rows = await pageQuery(db, plan, query.sort, request).execute();
  return { items: rows.map(toCard), pagination };
}
