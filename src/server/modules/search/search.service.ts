import { sql } from 'kysely';
import type { SearchQuery } from '../../../shared/search/search.contract.ts';
import {
  RELATIVE_MATCH_DEFAULT,
  SEARCH_COUNT_CAP,
  SEARCH_PAGE_LIMIT,
  SEARCH_TYPES,
  type MatchedName,
  type SearchEntityCard,
  type SearchHit,
  type SearchResultPage,
  type SearchSuggestion,
  type SearchType,
} from '../../../shared/search/search-model.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { cardColumns, toCard } from '../catalogue/catalogue.mappers.ts';
import { seriesCardColumns, toSeriesCard } from '../lightnovel/lightnovel.mappers.ts';
import { entityWorks, ITEM_OF_ID_SQL, itemOfId, kindOfId, kindRange, SEARCH_KINDS } from './search.index.ts';
import { highlightRanges, indexTokens, nameKey, queryTerms, type QueryTerm } from './search.text.ts';

// Searching the index (decision 024). A query's matches are ranked in tiers: names equal to the
// query (titles before aliases), names starting with it, then every name holding all its terms, each
// tier in name-id order (shorter names first, then more popular items). An item appears once, at
// its best name.

const TYPE_KINDS: Record<SearchType, [number, number]> = {
  galgame: [SEARCH_KINDS.galgame, SEARCH_KINDS.galgame],
  novel: [SEARCH_KINDS.novel, SEARCH_KINDS.novel],
  producer: [SEARCH_KINDS.producer, SEARCH_KINDS.producer],
  person: [SEARCH_KINDS.person, SEARCH_KINDS.character],
};

/** The largest code point: every key starting with `k` sorts between `k` and `k + TOP`. */
const TOP = '\u{10FFFF}';

interface NameHit {
  id: number;
  name: string;
  field: number;
}

/** The FTS5 query of the terms (all must match); terms hold only letters and digits. */
const ftsQuery = (terms: QueryTerm[], joiner = ' AND ') =>
  terms.map((t) => `"${t.text}"${t.prefix ? '*' : ''}`).join(joiner);
/** The tsquery of the terms, written as tsquery input so nothing is parsed or stemmed. */
const tsQuery = (terms: QueryTerm[], joiner = ' & ') =>
  terms.map((t) => `'${t.text}'${t.prefix ? ':*' : ''}`).join(joiner);

/**
 * Ids of names of kinds in `range` holding every term (`any`: one of them), in id order. `few` says the
 * matches are known to be few (counted under COUNT_SCAN): PostgreSQL then reads them all from the GIN
 * index and sorts them, instead of walking the id index, which it prefers for a LIMIT but which reads
 * far more rows when the matches sit late in id order (66 ms against 1 ms for 'sak' on 100 000 games).
 */
async function matchIds(
  db: Db,
  terms: QueryTerm[],
  range: [number, number],
  limit: number,
  offset: number,
  options: { any?: boolean; few?: boolean } = {},
): Promise<number[]> {
  const [lo, hi] = range.map((n) => sql.lit(n));
  const any = options.any === true;
  const rows =
    dialectOf(db) === 'sqlite'
      ? await sql<{
          id: number;
        }>`select rowid as id from search_fts where search_fts match ${ftsQuery(terms, any ? ' OR ' : ' AND ')} and rowid between ${lo} and ${hi} order by rowid limit ${limit} offset ${offset}`.execute(
          db,
        )
      : await sql<{
          id: number;
        }>`select id from search_name where tokens @@ ${tsQuery(terms, any ? ' | ' : ' & ')}::tsquery and id between ${lo} and ${hi} order by ${(options.few ?? (await fewOnPostgres(db, tsQuery(terms, any ? ' | ' : ' & '), range))) ? sql`id + 0` : sql`id`} limit ${limit} offset ${offset}`.execute(
          db,
        );
  return rows.rows.map((r) => Number(r.id));
}

/** A count of results; `more` when counting stopped early (there are more than `n`). */
interface Count {
  n: number;
  more: boolean;
}

