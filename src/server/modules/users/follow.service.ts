import type { Db } from '../../db/database.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { hitRateLimit, rateLimited, type RateRule } from '../../platform/rate-limit.ts';
import { notifyLater, type NotifyDeps } from '../notifications/notifications.queue.ts';
import type { FollowEntry, FollowPage, FollowStatus } from '../../../shared/users/follow-model.ts';

/**
 * Members following members (spec §7): a toggle, a status, and both lists. The row is the follow (its
 * primary key is the one-follow rule); each change moves both members' counts in the same transaction
 * and only by the rows it really inserted or deleted, so double clicks, two tabs and parallel toggles
 * never leave a count that differs from the rows.
 */

const userNotFound = () => new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
const followSelf = () => new HttpError(400, 'FOLLOW_SELF', 'server.follow.self');

/** The account id of a member by public userId, or a 404. */
async function accountOf(db: Db, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw userNotFound();
  return row.id;
}

async function followerCountOf(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom('users').select('follower_count').where('id', '=', id).executeTakeFirstOrThrow();
  return row.follower_count;
}

/** 30 toggles a minute per member: far above any person's clicking, well below a script following everyone. */
export const FOLLOW_LIMIT = { limit: 30, windowMs: 60_000 } satisfies RateRule;

/**
 * Follows the member, or stops following them when the caller already does (spec: the call toggles).
 * Following oneself is a 400 with the spec's text. Past the member's minute allowance, a 429 with
 * Retry-After that changes nothing.
 */
export async function toggleFollow(
  deps: NotifyDeps & { db: Db },
  followerId: string,
  targetUserId: number,
  now = new Date(),
): Promise<FollowStatus> {
  // Refused calls (oneself, no such member) do not use up the allowance.
  if ((await accountOf(deps.db, targetUserId)) === followerId) throw followSelf();
  const minute = await hitRateLimit(deps.db, `follow:minute:${followerId}`, FOLLOW_LIMIT, now.getTime());
  if (minute.count > FOLLOW_LIMIT.limit) throw rateLimited(minute.retryAfter, 'server.follow.tooFast');
  const status = await deps.db.transaction().execute(async (trx) => {
    const followeeId = await accountOf(trx, targetUserId);
    if (followeeId === followerId) throw followSelf();
    const move = async (by: 1 | -1) => {
      // Both counters in id order, so two members following each other at once never wait crosswise.
      for (const [id, column] of [
        [followerId, 'following_count'],
        [followeeId, 'follower_count'],
      ].sort(([a], [b]) => (a! < b! ? -1 : 1)) as [string, 'following_count' | 'follower_count'][]) {
        await trx
          .updateTable('users')
          .set((eb) => ({ [column]: eb(column, '+', by) }))
          .where('id', '=', id)
          .execute();
      }
    };
    const deleted = await trx
      .deleteFrom('user_follow')
      .where('follower_id', '=', followerId)
      .where('followee_id', '=', followeeId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) > 0) {
      await move(-1);
      await notifyLater(deps, trx, { kind: 'follow', followeeId });
      return { isFollowing: false, followerCount: await followerCountOf(trx, followeeId) };
    }
    const inserted = await trx
      .insertInto('user_follow')
      .values({ follower_id: followerId, followee_id: followeeId, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
      await move(1);
      await notifyLater(deps, trx, { kind: 'follow', followeeId });
    }
    return { isFollowing: true, followerCount: await followerCountOf(trx, followeeId) };
  });
  deps.jobs.poke();
  return status;
}

/** Whether the caller follows the member. */
export async function followStatus(db: Db, followerId: string, targetUserId: number): Promise<FollowStatus> {
  const followeeId = await accountOf(db, targetUserId);
  const row = await db
    .selectFrom('user_follow')
    .select('follower_id')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return { isFollowing: row !== undefined, followerCount: await followerCountOf(db, followeeId) };
}

/** Whom the member follows (`following`) or who follows them (`followers`), newest follow first. */
export async function listFollows(
  db: Db,
  userId: number,
  side: 'following' | 'followers',
  request: PageRequest,
): Promise<FollowPage> {
  const id = await accountOf(db, userId);
  const [own, other] =
    side === 'following' ? (['follower_id', 'followee_id'] as const) : (['followee_id', 'follower_id'] as const);
  const base = db
    .selectFrom('user_follow as f')
    .innerJoin('users as u', 'u.id', `f.${other}`)
    .where(`f.${own}`, '=', id);
  const { items, pagination } = await paginate(
    request,
    base
      .select([
        'u.user_id',
        'u.name',
        'u.avatar',
        'u.signature',
        'u.follower_count',
        'u.following_count',
        'f.created_at',
      ])
      .orderBy('f.created_at', 'desc')
      .orderBy('u.user_id', 'desc'),
    base.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return {
    items: items.map((row): FollowEntry => ({
      userId: row.user_id,
      name: row.name,
      avatar: row.avatar,
      signature: row.signature,
      followerCount: row.follower_count,
      followingCount: row.following_count,
      followedAt: row.created_at,
    })),
    pagination,
  };
}
