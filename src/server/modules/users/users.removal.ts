import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import type { TargetRegistry } from '../../platform/targets/targets.ts';
import { HttpError } from '../../platform/errors.ts';
import { recountLinkReports } from '../catalogue/downloads.service.ts';
import { lockFavoriteCounts, recountFavorites } from '../catalogue/favorites.service.ts';
import { recountRatings } from '../catalogue/ratings.service.ts';
import { lockLightnovelRatings, recountLightnovelRatings } from '../lightnovel/lightnovel.ratings.ts';
import { removeCommunityContent } from '../community/community.removal.ts';
import { removeCommentsOf } from '../comments/comments.service.ts';
import { removeLikesOf } from '../reactions/likes.service.ts';
import { notifyLater, queueOnly } from '../notifications/notifications.queue.ts';
import type { LikeTargetType } from '../../../shared/reactions/reactions-model.ts';

export interface RemovedUser {
  id: string;
  userId: number;
  name: string;
  ratings: number;
  favorites: number;
  linkReports: number;
}

/**
 * Tables that reference users, and how removal treats them. Rows that feed a counter elsewhere are
 * deleted here and the counters recounted; the account's own rows go with it (ON DELETE CASCADE, by
 * `user_id`); things others use outlive it with the reference cleared (ON DELETE SET NULL: emoji sets,
 * which text written by anyone shows, by `created_by`). A test compares this list with the database's
 * foreign keys, so a new table that references users has to be considered here.
 */
export const USER_REFERENCES = {
  rating: 'recount',
  favorite: 'recount',
  link_report: 'recount',
  refresh_family: 'cascade',
  one_time_code: 'cascade',
  login_known_address: 'cascade',
  emoji_set: 'set null',
  // Posts, articles and follows move section, topic and follower counts: removed and recounted.
  post: 'recount',
  article: 'recount',
  community_follow: 'recount',
  // Likes and comments move counts (like counts, comment and reply counts): removed and recounted. A
  // thread goes with its root; reports the user sent go with the account (those they resolved keep the
  // report, resolved_by cleared).
  reaction_like: 'recount',
  comment: 'recount',
  report: 'cascade',
  // Follows both ways move the other members' follower and following counts: removed and recounted.
  user_follow: 'recount',
  // A member's notifications go with the account; the unread groups of others they liked or followed
  // in are counted again without them (a read group keeps its row and names them as a deleted account).
  notification: 'cascade',
  // A member's HikariPoint ledger and check-ins are theirs alone: they go with the account.
  point_ledger: 'cascade',
  check_in: 'cascade',
  // Private messages go with either member; so do their contact rows and blocks.
  private_message: 'cascade',
  chat_contact: 'cascade',
  chat_block: 'cascade',
  // Light novels: a series or an EPUB keeps its row when its creator or uploader goes; ratings move the
  // series' aggregates (removed and recounted); reading positions and bookmarks are the member's alone.
  lightnovel: 'set null',
  lightnovel_volume: 'set null',
  lightnovel_rating: 'recount',
  reading_progress: 'cascade',
  reading_bookmark: 'cascade',
  // The creator centre: revisions and audit-log rows outlive their author (the reference cleared); a
  // member's update requests go with the account (requests they reviewed keep the row, reviewer cleared).
  catalogue_revision: 'set null',
  update_request: 'cascade',
  audit_log: 'set null',
  // A member's creator applications go with the account (those they reviewed keep the row, reviewer cleared).
  creator_application: 'cascade',
  // Section moderators go with their account (appointments they made keep the row, appointer cleared).
  section_moderator: 'cascade',
} as const;

