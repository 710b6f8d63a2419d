import { sql } from 'kysely';
import {
  FEED_IMAGES_MAX,
  articlePath,
  postPath,
  topicKey,
  type ContentType,
  type FeedItem,
  type SectionBrief,
  type SectionView,
  type TopicBrief,
  type TopicView,
  type UserBrief,
  type WorkBrief,
  type WorkRef,
} from '../../../shared/community/community.ts';
import type { Db } from '../../db/database.ts';
import type { TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';
import { parseJsonList } from '../catalogue/catalogue.mappers.ts';
import type { ArticleRow, PostRow, SectionRow, TopicRow } from './community.tables.ts';

/**
 * Reads shared by the community services: the briefs shown beside posts and articles (author, section,
 * topics, works), feed items built from rows, and section and topic views.
 */

/** Both kinds' tables name their shared columns alike; queries over either use the post table's types. */
export const tableOf = (type: ContentType) => type as 'post';

export const toSectionBrief = (row: Pick<SectionRow, 'id' | 'name' | 'color' | 'icon'>): SectionBrief => ({
  id: row.id,
  name: row.name,
  color: row.color,
  icon: row.icon,
});

export function toSectionView(row: SectionRow, following?: boolean): SectionView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    color: row.color,
    cover: row.cover,
    sortOrder: row.sort_order,
    followerCount: row.follower_count,
    postCount: row.post_count,
    articleCount: row.article_count,
    ...(following === undefined ? {} : { isFollowing: following }),
  };
}

export function toTopicView(row: TopicRow, following?: boolean): TopicView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    color: row.color,
    cover: row.cover,
    followerCount: row.follower_count,
    useCount: row.use_count,
    lastUsedAt: row.last_used_at,
    ...(following === undefined ? {} : { isFollowing: following }),
  };
}

/** Which of these sections or topics the viewer follows (empty for visitors). */
export async function followedIds(
  db: Db,
  viewerId: string | null,
  type: 'section' | 'topic',
  ids: readonly number[],
): Promise<Set<number>> {
  if (!viewerId || ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('community_follow')
    .select('target_id')
    .where('user_id', '=', viewerId)
    .where('target_type', '=', type)
    .where('target_id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((row) => row.target_id));
}

export async function sectionBriefs(db: Db, ids: readonly (number | null)[]): Promise<Map<number, SectionBrief>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('section')
    .select(['id', 'name', 'color', 'icon'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, toSectionBrief(row)]));
}

/** Authors by users.id; a removed account is never asked for (its content went with it). */
export async function userBriefs(db: Db, ids: readonly string[]): Promise<Map<string, UserBrief>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'user_id', 'name', 'avatar'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, { userId: row.user_id, name: row.name, avatar: row.avatar }]));
}

export const unknownAuthor: UserBrief = { userId: 0, name: '', avatar: '' };

/** The linked topics of published items, in the author's order, by item id. */
export async function linkedTopics(
  db: Db,
  type: ContentType,
  ids: readonly number[],
): Promise<Map<number, TopicBrief[]>> {
  const found = new Map<number, TopicBrief[]>();
  if (ids.length === 0) return found;
  const rows = await db
    .selectFrom('content_topic as ct')
    .innerJoin('topic as t', 't.id', 'ct.topic_id')
    .select(['ct.content_id', 't.id', 't.name', 't.color'])
    .where('ct.content_type', '=', type)
    .where('ct.content_id', 'in', [...new Set(ids)])
    .orderBy('ct.content_id')
    .orderBy('ct.position')
    .execute();
  for (const row of rows) {
    const list = found.get(row.content_id) ?? [];
    list.push({ id: row.id, name: row.name, color: row.color });
    found.set(row.content_id, list);
  }
  return found;
}

/** A draft's topic names as briefs: existing topics as they are, new names with id 0. */
export async function namedTopics(db: Db, names: readonly string[]): Promise<TopicBrief[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('topic')
    .select(['id', 'name', 'name_key', 'color'])
    .where('name_key', 'in', names.map(topicKey))
    .execute();
  const byKey = new Map(rows.map((row) => [row.name_key, row]));
  return names.map((name) => {
    const topic = byKey.get(topicKey(name));
    return topic ? { id: topic.id, name: topic.name, color: topic.color } : { id: 0, name, color: '' };
  });
}

export const topicNamesOf = (row: { topic_names: string }) => parseJsonList<string>(row.topic_names);

/** The topics an item shows: linked ones once published, the names given while a draft. */
export async function topicsOfItem(
  db: Db,
  type: ContentType,
  row: { id: number; status: string; topic_names: string },
): Promise<TopicBrief[]> {
  if (row.status === 'published') return (await linkedTopics(db, type, [row.id])).get(row.id) ?? [];
  return namedTopics(db, topicNamesOf(row));
}

/** An item's related works, in order. */
export async function worksOf(db: Db, type: ContentType, id: number): Promise<WorkRef[]> {
  const rows = await db
    .selectFrom('content_work')
    .select(['work_type', 'work_id'])
    .where('content_type', '=', type)
    .where('content_id', '=', id)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ type: row.work_type, id: row.work_id }));
}