/**
 * Names read at most to count results: enough for SEARCH_COUNT_CAP items at several names each. Only
 * SEARCH_PAGE_LIMIT pages open anyway, and an exact count of a common character's 57 000 games cost
 * 50 ms (decision 024).
 */
const COUNT_SCAN = 4 * SEARCH_COUNT_CAP;

/** Matches PostgreSQL reads from the GIN index and sorts rather than finding them by walking the id index. */
const SORT_AT_MOST = 20_000;

/**
 * Whether PostgreSQL expects few enough names to match the tsquery that sorting them beats walking the
 * id index (its row estimate is close; its cost of the walk is not, as matches cluster in id order).
 */
async function fewOnPostgres(db: Db, query: string, range: [number, number]): Promise<boolean> {
  const [lo, hi] = range.map((n) => sql.lit(n));
  const plan = await sql<{
    'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }];
  }>`explain (format json) select id from search_name where tokens @@ ${query}::tsquery and id between ${lo} and ${hi}`.execute(
    db,
  );
  const rows = plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? Infinity;
  return rows <= SORT_AT_MOST;
}

/** How many items of kinds in `range` have a name holding every term, up to SEARCH_COUNT_CAP. */
async function matchCount(db: Db, terms: QueryTerm[], range: [number, number]): Promise<Count> {
  // A kind with nothing indexed (no light novels yet) costs one index probe, not a match.
  const any = await db
    .selectFrom('search_name')
    .select('id')
    .where('id', '>=', range[0])
    .where('id', '<=', range[1])
    .limit(1)
    .executeTakeFirst();
  if (!any) return { n: 0, more: false };
  const [lo, hi] = range.map((n) => sql.lit(n));
  const scan = sql.lit(COUNT_SCAN);
  const row =
    dialectOf(db) === 'sqlite'
      ? await sql<{
          n: number;
          names: number;
        }>`select count(distinct ${ITEM_OF_ID_SQL}) as n, count(*) as names from (select rowid as id from search_fts where search_fts match ${ftsQuery(terms)} and rowid between ${lo} and ${hi} limit ${scan})`.execute(
          db,
        )
      : await sql<{
          n: number;
          names: number;
        }>`select count(distinct ${ITEM_OF_ID_SQL}) as n, count(*) as names from (select id from search_name where tokens @@ ${tsQuery(terms)}::tsquery and id between ${lo} and ${hi} limit ${scan}) as m`.execute(
          db,
        );
  const n = Number(row.rows[0]?.n ?? 0);
  return capped(n, Number(row.rows[0]?.names ?? 0) >= COUNT_SCAN);
}

const capped = (n: number, more: boolean): Count =>
  n > SEARCH_COUNT_CAP ? { n: SEARCH_COUNT_CAP, more: true } : { n, more };

/** Names equal to the key (`prefix`: starting with it), of kinds in `range`, in id order. */
async function keyMatches(
  db: Db,
  key: string,
  range: [number, number],
  prefix: boolean,
  limit: number,
): Promise<NameHit[]> {
  let q = db.selectFrom('search_name').select(['id', 'name', 'field']);
  if (!prefix) q = q.where('name_key', '=', key).where('id', '>=', range[0]).where('id', '<=', range[1]);
  else if ([...key].length === 1) {
    // One character starts tens of thousands of names: read them in rank order from (head, id).
    q = q.where('head', '=', key).where('name_key', '<>', key).where('id', '>=', range[0]).where('id', '<=', range[1]);
  } else {
    // Both databases would walk the id index over the whole kind (seconds on SQLite, 70 ms on
    // PostgreSQL for a rare prefix on 100 000 games): `+id` leaves them the name_key index, and the
    // names found are sorted instead.
    const id = sql<number>`+id`;
    q = q
      .where('name_key', '>', key)
      .where('name_key', '<', key + TOP)
      .where(id, '>=', range[0])
      .where(id, '<=', range[1]);
  }
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, field: r.field }));
}

