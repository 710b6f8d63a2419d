import { sql } from 'kysely';
import {
  CONTENT_TYPES,
  FRONT_LIST_SIZES,
  HOT_WEIGHTS,
  HOT_WINDOW_DAYS,
  articlePath,
  postPath,
  type CommunityFront,
  type CommunityPage,
  type ContentListItem,
  type ContentStatus,
  type ContentType,
  type FeedItem,
  type FeedSort,
  type FeedType,
} from '../../../shared/community/community.ts';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { parseJsonList } from '../catalogue/catalogue.mappers.ts';
import { feedItems, sectionBriefs, tableOf, type ContentKey } from './community.repository.ts';
import { listSections, listTopics } from './topics.service.ts';

/**
 * Lists of posts and articles: the community feed (by section, topic and type; newest, hot, featured),
 * the front page, a user's content, drafts and published items, and favourite posts and articles. Both
 * kinds are listed together through one UNION ALL of their keys (the same SQL on both databases); the
 * rows of the page are then read by id.
 */

/** The columns every list sorts by, from either table. */
function keysOf(db: Db, type: ContentType) {
  return db
    .selectFrom(tableOf(type))
    .select([
      sql.lit(type).as('type'),
      'id',
      'published_at',
      'updated_at',
      'pinned',
      'like_count',
      'comment_count',
      'favorite_count',
    ]);
}
type KeyQuery = ReturnType<typeof keysOf>;

function selectKeys(db: Db, union: KeyQuery) {
  return db.selectFrom(union.as('c')).select(['c.type', 'c.id']);
}
type KeysSelect = ReturnType<typeof selectKeys>;

