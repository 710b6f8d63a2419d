import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/database.ts';
import type { SearchNameTable } from './search.tables.ts';
import { indexTokens, nameKey } from './search.text.ts';

// Keeping the search index (decision 024): every write of a game, a light novel or an entity rewrites
// that item's names in the same transaction; `reindexAll` rebuilds everything (npm run search:reindex, and once
// when INDEX_VERSION changes); `refreshPopularity` moves items whose popularity changed bucket.

/** Bump when normalisation or tokens change: the index is then rebuilt once at start. */
export const INDEX_VERSION = '2';

export const SEARCH_KINDS = { galgame: 1, novel: 2, producer: 3, person: 4, character: 5 } as const;
export type SearchKind = keyof typeof SEARCH_KINDS;
export type EntityKind = 'producer' | 'person' | 'character';

const KIND_UNIT = 2 ** 47;
const LENGTH_UNIT = 2 ** 41;
const POPULARITY_UNIT = 2 ** 36;
const ITEM_UNIT = 16;
/** Names kept per item (a title, a Chinese title and up to 14 aliases). */
export const MAX_NAMES = 16;
const MAX_BUCKET = 31;
const MAX_LENGTH = 63;

/**
 * A name's id, which is also its rank among matches of the same query tier: by kind, then shorter
 * keys first (the query covers more of them), then more popular items, then item and name number.
 * It fits in 50 bits (exact in a JavaScript number).
 */
export function nameId(kind: number, keyLength: number, bucket: number, itemId: number, n: number): number {
  const length = Math.min(MAX_LENGTH, Math.max(1, keyLength));
  const unpopular = MAX_BUCKET - Math.min(MAX_BUCKET, Math.max(0, bucket));
  return kind * KIND_UNIT + length * LENGTH_UNIT + unpopular * POPULARITY_UNIT + itemId * ITEM_UNIT + n;
}

export const kindOfId = (id: number): number => Math.floor(id / KIND_UNIT);
export const itemOfId = (id: number): number => Math.floor((id % POPULARITY_UNIT) / ITEM_UNIT);
export const bucketOfId = (id: number): number => MAX_BUCKET - (Math.floor(id / POPULARITY_UNIT) % 32);
/** The ids of names of kinds `from`…`to`. */
export const kindRange = (from: number, to: number): [number, number] => [from * KIND_UNIT, (to + 1) * KIND_UNIT - 1];
/** SQL for an item's identity (kind and item) computed from a name id, for counting distinct items. */
export const ITEM_OF_ID_SQL = sql<number>`((id / ${sql.lit(KIND_UNIT)}) * ${sql.lit(2 ** 32)} + (id % ${sql.lit(POPULARITY_UNIT)}) / ${sql.lit(ITEM_UNIT)})`;

/** Games and light novels: views, favourites and ratings, on a log scale (a tie-breaker, so coarse is enough). */
export const galgameBucket = (views: number, favorites: number, ratings: number): number =>
  Math.min(MAX_BUCKET, Math.floor(2 * Math.log2(1 + views + 5 * favorites + 10 * ratings)));
/** Producers, people and characters: how many published works (games, light novels) they are in. */
export const entityBucket = (works: number): number => Math.min(MAX_BUCKET, Math.floor(4 * Math.log2(1 + works)));

interface NameInput {
  field: number;
  name: string;
}

interface NameRow extends SearchNameTable {
  tokens: string[];
}

function nameRows(kind: number, itemId: number, bucket: number, names: NameInput[]): NameRow[] {
  const seen = new Set<string>();
  const rows: NameRow[] = [];
  for (const { field, name } of names) {
    const text = name.trim();
    const key = nameKey(text);
    if (key === '' || seen.has(key) || rows.length >= MAX_NAMES) continue;
    seen.add(key);
    const keyLength = [...key].length;
    rows.push({
      id: nameId(kind, keyLength, bucket, itemId, rows.length),
      kind,
      item_id: itemId,
      field,
      name: text,
      name_key: key,
      head: [...key][0] ?? '',
      tokens: indexTokens(text),
    });
  }
  return rows;
}

