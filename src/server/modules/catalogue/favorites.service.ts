import { sql } from 'kysely';
import type { FavoriteItemType, GalgameCard } from '../../../shared/catalogue.ts';
import type { Db } from '../../db/database.ts';
import { DECIMAL_ID } from '../../../shared/input-rules.ts';
import { containsText } from '../../db/like.ts';
import { paginate, type Page, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import type { CounterColumn, TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';
import type { TargetRef } from '../../../shared/targets.ts';
import { cardColumns, toCard } from './catalogue.mappers.ts';
import type { LightnovelCard } from '../../../shared/lightnovel/lightnovel.ts';
import { seriesCardColumns, toSeriesCard, type SeriesCardRow } from '../lightnovel/lightnovel.mappers.ts';
import { nextId } from '../../db/ids.ts';

/** What the favourite calls need: the database and the registry of what can be favourited. */
export interface FavoriteDeps {
  db: Db;
  targets: TargetRegistry;
}

/** A favourited item: any target type the favourites API accepts. */
export type FavoriteRef = TargetRef & { type: FavoriteItemType };

const NOT_FOUND_MESSAGE = 'server.favoriteTargetNotFound';

/** The item, when it exists, the viewer may see it, and its type keeps a favourite count; else 404. */
async function ensureItem(deps: FavoriteDeps, viewer: TargetViewer, ref: FavoriteRef): Promise<void> {
  if (!deps.targets.keeps(ref.type, 'favorite')) throw new HttpError(404, 'NOT_FOUND', NOT_FOUND_MESSAGE);
  const found = await deps.targets.find(deps.db, ref.type, [ref.id], viewer);
  if (!found.has(ref.id)) throw new HttpError(404, 'NOT_FOUND', NOT_FOUND_MESSAGE);
}

export interface FavoriteState {
  isFavorited: boolean;
  favoriteCount: number;
}

/** Adds a favourite. Idempotent: a second add (double click, retry) changes nothing. */
export async function addFavorite(
  deps: FavoriteDeps,
  viewer: NonNullable<TargetViewer>,
  ref: FavoriteRef,
  now = new Date(),
): Promise<FavoriteState> {
  await ensureItem(deps, viewer, ref);
  return deps.db.transaction().execute(async (trx) => {
    const id = await nextId(trx, 'favorite_id');
    const inserted = await trx
      .insertInto('favorite')
      .values({ id, user_id: viewer.id, item_type: ref.type, item_id: ref.id, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'item_type', 'item_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) await deps.targets.adjust(trx, ref, 'favorite', 1);
    return { isFavorited: true, favoriteCount: await deps.targets.read(trx, ref, 'favorite') };
  });
}

/** Removes a favourite. Idempotent; also when the item has since been hidden. */
export async function removeFavorite(deps: FavoriteDeps, userId: string, ref: FavoriteRef): Promise<FavoriteState> {
  return deps.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('favorite')
      .where('user_id', '=', userId)
      .where('item_type', '=', ref.type)
      .where('item_id', '=', ref.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1) await deps.targets.adjust(trx, ref, 'favorite', -1);
    return { isFavorited: false, favoriteCount: await deps.targets.read(trx, ref, 'favorite') };
  });
}

export interface FavoritedItem {
  item_type: FavoriteItemType;
  item_id: number;
}

/** Calls `run` per type that keeps a favourite count, with its ids sorted, 500 at a time. */
async function eachCounterChunk(
  targets: TargetRegistry,
  items: readonly FavoritedItem[],
  run: (spec: CounterColumn, chunk: number[], type: FavoriteItemType) => Promise<void>,
): Promise<void> {
  const groups = new Map<FavoriteItemType, Set<number>>();
  for (const item of items) groups.set(item.item_type, (groups.get(item.item_type) ?? new Set()).add(item.item_id));
  for (const [type, idSet] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const spec = targets.counterColumn(type, 'favorite');
    if (!spec) continue;
    const ids = [...idSet].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += 500) await run(spec, ids.slice(i, i + 500), type);
  }
}

/**
 * Locks the favourite counts of the favourited items (in type and id order), so a favourite added or
 * removed meanwhile waits and a recount in the same transaction sees it.
 */
export async function lockFavoriteCounts(db: Db, targets: TargetRegistry, items: readonly FavoritedItem[]) {
  await eachCounterChunk(targets, items, async (spec, chunk) => {
    const column = sql.ref(spec.column);
    await sql`update ${sql.table(spec.table)} set ${column} = ${column} where ${sql.ref(spec.idColumn)} in (${sql.join(chunk)})`.execute(
      db,
    );
  });
}

/**
 * Sets the favourite counts of the favourited items to a recount of their favourites (after a user
 * was removed). Every type that keeps a favourite count is recounted through its registered column.
 */
export async function recountFavorites(db: Db, targets: TargetRegistry, items: readonly FavoritedItem[]) {
  await eachCounterChunk(targets, items, async (spec, chunk, type) => {
    await sql`update ${sql.table(spec.table)} set ${sql.ref(spec.column)} = (
        select count(*) from favorite
        where favorite.item_type = ${type} and favorite.item_id = ${sql.ref(`${spec.table}.${spec.idColumn}`)}
      ) where ${sql.ref(spec.idColumn)} in (${sql.join(chunk)})`.execute(db);
  });
}

export async function isFavorited(deps: FavoriteDeps, userId: string, ref: FavoriteRef): Promise<FavoriteState> {
  const row = await deps.db
    .selectFrom('favorite')
    .select('id')
    .where('user_id', '=', userId)
    .where('item_type', '=', ref.type)
    .where('item_id', '=', ref.id)
    .executeTakeFirst();
  return { isFavorited: row !== undefined, favoriteCount: await deps.targets.read(deps.db, ref, 'favorite') };
}

export interface FavoriteEntry {
  itemType: FavoriteItemType;
  itemId: number;
  createdAt: string;
  galgame: GalgameCard | null;
  lightnovel: LightnovelCard | null;
}

/** The caller's favourites, newest first; games and light novels with their cards. */
export async function listFavorites(db: Db, userId: string, request: PageRequest): Promise<Page<FavoriteEntry>> {
  const { items, pagination } = await paginate(
    request,
    db
      .selectFrom('favorite as f')
      .leftJoin('galgame as g', (join) => join.onRef('g.id', '=', 'f.item_id').on('f.item_type', '=', 'galgame'))
      .select(['f.item_type', 'f.item_id', 'f.created_at', ...cardColumns])
      .where('f.user_id', '=', userId)
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc'),
    db
      .selectFrom('favorite')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('user_id', '=', userId),
  );
  const novelIds = items.filter((r) => r.item_type === 'lightnovel').map((r) => r.item_id);
  const novels = new Map<number, LightnovelCard>();
  if (novelIds.length > 0) {
    const rows = await db
      .selectFrom('lightnovel as l')
      .select(seriesCardColumns)
      .where('l.id', 'in', novelIds)
      // A series taken back to draft or rejected since is listed without its card, as on the public list.
      .where('l.status', '=', 'published')
      .execute();
    for (const row of rows) novels.set(row.id, toSeriesCard(row as SeriesCardRow));
  }
  return {
    items: items.map((r) => ({
      itemType: r.item_type,
      itemId: r.item_id,
      createdAt: r.created_at,
      galgame:
        r.id !== null && r.title !== null
          ? toCard({ ...r, id: r.id, title: r.title } as Parameters<typeof toCard>[0])
          : null,
      lightnovel: r.item_type === 'lightnovel' ? (novels.get(r.item_id) ?? null) : null,
    })),
    pagination,
  };
}

/**
 * Whose favourites a public list shows (spec §7 /favorite/…): the member `userId` names (numeric
 * userId or `_id`; 404 when there is none), else the caller; 400 for a visitor who names nobody.
 */
export async function favoriteListOwner(db: Db, userId: string | undefined, callerId: string | null): Promise<string> {
  if (userId) {
    const owner = DECIMAL_ID.test(userId)
      ? await db.selectFrom('users').select('id').where('user_id', '=', Number(userId)).executeTakeFirst()
      : await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!owner) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    return owner.id;
  }
  if (!callerId) throw new HttpError(400, 'VALIDATION_FAILED', 'server.userRequired');
  return callerId;
}