const itemKey = (id: number) => `${kindOfId(id)}:${itemOfId(id)}`;

interface Ranked {
  /** Items in rank order, each with the name that placed it. */
  order: NameHit[];
  total: Count;
}

/** The first `want` items of a relative (in part) match, and how many items match in all. */
async function rankRelative(db: Db, keyword: string, range: [number, number], want: number): Promise<Ranked> {
  const key = nameKey(keyword);
  const terms = queryTerms(keyword);
  const [exact, prefixed] = await Promise.all([
    keyMatches(db, key, range, false, want + 50),
    keyMatches(db, key, range, true, want),
  ]);
  const order: NameHit[] = [];
  const seen = new Set<string>();
  const add = (hit: NameHit) => {
    const k = itemKey(hit.id);
    if (seen.has(k)) return;
    seen.add(k);
    order.push(hit);
  };
  exact.filter((h) => h.field < 2).forEach(add);
  exact.filter((h) => h.field === 2).forEach(add);
  prefixed.forEach(add);
  const tiered = new Set(seen);
  const count = terms.length > 0 ? await matchCount(db, terms, range) : { n: 0, more: false };
  let total = count.n;
  // A name equal to or starting with the query almost always holds its terms too; count the rare ones
  // that do not (a query cut between words of a name) on top.
  if (tiered.size > 0 && terms.length > 0) {
    const matched = new Set([...exact, ...prefixed].filter((h) => holdsTerms(h.name, terms)).map((h) => itemKey(h.id)));
    total += [...tiered].filter((k) => !matched.has(k)).length;
  }
  if (terms.length > 0) {
    let offset = 0;
    const chunk = Math.max(60, want * 2);
    while (order.length < want) {
      const ids = await matchIds(db, terms, range, chunk, offset, count.more ? {} : { few: true });
      offset += ids.length;
      if (ids.length > 0) {
        const fresh = ids.filter((id) => !seen.has(itemKey(id)));
        const names = await namesById(db, fresh);
        for (const id of fresh) {
          const hit = names.get(id);
          if (hit) add(hit);
        }
      }
      if (ids.length < chunk) break;
    }
  }
  return { order, total: capped(Math.max(total, order.length), count.more) };
}

/**
 * Whether a name holds every term, read from its tokens as the index holds them: what a match of the
 * index answers, without asking it about each name (a word prefix costs SQLite a scan per name).
 */
function holdsTerms(name: string, terms: QueryTerm[]): boolean {
  const tokens = indexTokens(name);
  const set = new Set(tokens);
  return terms.every((t) => (t.prefix ? tokens.some((w) => w.startsWith(t.text)) : set.has(t.text)));
}

async function namesById(db: Db, ids: number[]): Promise<Map<number, NameHit>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('search_name').select(['id', 'name', 'field']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), name: r.name, field: r.field }]));
}

/** The first `want` items whose whole name is the keyword (titles before aliases), and how many there are. */
async function rankExact(db: Db, keyword: string, range: [number, number], want: number): Promise<Ranked> {
  const key = nameKey(keyword);
  const rows = await db
    .selectFrom('search_name')
    .select(['id', 'name', 'field'])
    .where('name_key', '=', key)
    .where('id', '>=', range[0])
    .where('id', '<=', range[1])
    .orderBy('id')
    .execute();
  const order: NameHit[] = [];
  const seen = new Set<string>();
  for (const pass of [0, 1]) {
    for (const r of rows) {
      const hit = { id: Number(r.id), name: r.name, field: r.field };
      if ((hit.field === 2 ? 1 : 0) !== pass || seen.has(itemKey(hit.id))) continue;
      seen.add(itemKey(hit.id));
      order.push(hit);
    }
  }
  return { order: order.slice(0, want), total: capped(order.length, false) };
}

