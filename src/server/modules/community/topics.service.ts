import { sql } from 'kysely';
import {
  topicKey,
  type CommunityPage,
  type FollowState,
  type FollowTargetType,
  type SectionView,
  type TopicSort,
  type TopicView,
} from '../../../shared/community/community.ts';
import type { Db } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';
import { escapeLike } from '../../db/like.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { followedIds, toSectionView, toTopicView } from './community.repository.ts';
import './sections.tables.ts';

/**
 * Sections (made by staff), topics (made by members naming them when they publish) and following
 * either. Follows are idempotent both ways: the follow row is the primary key, and the follower count
 * moves only when a row was really added or removed, in the same transaction.
 */

const sectionNotFound = () => new HttpError(404, 'NOT_FOUND', 'server.community.sectionNotFound');
const topicNotFound = () => new HttpError(404, 'NOT_FOUND', 'server.community.topicNotFound');

/** Every section in display order. */
export async function listSections(db: Db, viewerId: string | null): Promise<SectionView[]> {
  const rows = await db.selectFrom('section').selectAll().orderBy('sort_order').orderBy('id').execute();
  const followed = await followedIds(
    db,
    viewerId,
    'section',
    rows.map((row) => row.id),
  );
  return rows.map((row) => toSectionView(row, viewerId ? followed.has(row.id) : undefined));
}

export async function getSection(db: Db, id: number, viewerId: string | null): Promise<SectionView> {
  const row = await db.selectFrom('section').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw sectionNotFound();
  const followed = await followedIds(db, viewerId, 'section', [id]);
  return toSectionView(row, viewerId ? followed.has(id) : undefined);
}

export async function getTopic(db: Db, id: number, viewerId: string | null): Promise<TopicView> {
  const row = await db.selectFrom('topic').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw topicNotFound();
  const followed = await followedIds(db, viewerId, 'topic', [id]);
  return toTopicView(row, viewerId ? followed.has(id) : undefined);
}

export interface TopicListRequest extends PageRequest {
  keyword?: string | undefined;
  sort: TopicSort;
}

/**
 * Topics, most recently used first (`active`) or most followed (`popular`). A keyword matches names
 * as topicKey compares them, names starting with it first (the editor's topic picker).
 */
export async function listTopics(
  db: Db,
  request: TopicListRequest,
  viewerId: string | null,
): Promise<CommunityPage<TopicView>> {
  // A leading '#' is how topics are written in text; the picker may send it along.
  const key = request.keyword ? topicKey(request.keyword.trim().replace(/^#+/, '')) : '';
  let base = db.selectFrom('topic');
  if (key) base = base.where(sql<boolean>`name_key like ${`%${escapeLike(key)}%`} escape '!'`);
  let rows = base.selectAll();
  if (key) rows = rows.orderBy(sql`case when name_key like ${`${escapeLike(key)}%`} escape '!' then 0 else 1 end`);
  rows =
    request.sort === 'popular'
      ? rows.orderBy('follower_count', 'desc').orderBy('use_count', 'desc')
      : // Never-used topics last on both databases (they sort NULLs differently).
        rows
          .orderBy(sql`case when last_used_at is null then 1 else 0 end`)
          .orderBy('last_used_at', 'desc')
          .orderBy('use_count', 'desc');
  const { items, pagination } = await paginate(
    request,
    rows.orderBy('id', 'desc'),
    base.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  const followed = await followedIds(
    db,
    viewerId,
    'topic',
    items.map((row) => row.id),
  );
  return { items: items.map((row) => toTopicView(row, viewerId ? followed.has(row.id) : undefined)), pagination };
}

/**
 * The ids of the topics with these names, in the same order, creating the missing ones (a merged topic's
 * name gives the topic it went into, so two names may give one id). Runs outside the
 * caller's transaction (each statement on its own), so a topic named by many publishes at once is made
 * once: the insert does nothing when another request made it first, and the select after it finds it.
 */
export async function ensureTopics(db: Db, names: readonly string[], now = new Date()): Promise<number[]> {
  if (names.length === 0) return [];
  const keys = names.map(topicKey);
  const find = async () => {
    const rows = await db.selectFrom('topic').select(['id', 'name_key']).where('name_key', 'in', keys).execute();
    // The name of a topic merged into another names the topic it went into.
    const aliases = await db
      .selectFrom('topic_alias')
      .select(['topic_id as id', 'name_key'])
      .where('name_key', 'in', keys)
      .execute();
    return new Map([...aliases, ...rows].map((row) => [row.name_key, row.id]));
  };
  let found = await find();
  const missing = names.filter((name, i) => !found.has(keys[i] ?? ''));
  if (missing.length > 0) {
    const at = now.toISOString();
    for (const name of missing) {
      const id = await nextId(db, 'topic_id');
      await db
        .insertInto('topic')
        .values({ id, name, name_key: topicKey(name), created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('name_key').doNothing())
        .execute();
    }
    found = await find();
  }
  return keys.map((key) => {
    const id = found.get(key);
    if (id === undefined) throw new Error(`topic "${key}" was neither found nor created`);
    return id;
  });
}

const followTable = (type: FollowTargetType) => type as 'section';

/** Follows a section or topic; a second follow (double click, retry) changes nothing. */
export async function follow(
  db: Db,
  userId: string,
  target: { type: FollowTargetType; id: number },
  now = new Date(),
): Promise<FollowState> {
  return db.transaction().execute(async (trx) => {
    const table = followTable(target.type);
    const exists = await trx.selectFrom(table).select('id').where('id', '=', target.id).executeTakeFirst();
    if (!exists) throw target.type === 'section' ? sectionNotFound() : topicNotFound();
    const inserted = await trx
      .insertInto('community_follow')
      .values({ user_id: userId, target_type: target.type, target_id: target.id, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'target_type', 'target_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      await trx
        .updateTable(table)
        .set((eb) => ({ follower_count: eb('follower_count', '+', 1) }))
        .where('id', '=', target.id)
        .execute();
    }
    return { isFollowing: true, followerCount: await followerCount(trx, target) };
  });
}

/** Stops following; idempotent too. */
export async function unfollow(
  db: Db,
  userId: string,
  target: { type: FollowTargetType; id: number },
): Promise<FollowState> {
  return db.transaction().execute(async (trx) => {
    const table = followTable(target.type);
    const exists = await trx.selectFrom(table).select('id').where('id', '=', target.id).executeTakeFirst();
    if (!exists) throw target.type === 'section' ? sectionNotFound() : topicNotFound();
    const deleted = await trx
      .deleteFrom('community_follow')
      .where('user_id', '=', userId)
      .where('target_type', '=', target.type)
      .where('target_id', '=', target.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1) {
      await trx
        .updateTable(table)
        .set({ follower_count: sql<number>`case when follower_count > 0 then follower_count - 1 else 0 end` })
        .where('id', '=', target.id)
        .execute();
    }
    return { isFollowing: false, followerCount: await followerCount(trx, target) };
  });
}

async function followerCount(db: Db, target: { type: FollowTargetType; id: number }): Promise<number> {
  const row = await db
    .selectFrom(followTable(target.type))
    .select('follower_count')
    .where('id', '=', target.id)
    .executeTakeFirst();
  return row?.follower_count ?? 0;
}