const parseList = (json: string): string[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

async function removeItems(db: Db, kind: number, itemIds: number[]): Promise<void> {
  if (itemIds.length === 0) return;
  if (dialectOf(db) === 'sqlite') {
    await sql`delete from search_fts where rowid in (select id from search_name where kind = ${kind} and item_id in (${sql.join(itemIds)}))`.execute(
      db,
    );
  }
  await db.deleteFrom('search_name').where('kind', '=', kind).where('item_id', 'in', itemIds).execute();
}

const INSERT_BATCH = 400;

async function insertRows(db: Db, rows: NameRow[]): Promise<void> {
  const sqlite = dialectOf(db) === 'sqlite';
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const part = rows.slice(i, i + INSERT_BATCH);
    if (sqlite) {
      await db
        .insertInto('search_name')
        .values(part.map(({ tokens: _tokens, ...row }) => row))
        .execute();
      await sql`insert into search_fts(rowid, tokens) values ${sql.join(
        part.map((r) => sql`(${r.id}, ${r.tokens.join(' ')})`),
      )}`.execute(db);
    } else {
      await sql`insert into search_name (id, kind, item_id, field, name, name_key, head, tokens) values ${sql.join(
        part.map(
          (r) =>
            sql`(${r.id}, ${r.kind}, ${r.item_id}, ${r.field}, ${r.name}, ${r.name_key}, ${r.head}, array_to_tsvector(${r.tokens}::text[]))`,
        ),
      )}`.execute(db);
    }
  }
}

const inChunks = async <T>(items: T[], size: number, run: (part: T[]) => Promise<void>) => {
  for (let i = 0; i < items.length; i += size) await run(items.slice(i, i + size));
};

/**
 * Rewrites the index entries of these games from their rows: published games are indexed under their
 * title, Chinese title and aliases; others (and missing ones) leave the index. Call it inside the
 * transaction that changed them.
 */
export async function indexGalgames(db: Db, ids: readonly number[]): Promise<void> {
  await inChunks([...new Set(ids)], 500, async (part) => {
    const games = await db
      .selectFrom('galgame')
      .select(['id', 'title', 'title_zh', 'aliases', 'status', 'view_count', 'favorite_count', 'rating_count'])
      .where('id', 'in', part)
      .execute();
    await removeItems(db, SEARCH_KINDS.galgame, part);
    const rows = games
      .filter((g) => g.status === 'published')
      .flatMap((g) =>
        nameRows(SEARCH_KINDS.galgame, g.id, galgameBucket(g.view_count, g.favorite_count, g.rating_count), [
          { field: 0, name: g.title },
          { field: 1, name: g.title_zh },
          ...parseList(g.aliases).map((name) => ({ field: 2, name })),
        ]),
      );
    await insertRows(db, rows);
  });
}

/**
 * Rewrites the index entries of these light novels (series) from their rows: published series are
 * indexed under their original name, Chinese name and other names; others (and missing ones) leave
 * the index. Call it inside the transaction that changed them.
 */
export async function indexLightnovels(db: Db, ids: readonly number[]): Promise<void> {
  await inChunks([...new Set(ids)], 500, async (part) => {
    const series = await db
      .selectFrom('lightnovel')
      .select(['id', 'name', 'name_zh', 'aliases', 'status', 'view_count', 'favorite_count', 'rating_count'])
      .where('id', 'in', part)
      .execute();
    await removeItems(db, SEARCH_KINDS.novel, part);
    const rows = series
      .filter((n) => n.status === 'published')
      .flatMap((n) =>
        nameRows(SEARCH_KINDS.novel, n.id, galgameBucket(n.view_count, n.favorite_count, n.rating_count), [
          { field: 0, name: n.name },
          { field: 1, name: n.name_zh },
          ...parseList(n.aliases).map((name) => ({ field: 2, name })),
        ]),
      );
    await insertRows(db, rows);
  });
}