/** A user's favourite games, public (GET /api/favorite/galgames), with an optional title keyword. */
export async function favoriteGalgamesOf(
  db: Db,
  userId: string,
  options: PageRequest & { keyword?: string | undefined },
): Promise<Page<GalgameCard>> {
  let q = db
    .selectFrom('favorite as f')
    .innerJoin('galgame as g', 'g.id', 'f.item_id')
    .where('f.user_id', '=', userId)
    .where('f.item_type', '=', 'galgame')
    .where('g.status', '=', 'published');
  const keyword = options.keyword;
  if (keyword) {
    q = q.where((eb) => eb.or([containsText(eb.ref('g.title'), keyword), containsText(eb.ref('g.title_zh'), keyword)]));
  }
  const { items, pagination } = await paginate(
    options,
    q.select(cardColumns).orderBy('f.created_at', 'desc').orderBy('f.id', 'desc'),
    q.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return { items: items.map(toCard), pagination };
}

/**
 * A user's favourite light novels, public (GET /api/favorite/lightnovels): published series, newest
 * favourite first, with an optional keyword in their original, Chinese or other names.
 */
export async function favoriteLightnovelsOf(
  db: Db,
  userId: string,
  options: PageRequest & { keyword?: string | undefined },
): Promise<Page<LightnovelCard>> {
  let q = db
    .selectFrom('favorite as f')
    .innerJoin('lightnovel as l', 'l.id', 'f.item_id')
    .where('f.user_id', '=', userId)
    .where('f.item_type', '=', 'lightnovel')
    .where('l.status', '=', 'published');
  const keyword = options.keyword;
  if (keyword) {
    q = q.where((eb) =>
      eb.or([
        containsText(eb.ref('l.name'), keyword),
        containsText(eb.ref('l.name_zh'), keyword),
        // Other names are kept as a JSON list: a keyword with its quotes, brackets or commas would match
        // every series, so such a keyword looks at the names only.
        ...(/["\\[\],]/.test(keyword) ? [] : [containsText(eb.ref('l.aliases'), keyword)]),
      ]),
    );
  }
  const { items, pagination } = await paginate(
    options,
    q.select(seriesCardColumns).orderBy('f.created_at', 'desc').orderBy('f.id', 'desc'),
    q.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return { items: items.map(toSeriesCard), pagination };
}