/** One page of keys from the kinds asked for, with the total, ordered by `order` (a unique order last). */
async function pageOfKeys(
  db: Db,
  types: readonly ContentType[],
  filter: (query: KeyQuery, type: ContentType) => KeyQuery,
  order: (query: KeysSelect) => KeysSelect,
  request: PageRequest,
): Promise<CommunityPage<ContentKey>> {
  const [first, ...rest] = types.map((type) => filter(keysOf(db, type), type));
  if (!first) return { items: [], pagination: { page: request.page, limit: request.limit, total: 0, totalPages: 1 } };
  const union = rest.reduce((all, part) => all.unionAll(part), first);
  const { items, pagination } = await paginate(
    request,
    order(selectKeys(db, union)),
    db.selectFrom(union.as('c')).select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return { items: items.map((row) => ({ type: row.type, id: row.id })), pagination };
}

const typesOf = (type: FeedType | ContentType | undefined): readonly ContentType[] =>
  type === undefined || type === 'all' ? CONTENT_TYPES : [type];

export interface FeedRequest extends PageRequest {
  sectionId?: number | undefined;
  topicId?: number | undefined;
  type: FeedType;
  sort: FeedSort;
}

/**
 * Published posts and articles. `new`: newest first, pinned ones first inside a section; `hot`: those
 * published in the last HOT_WINDOW_DAYS first, then by likes + 2 × comments + 2 × favourites, then
 * newest; `featured`: featured ones only, newest first.
 */
export async function feed(db: Db, request: FeedRequest, now = new Date()): Promise<CommunityPage<FeedItem>> {
  const recent = new Date(now.getTime() - HOT_WINDOW_DAYS * 24 * 60 * 60_000).toISOString();
  const keys = await pageOfKeys(
    db,
    typesOf(request.type),
    (query, type) => {
      let q = query.where('status', '=', 'published');
      if (request.sectionId !== undefined) q = q.where('section_id', '=', request.sectionId);
      if (request.topicId !== undefined) {
        const topicId = request.topicId;
        q = q.where('id', 'in', (eb) =>
          eb
            .selectFrom('content_topic')
            .select('content_id')
            .where('content_type', '=', type)
            .where('topic_id', '=', topicId),
        );
      }
      if (request.sort === 'featured') q = q.where('featured', '=', 1);
      return q;
    },
    (rows) => {
      let q = rows;
      if (request.sort === 'new' && request.sectionId !== undefined) q = q.orderBy('c.pinned', 'desc');
      if (request.sort === 'hot')
        q = q
          .orderBy(sql`case when c.published_at >= ${recent} then 1 else 0 end`, 'desc')
          .orderBy(
            sql`c.like_count * ${sql.lit(HOT_WEIGHTS.like)} + c.comment_count * ${sql.lit(HOT_WEIGHTS.comment)} + c.favorite_count * ${sql.lit(HOT_WEIGHTS.favorite)}`,
            'desc',
          );
      return q.orderBy('c.published_at', 'desc').orderBy('c.id', 'desc').orderBy('c.type');
    },
    request,
  );
  return { items: await feedItems(db, keys.items), pagination: keys.pagination };
}

/** What /community shows (the announcements are the announcement module's). */
export async function getCommunityFront(
  db: Db,
  viewer: { id: string } | null,
  now = new Date(),
): Promise<CommunityFront> {
  const viewerId = viewer?.id ?? null;
  const page = (limit: number) => ({ page: 1, limit });
  const [sections, hot, latest, featured, topics] = await Promise.all([
    listSections(db, viewerId),
    feed(db, { ...page(FRONT_LIST_SIZES.hot), type: 'all', sort: 'hot' }, now),
    feed(db, { ...page(FRONT_LIST_SIZES.latest), type: 'all', sort: 'new' }, now),
    feed(db, { ...page(FRONT_LIST_SIZES.featured), type: 'all', sort: 'featured' }, now),
    listTopics(db, { ...page(FRONT_LIST_SIZES.activeTopics), sort: 'active' }, viewerId),
  ]);
  return { sections, hot: hot.items, latest: latest.items, featured: featured.items, activeTopics: topics.items };
}

/** List items of posts and articles, in the order given. */
async function listItems(db: Db, keys: readonly ContentKey[]): Promise<ContentListItem[]> {
  const ids = (type: ContentType) => keys.filter((k) => k.type === type).map((k) => k.id);
  const common = [
    'id',
    'title',
    'excerpt',
    'status',
    'section_id',
    'like_count',
    'comment_count',
    'updated_at',
    'published_at',
  ] as const;
  const [posts, articles] = await Promise.all([
    ids('post').length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('post')
          .select([...common, 'images'])
          .where('id', 'in', ids('post'))
          .execute(),
    ids('article').length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('article')
          .select([...common, 'cover', 'slug'])
          .where('id', 'in', ids('article'))
          .execute(),
  ]);
  const sections = await sectionBriefs(
    db,
    [...posts, ...articles].map((row) => row.section_id),
  );
  const items = new Map<string, ContentListItem>();
  const base = (type: ContentType, row: (typeof posts)[number] | (typeof articles)[number]) => ({
    type,
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    status: row.status,
    section: row.section_id === null ? null : (sections.get(row.section_id) ?? null),
    likeCount: row.like_count,
    commentCount: row.comment_count,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
  });
  for (const row of posts)
    items.set(`post:${row.id}`, {
      ...base('post', row),
      cover: parseJsonList<string>(row.images)[0] ?? '',
      url: postPath(row.id),
    });
  for (const row of articles)
    items.set(`article:${row.id}`, { ...base('article', row), cover: row.cover, url: articlePath(row) });
  return keys.flatMap((key) => items.get(`${key.type}:${key.id}`) ?? []);
}

/** A user's posts and articles of one status, newest first (drafts: most recently changed first). */
async function contentOf(
  db: Db,
  userId: string,
  status: ContentStatus,
  type: ContentType | undefined,
  request: PageRequest,
): Promise<CommunityPage<ContentListItem>> {
  const byChange = status === 'draft';
  const keys = await pageOfKeys(
    db,
    typesOf(type),
    (query) => query.where('user_id', '=', userId).where('status', '=', status),
    (rows) =>
      (byChange ? rows.orderBy('c.updated_at', 'desc') : rows.orderBy('c.published_at', 'desc'))
        .orderBy('c.id', 'desc')
        .orderBy('c.type'),
    request,
  );
  return { items: await listItems(db, keys.items), pagination: keys.pagination };
}

/** GET /api/user/content: a user's published posts and articles (by public userId). */
export async function userContent(
  db: Db,
  userId: number,
  options: PageRequest & { type?: ContentType | undefined },
): Promise<CommunityPage<ContentListItem>> {
  const user = await db.selectFrom('users').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (!user) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return contentOf(db, user.id, 'published', options.type, options);
}

/** The caller's drafts or published items. */
export async function ownContent(
  db: Db,
  userId: string,
  status: 'draft' | 'published',
  options: PageRequest & { type?: ContentType | undefined },
): Promise<CommunityPage<ContentListItem>> {
  return contentOf(db, userId, status, options.type, options);
}

/** A user's favourite posts or articles that are published, newest favourite first, with a title keyword. */
export async function favoriteContentOf(
  db: Db,
  userId: string,
  type: ContentType,
  options: PageRequest & { keyword?: string | undefined },
): Promise<CommunityPage<FeedItem>> {
  let q = db
    .selectFrom('favorite as f')
    .innerJoin(`${tableOf(type)} as x`, 'x.id', 'f.item_id')
    .where('f.user_id', '=', userId)
    .where('f.item_type', '=', type)
    .where('x.status', '=', 'published');
  if (options.keyword) {
    const keyword = options.keyword;
    q = q.where((eb) => containsText(eb.ref('x.title'), keyword));
  }
  const { items, pagination } = await paginate(
    options,
    q.select('x.id').orderBy('f.created_at', 'desc').orderBy('f.id', 'desc'),
    q.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return {
    items: await feedItems(
      db,
      items.map((row) => ({ type, id: row.id })),
    ),
    pagination,
  };
}