/** Finds a user by `_id`, numeric userId, name (any case) or email. */
export async function findUserForRemoval(db: Db, key: string): Promise<{ id: string } | undefined> {
  const value = key.trim();
  if (/^\d+$/.test(value)) {
    const byNumber = await db.selectFrom('users').select('id').where('user_id', '=', Number(value)).executeTakeFirst();
    if (byNumber) return byNumber;
  }
  return db
    .selectFrom('users')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('id', '=', value),
        eb('name_key', '=', value.normalize('NFKC').toLowerCase()),
        eb('email', '=', value.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
}

/**
 * Removes a user and everything tied to the account, in one transaction, and recounts every aggregate
 * the user contributed to (game and light-novel rating counts, averages and histograms, favourite
 * counts, link report counts), so nothing keeps the removed user's share.
 */
export async function removeUser(deps: { db: Db; targets: TargetRegistry }, id: string): Promise<RemovedUser> {
  return deps.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'user_id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!user) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    // Others' unread groups this member is counted in: counted again once their likes and follows are gone.
    const [likeGroups, followGroups] = await Promise.all([
      trx
        .selectFrom('notification as n')
        .innerJoin('reaction_like as r', (join) =>
          join.onRef('r.target_type', '=', 'n.target_type').onRef('r.target_id', '=', 'n.target_id'),
        )
        .select(['n.target_type', 'n.target_id'])
        .distinct()
        .where('r.user_id', '=', id)
        .where('n.kind', '=', 'like')
        .where('n.open_key', 'is not', null)
        .execute(),
      trx
        .selectFrom('notification as n')
        .innerJoin('user_follow as f', 'f.followee_id', 'n.user_id')
        .select('n.user_id')
        .distinct()
        .where('f.follower_id', '=', id)
        .where('n.kind', '=', 'follow')
        .where('n.open_key', 'is not', null)
        .execute(),
    ]);
    // Likes first: the like counts of comments that stay are recounted, those of removed ones go with them.
    await removeLikesOf(trx, deps.targets, id);
    await removeCommentsOf(trx, deps.targets, id);
    const [ratings, favorites, reports, novelRatings] = await Promise.all([
      trx.selectFrom('rating').select('galgame_id').where('user_id', '=', id).execute(),
      trx.selectFrom('favorite').select(['item_type', 'item_id']).where('user_id', '=', id).execute(),
      trx.selectFrom('link_report').select('link_id').where('user_id', '=', id).execute(),
      trx.selectFrom('lightnovel_rating').select('lightnovel_id').where('user_id', '=', id).execute(),
    ]);
    // Games rated or favourited are locked in one pass in id order (two removals never wait on each other
    // crosswise); the favourite counts of other types are locked by the favourites service.
    const games = [
      ...new Set([
        ...ratings.map((r) => r.galgame_id),
        ...favorites.filter((f) => f.item_type === 'galgame').map((f) => f.item_id),
      ]),
    ].sort((a, b) => a - b);
    const links = [...new Set(reports.map((r) => r.link_id))].sort((a, b) => a - b);
    // Lock the counted rows first (in id order, as the rating and report services do one at a time),
    // so a rating or report arriving meanwhile waits and the recount below sees it.
    for (let i = 0; i < games.length; i += 500) {
      await trx
        .updateTable('galgame')
        .set((eb) => ({ rating_count: eb.ref('rating_count') }))
        .where('id', 'in', games.slice(i, i + 500))
        .execute();
    }
    // Series rated or favourited likewise, in one pass after the games.
    const novels = [...new Set(novelRatings.map((r) => r.lightnovel_id))];
    await lockLightnovelRatings(trx, [
      ...novels,
      ...favorites.filter((f) => f.item_type === 'lightnovel').map((f) => f.item_id),
    ]);
    await lockFavoriteCounts(trx, deps.targets, favorites);
    for (let i = 0; i < links.length; i += 500) {
      await trx
        .updateTable('download_link')
        .set((eb) => ({ report_count: eb.ref('report_count') }))
        .where('id', 'in', links.slice(i, i + 500))
        .execute();
    }
    // Likes of the ratings that go would count for nothing.
    await trx
      .deleteFrom('reaction_like')
      .where('target_type', '=', 'rating')
      .where('target_id', 'in', (eb) => eb.selectFrom('rating').select('id').where('user_id', '=', id))
      .execute();
    await trx.deleteFrom('rating').where('user_id', '=', id).execute();
    await trx.deleteFrom('lightnovel_rating').where('user_id', '=', id).execute();
    await trx.deleteFrom('favorite').where('user_id', '=', id).execute();
    await trx.deleteFrom('link_report').where('user_id', '=', id).execute();
    await removeCommunityContent(trx, id);
    const others = await removeFollowsOf(trx, id);
    await trx.deleteFrom('users').where('id', '=', id).execute();
    await recountFollows(trx, others);
    await recountRatings(trx, games);
    await recountLightnovelRatings(trx, novels);
    await recountFavorites(trx, deps.targets, favorites);
    await recountLinkReports(trx, links);
    for (const group of likeGroups)
      if (group.target_type && group.target_id !== null)
        await notifyLater({ jobs: queueOnly }, trx, {
          kind: 'like',
          targetType: group.target_type as LikeTargetType,
          targetId: group.target_id,
        });
    for (const group of followGroups)
      await notifyLater({ jobs: queueOnly }, trx, { kind: 'follow', followeeId: group.user_id });
    return {
      id: user.id,
      userId: user.user_id,
      name: user.name,
      ratings: ratings.length,
      favorites: favorites.length,
      linkReports: reports.length,
    };
  });
}

/** Deletes the follows from and to the user; answers the other members whose counts they moved. */
async function removeFollowsOf(trx: Db, id: string): Promise<string[]> {
  const whose = (eb: ExpressionBuilder<Database, 'user_follow'>) =>
    eb.or([eb('follower_id', '=', id), eb('followee_id', '=', id)]);
  const rows = await trx.selectFrom('user_follow').select(['follower_id', 'followee_id']).where(whose).execute();
  await trx.deleteFrom('user_follow').where(whose).execute();
  return [...new Set(rows.flatMap((row) => [row.follower_id, row.followee_id]))].filter((other) => other !== id).sort();
}

/** Sets these members' follower and following counts to their rows (in id order, 500 at a time). */
export async function recountFollows(trx: Db, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await trx
      .updateTable('users')
      .set({
        follower_count: sql<number>`(select count(*) from user_follow f where f.followee_id = users.id)`,
        following_count: sql<number>`(select count(*) from user_follow f where f.follower_id = users.id)`,
      })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}