/** Rewrites one light novel's index entries (see indexLightnovels): the series' writer calls it in its transaction. */
export const indexLightnovel = (db: Db, id: number): Promise<void> => indexLightnovels(db, [id]);

/** How many published works each entity is in: games, and for producers and people light novels too. */
export async function entityWorks(db: Db, kind: EntityKind, ids: readonly number[]): Promise<Map<number, number>> {
  const works = new Map<number, number>();
  if (ids.length === 0) return works;
  const count = async (table: 'galgame_producer' | 'galgame_staff' | 'galgame_character', column: string) => {
    const rows = await db
      .selectFrom(`${table} as l` as 'galgame_producer as l')
      .innerJoin('galgame as g', 'g.id', 'l.galgame_id')
      .select([sql<number>`l.${sql.ref(column)}`.as('entity'), sql<number>`count(distinct l.galgame_id)`.as('games')])
      .where(sql.ref(`l.${column}`), 'in', [...ids])
      .where('g.status', '=', 'published')
      .groupBy(sql.ref(`l.${column}`))
      .execute();
    for (const r of rows) works.set(Number(r.entity), (works.get(Number(r.entity)) ?? 0) + Number(r.games));
  };
  // An author or illustrator, a publisher or label: each series counts once, whatever its roles.
  const countNovels = async (
    table: 'lightnovel_producer' | 'lightnovel_staff',
    column: 'producer_id' | 'person_id',
  ) => {
    const rows = await db
      .selectFrom(`${table} as l` as 'lightnovel_producer as l')
      .innerJoin('lightnovel as n', 'n.id', 'l.lightnovel_id')
      .select([
        sql<number>`l.${sql.ref(column)}`.as('entity'),
        sql<number>`count(distinct l.lightnovel_id)`.as('novels'),
      ])
      .where(sql.ref(`l.${column}`), 'in', [...ids])
      .where('n.status', '=', 'published')
      .groupBy(sql.ref(`l.${column}`))
      .execute();
    for (const r of rows) works.set(Number(r.entity), (works.get(Number(r.entity)) ?? 0) + Number(r.novels));
  };
  if (kind === 'producer') {
    await count('galgame_producer', 'producer_id');
    await countNovels('lightnovel_producer', 'producer_id');
  }
  if (kind === 'person') {
    await count('galgame_staff', 'person_id');
    await count('galgame_character', 'voice_person_id');
    await countNovels('lightnovel_staff', 'person_id');
  }
  if (kind === 'character') await count('galgame_character', 'character_id');
  return works;
}

/** Rewrites the index entries of these producers, people or characters (name, Chinese name, aliases). */
export async function indexEntities(db: Db, kind: EntityKind, ids: readonly number[]): Promise<void> {
  const code = SEARCH_KINDS[kind];
  await inChunks([...new Set(ids)], 500, async (part) => {
    const entities = await db
      .selectFrom(kind)
      .select(['id', 'name', 'name_zh', 'aliases'])
      .where('id', 'in', part)
      .execute();
    const works = await entityWorks(db, kind, part);
    await removeItems(db, code, part);
    await insertRows(
      db,
      entities.flatMap((e) =>
        nameRows(code, e.id, entityBucket(works.get(e.id) ?? 0), [
          { field: 0, name: e.name },
          { field: 1, name: e.name_zh },
          ...parseList(e.aliases).map((name) => ({ field: 2, name })),
        ]),
      ),
    );
  });
}

const ENTITY_KINDS: readonly EntityKind[] = ['producer', 'person', 'character'];

export interface ReindexProgress {
  kind: SearchKind;
  done: number;
  total: number;
}

/**
 * Rebuilds the whole index, in transactions of `batch` items, and records INDEX_VERSION. Searches
 * meanwhile see a partial index; writes meanwhile index their items as usual.
 */
