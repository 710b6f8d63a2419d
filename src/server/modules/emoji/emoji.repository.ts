import type { UserGroup } from '../../../shared/auth-model.ts';
import type { Emoji, EmojiSetSummary, EmojiSetWithEmojis } from '../../../shared/emoji/emoji-model.ts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { EmojiSetRow } from './emoji.tables.ts';

/** Who asks, as far as the emoji rules care: the account and its group. */
export interface EmojiViewer {
  id: string;
  group: UserGroup;
}

/** Where browsers read stored images. */
export type PublicUrl = Pick<Storage, 'publicUrl'>;

/** Groups that manage every set; a creator manages the sets they created. */
const MANAGE_ALL: ReadonlySet<UserGroup> = new Set(['editor', 'admin', 'superAdmin']);

export function canManageSet(viewer: EmojiViewer, set: Pick<EmojiSetRow, 'created_by'>): boolean {
  return MANAGE_ALL.has(viewer.group) || (viewer.group === 'creator' && set.created_by === viewer.id);
}

/** The set answering to this name: its current name or an earlier one. */
export async function findSetByName(db: Db, name: string): Promise<EmojiSetRow | undefined> {
  return db
    .selectFrom('emoji_set_alias as a')
    .innerJoin('emoji_set as s', 's.id', 'a.emoji_set_id')
    .selectAll('s')
    .where('a.name', '=', name)
    .executeTakeFirst();
}

export async function findSetById(db: Db, id: number): Promise<EmojiSetRow | undefined> {
  return db.selectFrom('emoji_set').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Locks a set's row for the rest of the transaction (a no-op update takes the row lock on PostgreSQL
 * and the write lock on SQLite), so writes to one set apply one after another; undefined when it is gone.
 */
export async function lockSet(trx: Db, id: number): Promise<EmojiSetRow | undefined> {
  const updated = await trx
    .updateTable('emoji_set')
    .set((eb) => ({ position: eb.ref('position') }))
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return undefined;
  return findSetById(trx, id);
}

/**
 * Locks the order of the sets (the set id counter's row, which creating a set updates anyway), so
 * creations, moves and deletions, which renumber positions, apply one after another.
 */
export async function lockSetOrder(trx: Db): Promise<void> {
  await trx
    .updateTable('counter')
    .set((eb) => ({ value: eb.ref('value') }))
    .where('name', '=', 'emoji_set_id')
    .execute();
}

/** An ISO time after both `now` and `previous`: every change moves `updatedAt` forward, even within a millisecond. */
export function nextUpdatedAt(previous: string, now: Date): string {
  const before = Date.parse(previous);
  return now.getTime() > before ? now.toISOString() : new Date(before + 1).toISOString();
}

/** Marks the set changed (its `updatedAt`, which the client's cache compares). */
export async function touchSet(trx: Db, set: Pick<EmojiSetRow, 'id' | 'updated_at'>, now: Date): Promise<void> {
  await trx
    .updateTable('emoji_set')
    .set({ updated_at: nextUpdatedAt(set.updated_at, now) })
    .where('id', '=', set.id)
    .execute();
}

/** Sets in picker order with their emoji count and first image; one set when `onlyId` is given. */
export async function setSummaries(
  db: Db,
  storage: PublicUrl,
  viewer: EmojiViewer,
  onlyId?: number,
): Promise<EmojiSetSummary[]> {
  let query = db
    .selectFrom('emoji_set as s')
    .select(['s.id', 's.name', 's.position', 's.created_by', 's.updated_at'])
    .select((eb) => [
      eb
        .selectFrom('emoji as e')
        .whereRef('e.emoji_set_id', '=', 's.id')
        .select(eb.fn.countAll().as('n'))
        .as('emoji_count'),
      eb
        .selectFrom('emoji as e')
        .whereRef('e.emoji_set_id', '=', 's.id')
        .select('e.image_key')
        .orderBy('e.position')
        .orderBy('e.id')
        .limit(1)
        .as('cover_key'),
    ])
    .orderBy('s.position')
    .orderBy('s.id');
  if (onlyId !== undefined) query = query.where('s.id', '=', onlyId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    order: row.position,
    emojiCount: Number(row.emoji_count ?? 0),
    cover: row.cover_key ? storage.publicUrl(row.cover_key) : null,
    updatedAt: row.updated_at,
    canManage: canManageSet(viewer, row),
  }));
}

/** A set's emojis in order. */
export async function emojisOfSet(db: Db, storage: PublicUrl, setId: number): Promise<Emoji[]> {
  const rows = await db
    .selectFrom('emoji')
    .select(['id', 'name', 'image_key', 'emoji_set_id', 'position'])
    .where('emoji_set_id', '=', setId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    src: storage.publicUrl(row.image_key),
    emojiSetId: row.emoji_set_id,
    order: row.position,
  }));
}

/** One set and its emojis, as the caller sees it; undefined when there is no such set. */
export async function setWithEmojis(
  db: Db,
  storage: PublicUrl,
  viewer: EmojiViewer,
  setId: number,
): Promise<EmojiSetWithEmojis | undefined> {
  const [summary] = await setSummaries(db, storage, viewer, setId);
  if (!summary) return undefined;
  return { emojiSet: summary, emojis: await emojisOfSet(db, storage, setId) };
}

/** How many emojis a set holds, and which of `names` it already has. */
export async function setContents(
  db: Db,
  setId: number,
  names: readonly string[],
): Promise<{ count: number; taken: string[] }> {
  const count = await db
    .selectFrom('emoji')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('emoji_set_id', '=', setId)
    .executeTakeFirstOrThrow();
  const taken =
    names.length === 0
      ? []
      : await db
          .selectFrom('emoji')
          .select('name')
          .where('emoji_set_id', '=', setId)
          .where('name', 'in', names)
          .execute();
  const found = new Set(taken.map((row) => row.name));
  return { count: Number(count.n), taken: names.filter((name) => found.has(name)) };
}
