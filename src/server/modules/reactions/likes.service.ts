import type { LikeState, LikeTargetType } from '../../../shared/reactions/reactions.ts';
import type { TargetRef } from '../../../shared/targets.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import type { CounterColumn, TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';
import { sql } from 'kysely';
import { notifyLater, type NotifyDeps } from '../notifications/notifications.queue.ts';

/**
 * Likes (decision 018): one per user and item (the primary key), on the targets that keep a like count.
 * Adding and removing are idempotent, and the item's count moves in the same transaction as the row,
 * only when a row was really inserted or deleted: double clicks, retries and many likers at once all
 * leave the exact count.
 */

export interface LikeDeps extends NotifyDeps {
  db: Db;
  targets: TargetRegistry;
}

export type LikeRef = TargetRef & { type: LikeTargetType };

const notFound = () => new HttpError(404, 'NOT_FOUND', 'server.likes.targetNotFound');

/** Likes an item the viewer may see (else 404). */
export async function like(
  deps: LikeDeps,
  viewer: NonNullable<TargetViewer>,
  ref: LikeRef,
  now = new Date(),
): Promise<LikeState & { isLiked: true }> {
  if (!deps.targets.keeps(ref.type, 'like')) throw notFound();
  const found = await deps.targets.find(deps.db, ref.type, [ref.id], viewer);
  if (!found.has(ref.id)) throw notFound();
  const state: LikeState & { isLiked: true } = await deps.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('reaction_like')
      .values({ user_id: viewer.id, target_type: ref.type, target_id: ref.id, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'target_type', 'target_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      await deps.targets.adjust(trx, ref, 'like', 1);
      await notifyLater(deps, trx, { kind: 'like', targetType: ref.type, targetId: ref.id });
    }
    return { isLiked: true, likeCount: await deps.targets.read(trx, ref, 'like') };
  });
  deps.jobs.poke();
  return state;
}

/** Takes a like back. Idempotent, and also when the item has since been hidden or deleted. */
export async function unlike(deps: LikeDeps, userId: string, ref: LikeRef): Promise<LikeState & { isLiked: false }> {
  if (!deps.targets.keeps(ref.type, 'like')) throw notFound();
  const state: LikeState & { isLiked: false } = await deps.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('reaction_like')
      .where('user_id', '=', userId)
      .where('target_type', '=', ref.type)
      .where('target_id', '=', ref.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1) {
      await deps.targets.adjust(trx, ref, 'like', -1);
      // The owner's unread group is counted again, so it no longer names this like.
      await notifyLater(deps, trx, { kind: 'like', targetType: ref.type, targetId: ref.id });
    }
    return { isLiked: false, likeCount: await deps.targets.read(trx, ref, 'like') };
  });
  deps.jobs.poke();
  return state;
}

/** The ids among `ids` that the user has liked (for `isLiked` in lists of comments, posts, ratings…). */
export async function likedIds(
  db: Db,
  userId: string,
  type: LikeTargetType,
  ids: readonly number[],
): Promise<Set<number>> {
  const liked = new Set<number>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('reaction_like')
      .select('target_id')
      .where('user_id', '=', userId)
      .where('target_type', '=', type)
      .where('target_id', 'in', unique.slice(i, i + 500))
      .execute();
    for (const row of rows) liked.add(Number(row.target_id));
  }
  return liked;
}

/** Calls `run` per type that keeps a like count, with its ids sorted, 500 at a time. */
async function eachCounterChunk(
  targets: TargetRegistry,
  items: readonly { target_type: LikeTargetType; target_id: number }[],
  run: (spec: CounterColumn, chunk: number[], type: LikeTargetType) => Promise<void>,
): Promise<void> {
  const groups = new Map<LikeTargetType, Set<number>>();
  for (const item of items)
    groups.set(item.target_type, (groups.get(item.target_type) ?? new Set()).add(item.target_id));
  for (const [type, idSet] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const spec = targets.counterColumn(type, 'like');
    if (!spec) continue;
    const ids = [...idSet].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += 500) await run(spec, ids.slice(i, i + 500), type);
  }
}

/**
 * Removes a user's likes and sets the like counts of what they liked to a recount (their account is
 * being removed). The counted rows are locked first, in type and id order, so a like arriving meanwhile
 * waits and the recount sees it. Run inside the removal's transaction.
 */
export async function removeLikesOf(db: Db, targets: TargetRegistry, userId: string): Promise<number> {
  const liked = await db
    .selectFrom('reaction_like')
    .select(['target_type', 'target_id'])
    .where('user_id', '=', userId)
    .execute();
  await eachCounterChunk(targets, liked, async (spec, chunk) => {
    const column = sql.ref(spec.column);
    await sql`update ${sql.table(spec.table)} set ${column} = ${column} where ${sql.ref(spec.idColumn)} in (${sql.join(chunk)})`.execute(
      db,
    );
  });
  await db.deleteFrom('reaction_like').where('user_id', '=', userId).execute();
  await recountLikes(db, targets, liked);
  return liked.length;
}

/** Sets the like counts of these items to a count of their like rows. */
export async function recountLikes(
  db: Db,
  targets: TargetRegistry,
  items: readonly { target_type: LikeTargetType; target_id: number }[],
): Promise<void> {
  await eachCounterChunk(targets, items, async (spec, chunk, type) => {
    await sql`update ${sql.table(spec.table)} set ${sql.ref(spec.column)} = (
        select count(*) from reaction_like
        where reaction_like.target_type = ${type} and reaction_like.target_id = ${sql.ref(`${spec.table}.${spec.idColumn}`)}
      ) where ${sql.ref(spec.idColumn)} in (${sql.join(chunk)})`.execute(db);
  });
}