export async function reindexAll(
  db: Db,
  options: { batch?: number; onProgress?: (progress: ReindexProgress) => void } = {},
): Promise<{ names: number }> {
  const batch = options.batch ?? 1000;
  await db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'sqlite') await sql`delete from search_fts`.execute(trx);
    await trx.deleteFrom('search_name').execute();
  });
  const kinds: { kind: SearchKind; table: 'galgame' | 'lightnovel' | EntityKind }[] = [
    { kind: 'galgame', table: 'galgame' },
    { kind: 'novel', table: 'lightnovel' },
    ...ENTITY_KINDS.map((kind) => ({ kind, table: kind })),
  ];
  for (const { kind, table } of kinds) {
    const { total } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    let after = 0;
    let done = 0;
    for (;;) {
      const ids = (
        await db.selectFrom(table).select('id').where('id', '>', after).orderBy('id').limit(batch).execute()
      ).map((r) => r.id);
      if (ids.length === 0) break;
      await db.transaction().execute(async (trx) => {
        if (table === 'galgame') await indexGalgames(trx, ids);
        else if (table === 'lightnovel') await indexLightnovels(trx, ids);
        else await indexEntities(trx, table, ids);
      });
      after = ids.at(-1)!;
      done += ids.length;
      options.onProgress?.({ kind, done, total: Number(total) });
    }
  }
  await setIndexVersion(db, INDEX_VERSION);
  const { names } = await db
    .selectFrom('search_name')
    .select((eb) => eb.fn.countAll<number>().as('names'))
    .executeTakeFirstOrThrow();
  return { names: Number(names) };
}

export async function indexVersion(db: Db): Promise<string | null> {
  const row = await db.selectFrom('search_state').select('value').where('key', '=', 'index_version').executeTakeFirst();
  return row?.value ?? null;
}

async function setIndexVersion(db: Db, version: string): Promise<void> {
  await db
    .insertInto('search_state')
    .values({ key: 'index_version', value: version })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: version }))
    .execute();
}

/**
 * Re-ranks items whose popularity moved to another bucket since they were indexed (views and
 * favourites change without a write of the item). Returns how many items moved.
 */
export async function refreshPopularity(db: Db): Promise<number> {
  let moved = 0;
  const current = async (kind: number) => {
    const rows = await db
      .selectFrom('search_name')
      .select(['item_id', sql<number>`min(id)`.as('id')])
      .where('kind', '=', kind)
      .groupBy('item_id')
      .execute();
    return new Map(rows.map((r) => [r.item_id, bucketOfId(Number(r.id))]));
  };
  const works = [
    { table: 'galgame', kind: SEARCH_KINDS.galgame, index: indexGalgames },
    { table: 'lightnovel', kind: SEARCH_KINDS.novel, index: indexLightnovels },
  ] as const;
  for (const { table, kind, index } of works) {
    const indexed = await current(kind);
    const stale: number[] = [];
    let after = 0;
    for (;;) {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'view_count', 'favorite_count', 'rating_count'])
        .where('status', '=', 'published')
        .where('id', '>', after)
        .orderBy('id')
        .limit(5000)
        .execute();
      if (rows.length === 0) break;
      for (const w of rows) {
        const bucket = indexed.get(w.id);
        if (bucket !== undefined && bucket !== galgameBucket(w.view_count, w.favorite_count, w.rating_count))
          stale.push(w.id);
      }
      after = rows.at(-1)!.id;
    }
    await inChunks(stale, 500, (part) => db.transaction().execute((trx) => index(trx, part)));
    moved += stale.length;
  }
  for (const kind of ENTITY_KINDS) {
    const indexed = await current(SEARCH_KINDS[kind]);
    const ids = [...indexed.keys()];
    const changed: number[] = [];
    await inChunks(ids, 2000, async (part) => {
      const works = await entityWorks(db, kind, part);
      for (const id of part) if (indexed.get(id) !== entityBucket(works.get(id) ?? 0)) changed.push(id);
    });
    await inChunks(changed, 500, (part) => db.transaction().execute((trx) => indexEntities(trx, kind, part)));
    moved += changed.length;
  }
  return moved;
}