async function countFor(db: Db, keyword: string, type: SearchType): Promise<Count> {
  const range = kindRange(...TYPE_KINDS[type]);
  if (RELATIVE_MATCH_DEFAULT[type]) {
    const terms = queryTerms(keyword);
    return terms.length > 0 ? matchCount(db, terms, range) : { n: 0, more: false };
  }
  const row = await db
    .selectFrom('search_name')
    .select(sql<number>`count(distinct ${ITEM_OF_ID_SQL})`.as('n'))
    .where('name_key', '=', nameKey(keyword))
    .where('id', '>=', range[0])
    .where('id', '<=', range[1])
    .executeTakeFirst();
  return capped(Number(row?.n ?? 0), false);
}

/** What a name's field is called on a card: works (games, light novels) have titles, entities names. */
const FIELD_NAMES: Record<string, MatchedName['field'][]> = {
  galgame: ['title', 'titleZh', 'alias'],
  entity: ['name', 'nameZh', 'alias'],
};

async function hitsOf(db: Db, keyword: string, names: NameHit[]): Promise<SearchHit[]> {
  const terms = queryTerms(keyword);
  // The name to show as matched: the one shown first on the card (Chinese, then original) when it
  // holds the query too, else the name that placed the item.
  const matched = (hit: NameHit, kind: 'galgame' | 'entity', shown: [string, number][]): MatchedName => {
    const [text, field] = shown.find(([name]) => name !== '' && holdsTerms(name, terms)) ?? [hit.name, hit.field];
    return { text, field: FIELD_NAMES[kind]![field] ?? 'alias', ranges: highlightRanges(text, keyword) };
  };
  const byKind = new Map<number, NameHit[]>();
  for (const hit of names) byKind.set(kindOfId(hit.id), [...(byKind.get(kindOfId(hit.id)) ?? []), hit]);
  const cards = new Map<string, SearchHit>();
  const games = byKind.get(SEARCH_KINDS.galgame) ?? [];
  if (games.length > 0) {
    const rows = await db
      .selectFrom('galgame as g')
      .select(cardColumns)
      .where(
        'g.id',
        'in',
        games.map((h) => itemOfId(h.id)),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, toCard(r)]));
    for (const hit of games) {
      const galgame = byId.get(itemOfId(hit.id));
      if (galgame)
        cards.set(itemKey(hit.id), {
          type: 'galgame',
          galgame,
          matched: matched(hit, 'galgame', [
            [galgame.titleZh, 1],
            [galgame.title, 0],
          ]),
        });
    }
  }
  const novels = byKind.get(SEARCH_KINDS.novel) ?? [];
  if (novels.length > 0) {
    const rows = await db
      .selectFrom('lightnovel as l')
      .select(seriesCardColumns)
      .where(
        'l.id',
        'in',
        novels.map((h) => itemOfId(h.id)),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, toSeriesCard(r)]));
    for (const hit of novels) {
      const lightnovel = byId.get(itemOfId(hit.id));
      if (lightnovel)
        cards.set(itemKey(hit.id), {
          type: 'novel',
          lightnovel,
          matched: matched(hit, 'galgame', [
            [lightnovel.titleZh, 1],
            [lightnovel.title, 0],
          ]),
        });
    }
  }
  for (const kind of ['producer', 'person', 'character'] as const) {
    const hits = byKind.get(SEARCH_KINDS[kind]) ?? [];
    if (hits.length === 0) continue;
    const ids = hits.map((h) => itemOfId(h.id));
    const [rows, works] = await Promise.all([
      db.selectFrom(kind).select(['id', 'name', 'name_zh', 'image']).where('id', 'in', ids).execute(),
      entityWorks(db, kind, ids),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const hit of hits) {
      const row = byId.get(itemOfId(hit.id));
      if (!row) continue;
      const entity: SearchEntityCard = {
        kind,
        id: row.id,
        name: row.name,
        nameZh: row.name_zh,
        image: row.image,
        works: works.get(row.id) ?? 0,
      };
      cards.set(itemKey(hit.id), {
        type: kind === 'producer' ? 'producer' : 'person',
        entity,
        matched: matched(hit, 'entity', [
          [row.name_zh, 1],
          [row.name, 0],
        ]),
      });
    }
  }
  return names.flatMap((hit) => cards.get(itemKey(hit.id)) ?? []);
}