/** Works as shown: only those the viewer may see, with title, cover (games) and address. */
export async function workBriefs(
  deps: { db: Db; targets: TargetRegistry },
  viewer: TargetViewer,
  refs: readonly WorkRef[],
): Promise<WorkBrief[]> {
  if (refs.length === 0) return [];
  const byType = new Map<WorkRef['type'], number[]>();
  for (const ref of refs) byType.set(ref.type, [...(byType.get(ref.type) ?? []), ref.id]);
  const infos = new Map<string, { title: string; url: string }>();
  for (const [type, ids] of byType) {
    for (const [id, info] of await deps.targets.find(deps.db, type, ids, viewer)) infos.set(`${type}:${id}`, info);
  }
  const gameIds = byType.get('galgame') ?? [];
  const covers = new Map<number, string>();
  if (gameIds.length > 0) {
    const rows = await deps.db.selectFrom('galgame').select(['id', 'cover']).where('id', 'in', gameIds).execute();
    for (const row of rows) covers.set(row.id, row.cover);
  }
  return refs.flatMap((ref) => {
    const info = infos.get(`${ref.type}:${ref.id}`);
    if (!info) return [];
    return [
      {
        type: ref.type,
        id: ref.id,
        title: info.title,
        cover: ref.type === 'galgame' ? (covers.get(ref.id) ?? '') : '',
        url: info.url,
      },
    ];
  });
}

/** Columns a feed item needs from either table. */
const FEED_COLUMNS = [
  'id',
  'user_id',
  'section_id',
  'title',
  'excerpt',
  'pinned',
  'featured',
  'like_count',
  'comment_count',
  'favorite_count',
  'view_count',
  'published_at',
  'edited_at',
  'created_at',
] as const;

type FeedRow = Pick<PostRow, (typeof FEED_COLUMNS)[number]>;

export type ContentKey = { type: ContentType; id: number };

/**
 * Feed items for these published posts and articles, in the order given (keys whose row is gone are
 * left out).
 */
export async function feedItems(db: Db, keys: readonly ContentKey[]): Promise<FeedItem[]> {
  if (keys.length === 0) return [];
  const postIds = keys.filter((k) => k.type === 'post').map((k) => k.id);
  const articleIds = keys.filter((k) => k.type === 'article').map((k) => k.id);
  const [posts, articles] = await Promise.all([
    postIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('post')
          .select([...FEED_COLUMNS, 'images'])
          .where('id', 'in', postIds)
          .execute(),
    articleIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('article')
          .select([...FEED_COLUMNS, 'cover', 'slug', 'is_review'])
          .where('id', 'in', articleIds)
          .execute(),
  ]);
  const rows = new Map<string, { type: ContentType; row: FeedRow; images: string[]; url: string; review: boolean }>();
  for (const row of posts) {
    const images = parseJsonList<string>(row.images).slice(0, FEED_IMAGES_MAX);
    rows.set(`post:${row.id}`, { type: 'post', row, images, url: postPath(row.id), review: false });
  }
  for (const row of articles) {
    rows.set(`article:${row.id}`, {
      type: 'article',
      row,
      images: row.cover ? [row.cover] : [],
      url: articlePath(row),
      review: row.is_review === 1,
    });
  }
  const all = [...rows.values()];
  const [authors, sections, postTopics, articleTopics] = await Promise.all([
    userBriefs(
      db,
      all.map((r) => r.row.user_id),
    ),
    sectionBriefs(
      db,
      all.map((r) => r.row.section_id),
    ),
    linkedTopics(db, 'post', postIds),
    linkedTopics(db, 'article', articleIds),
  ]);
  return keys.flatMap((key) => {
    const found = rows.get(`${key.type}:${key.id}`);
    if (!found) return [];
    const { row } = found;
    return [
      {
        type: found.type,
        id: row.id,
        title: row.title,
        excerpt: row.excerpt,
        images: found.images,
        author: authors.get(row.user_id) ?? unknownAuthor,
        section: row.section_id === null ? null : (sections.get(row.section_id) ?? null),
        topics: (found.type === 'post' ? postTopics : articleTopics).get(row.id) ?? [],
        likeCount: row.like_count,
        commentCount: row.comment_count,
        favoriteCount: row.favorite_count,
        viewCount: row.view_count,
        pinned: row.pinned === 1,
        featured: row.featured === 1,
        isReview: found.review,
        publishedAt: row.published_at ?? row.created_at,
        editedAt: row.edited_at,
        url: found.url,
      },
    ];
  });
}

/** What the viewer did to an item: liked it, favourited it. */
export async function viewerMarks(
  db: Db,
  viewerId: string | null,
  ref: ContentKey,
): Promise<{ isLiked: boolean; isFavorited: boolean }> {
  if (!viewerId) return { isLiked: false, isFavorited: false };
  const [like, favorite] = await Promise.all([
    db
      .selectFrom('reaction_like')
      .select(sql.lit(1).as('x'))
      .where('user_id', '=', viewerId)
      .where('target_type', '=', ref.type)
      .where('target_id', '=', ref.id)
      .executeTakeFirst(),
    db
      .selectFrom('favorite')
      .select('id')
      .where('user_id', '=', viewerId)
      .where('item_type', '=', ref.type)
      .where('item_id', '=', ref.id)
      .executeTakeFirst(),
  ]);
  return { isLiked: like !== undefined, isFavorited: favorite !== undefined };
}

/** A post row, or an article row, by id (any status). */
export const findPost = (db: Db, id: number): Promise<PostRow | undefined> =>
  db.selectFrom('post').selectAll().where('id', '=', id).executeTakeFirst();

export const findArticle = (db: Db, by: { id: number } | { slug: string }): Promise<ArticleRow | undefined> =>
  'id' in by
    ? db.selectFrom('article').selectAll().where('id', '=', by.id).executeTakeFirst()
    : db.selectFrom('article').selectAll().where('slug', '=', by.slug).executeTakeFirst();
