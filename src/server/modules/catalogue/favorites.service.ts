import { sql } from 'kysely';
import type { FavoriteItemType, GalgameCard, Pagination } from '../../../shared/catalogue.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import { cardColumns, toCard } from './catalogue.mappers.ts';
import { nextId } from './ids.ts';

/** Item types whose items exist; the others are refused until their parts are built. */
const SUPPORTED: readonly FavoriteItemType[] = ['galgame'];

async function ensureItem(db: Db, itemType: FavoriteItemType, itemId: number): Promise<void> {
  if (!SUPPORTED.includes(itemType)) throw new HttpError(404, 'NOT_FOUND', 'server.favoriteTargetNotFound');
  const game = await db
    .selectFrom('galgame')
    .select('id')
    .where('id', '=', itemId)
    .where('status', '=', 'published')
    .executeTakeFirst();
  if (!game) throw new HttpError(404, 'NOT_FOUND', 'server.favoriteTargetNotFound');
}

async function countOf(db: Db, itemType: FavoriteItemType, itemId: number): Promise<number> {
  if (itemType !== 'galgame') return 0;
  const row = await db.selectFrom('galgame').select('favorite_count').where('id', '=', itemId).executeTakeFirst();
  return row?.favorite_count ?? 0;
}

export interface FavoriteState {
  isFavorited: boolean;
  favoriteCount: number;
}

/** Adds a favourite. Idempotent: a second add (double click, retry) changes nothing. */
export async function addFavorite(
  db: Db,
  userId: string,
  itemType: FavoriteItemType,
  itemId: number,
  now = new Date(),
): Promise<FavoriteState> {
  await ensureItem(db, itemType, itemId);
  return db.transaction().execute(async (trx) => {
    const id = await nextId(trx, 'favorite_id');
    const inserted = await trx
      .insertInto('favorite')
      .values({ id, user_id: userId, item_type: itemType, item_id: itemId, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'item_type', 'item_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 && itemType === 'galgame') {
      await trx
        .updateTable('galgame')
        .set((eb) => ({ favorite_count: eb('favorite_count', '+', 1) }))
        .where('id', '=', itemId)
        .execute();
    }
    return { isFavorited: true, favoriteCount: await countOf(trx, itemType, itemId) };
  });
}

/** Removes a favourite. Idempotent. */
export async function removeFavorite(
  db: Db,
  userId: string,
  itemType: FavoriteItemType,
  itemId: number,
): Promise<FavoriteState> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('favorite')
      .where('user_id', '=', userId)
      .where('item_type', '=', itemType)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1 && itemType === 'galgame') {
      await trx
        .updateTable('galgame')
        .set((eb) => ({ favorite_count: eb('favorite_count', '-', 1) }))
        .where('id', '=', itemId)
        .where('favorite_count', '>', 0)
        .execute();
    }
    return { isFavorited: false, favoriteCount: await countOf(trx, itemType, itemId) };
  });
}

/** Sets the favourite counts of games to a recount of their favourites (after a user was removed). */
export async function recountFavorites(db: Db, galgameIds: readonly number[]): Promise<void> {
  for (let i = 0; i < galgameIds.length; i += 500) {
    await db
      .updateTable('galgame')
      .set((eb) => ({
        favorite_count: eb
          .selectFrom('favorite')
          .select(sql<number>`count(*)`.as('n'))
          .where('favorite.item_type', '=', 'galgame')
          .whereRef('favorite.item_id', '=', 'galgame.id'),
      }))
      .where('id', 'in', galgameIds.slice(i, i + 500))
      .execute();
  }
}

export async function isFavorited(
  db: Db,
  userId: string,
  itemType: FavoriteItemType,
  itemId: number,
): Promise<FavoriteState> {
  const row = await db
    .selectFrom('favorite')
    .select('id')
    .where('user_id', '=', userId)
    .where('item_type', '=', itemType)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  return { isFavorited: row !== undefined, favoriteCount: await countOf(db, itemType, itemId) };
}

export interface FavoriteEntry {
  itemType: FavoriteItemType;
  itemId: number;
  createdAt: string;
  galgame: GalgameCard | null;
}

const pagination = (page: number, limit: number, total: number): Pagination => ({
  page,
  limit,
  total,
  totalPages: Math.max(1, Math.ceil(total / limit)),
});

/** The caller's favourites, newest first. */
export async function listFavorites(
  db: Db,
  userId: string,
  page: number,
  limit: number,
): Promise<{ items: FavoriteEntry[]; pagination: Pagination }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('favorite as f')
      .leftJoin('galgame as g', (join) => join.onRef('g.id', '=', 'f.item_id').on('f.item_type', '=', 'galgame'))
      .select(['f.item_type', 'f.item_id', 'f.created_at', ...cardColumns])
      .where('f.user_id', '=', userId)
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('favorite')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({
      itemType: r.item_type as FavoriteItemType,
      itemId: r.item_id,
      createdAt: r.created_at,
      galgame:
        r.id !== null && r.title !== null
          ? toCard({ ...r, id: r.id, title: r.title } as Parameters<typeof toCard>[0])
          : null,
    })),
    pagination: pagination(page, limit, Number(count.n)),
  };
}

/** A user's favourite games, public (GET /api/favorite/galgames), with an optional title keyword. */
export async function favoriteGalgamesOf(
  db: Db,
  userId: string,
  options: { page: number; limit: number; keyword?: string | undefined },
): Promise<{ items: GalgameCard[]; pagination: Pagination }> {
  let q = db
    .selectFrom('favorite as f')
    .innerJoin('galgame as g', 'g.id', 'f.item_id')
    .where('f.user_id', '=', userId)
    .where('f.item_type', '=', 'galgame')
    .where('g.status', '=', 'published');
  if (options.keyword) {
    // Same on both databases: an explicit escape character, and case folded on both sides.
    const like = `%${options.keyword.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where(
      (eb) =>
        sql<boolean>`(lower(${eb.ref('g.title')}) like ${like} escape '\\' or lower(${eb.ref('g.title_zh')}) like ${like} escape '\\')`,
    );
  }
  const [rows, count] = await Promise.all([
    q
      .select(cardColumns)
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .limit(options.limit)
      .offset((options.page - 1) * options.limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toCard), pagination: pagination(options.page, options.limit, Number(count.n)) };
}