/** How many suggestions an empty result offers. */
const NEAREST = 5;

/**
 * Keywords near one that found nothing: names holding the most of its terms (at least half), as
 * written, best first.
 */
async function nearestKeywords(db: Db, keyword: string): Promise<string[]> {
  const terms = queryTerms(keyword);
  if (terms.length < 2) return [];
  const ids = await matchIds(db, terms, kindRange(1, 5), 300, 0, { any: true });
  const names = await namesById(db, ids);
  const scored = ids.flatMap((id) => {
    const hit = names.get(id);
    if (!hit) return [];
    const tokens = new Set(indexTokens(hit.name));
    const words = [...tokens];
    const held = terms.filter((t) => (t.prefix ? words.some((w) => w.startsWith(t.text)) : tokens.has(t.text))).length;
    return held * 2 >= terms.length ? [{ name: hit.name, held, id }] : [];
  });
  scored.sort((a, b) => b.held - a.held || a.id - b.id);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const s of scored) {
    const k = nameKey(s.name);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(s.name);
    if (out.length === NEAREST) break;
  }
  return out;
}

/** Spec §7 GET /search: a page of results of one type, the counts of every type, and near keywords when empty. */
export async function searchCatalogue(db: Db, query: SearchQuery): Promise<SearchResultPage> {
  const { keyword, type, page, limit } = query;
  const relativeMatch = query.relative_match ?? RELATIVE_MATCH_DEFAULT[type];
  const empty = Object.fromEntries(SEARCH_TYPES.map((t) => [t, 0])) as Record<SearchType, number>;
  if (nameKey(keyword) === '') {
    return {
      keyword,
      type,
      relativeMatch,
      items: [],
      pagination: { page, limit, total: 0, totalPages: 0 },
      counts: empty,
      countsCapped: [],
      suggestions: [],
    };
  }
  const offset = (page - 1) * limit;
  const range = kindRange(...TYPE_KINDS[type]);
  const ranked = await (relativeMatch ? rankRelative : rankExact)(db, keyword, range, offset + limit);
  const counts = { ...empty };
  const countsCapped: SearchType[] = [];
  for (const t of SEARCH_TYPES) {
    const count =
      t === type && relativeMatch === RELATIVE_MATCH_DEFAULT[t] ? ranked.total : await countFor(db, keyword, t);
    counts[t] = count.n;
    if (count.more) countsCapped.push(t);
  }
  const items = await hitsOf(db, keyword, ranked.order.slice(offset, offset + limit));
  const total = ranked.total.n;
  const suggestions = total === 0 ? await nearestKeywords(db, keyword) : [];
  return {
    keyword,
    type,
    relativeMatch,
    items,
    // Only the first SEARCH_PAGE_LIMIT pages can be opened (decision 024).
    pagination: {
      page,
      limit,
      total,
      totalPages: Math.min(SEARCH_PAGE_LIMIT, Math.ceil(total / limit)),
      ...(ranked.total.more ? { capped: true } : {}),
    },
    counts,
    countsCapped,
    suggestions,
  };
}

/**
 * Names starting with the prefix: works first, then producers and people; shorter and more popular
 * names first within each.
 */
export async function suggestNames(db: Db, prefix: string, limit: number): Promise<SearchSuggestion[]> {
  const key = nameKey(prefix);
  if (key === '') return [];
  let q = db.selectFrom('search_name').select(['name', 'name_key']);
  q =
    [...key].length === 1
      ? q.where('head', '=', key)
      : q
          .where('name_key', '>=', key)
          .where('name_key', '<', key + TOP)
          .where(sql<number>`+id`, '>', 0);
  const rows = await q
    .orderBy('id')
    .limit(limit * 2)
    .execute();
  const out: SearchSuggestion[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.name_key)) continue;
    seen.add(r.name_key);
    out.push({ keyword: r.name });
    if (out.length === limit) break;
  }
  return out;
}
