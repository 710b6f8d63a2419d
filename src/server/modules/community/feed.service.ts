import { sql, type RawBuilder } from 'kysely';
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
import { offsetOf, onPage, pageInfo, paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { parseJsonList } from '../catalogue/catalogue.mappers.ts';
import { feedItems, sectionBriefs, tableOf, type ContentKey } from './community.repository.ts';
import { listSections, listTopics } from './topics.service.ts';

/**
 * Lists of posts and articles: the community feed (by section, topic and type; newest, hot, featured),
 * the front page, a user's content, drafts and published items, and favourite posts and articles.
 *
 * Both kinds are listed together without sorting either table whole: each table (for `hot`, each
 * table's last HOT_WINDOW_DAYS and the rest) gives its own first `offset + limit` rows in the list's
 * order, read through an index in that order, and the page is cut from their UNION ALL (the same SQL on
 * both databases). The rows of the page are then read by id.
 */

/** The columns lists sort by. */
type SortColumn = 'published_at' | 'updated_at' | 'pinned' | 'id' | 'like_count' | 'comment_count' | 'favorite_count';
/** A column of one table's rows (bare) or of the merged rows (`c.`). */
export type ColumnRef = (column: SortColumn) => RawBuilder<unknown>;
/** A list's order, largest first by each term in turn; the merged rows end with the type (a unique order). */
type ListOrder = readonly ((ref: ColumnRef) => RawBuilder<unknown>)[];

const column =
  (name: SortColumn): ((ref: ColumnRef) => RawBuilder<unknown>) =>
  (ref) =>
    ref(name);

/**
 * The hot score, likes + 2 × comments + 2 × favourites (HOT_WEIGHTS), written exactly as the hot
 * indexes are (migration 20261126-0001: a weight of 1 is no factor), so both databases read the
 * order from them.
 */
export const hotScore = (ref: ColumnRef) => {
  const term = (name: SortColumn, weight: number) =>
    weight === 1 ? ref(name) : sql`${sql.lit(weight)} * ${ref(name)}`;
  return sql`${term('like_count', HOT_WEIGHTS.like)} + ${term('comment_count', HOT_WEIGHTS.comment)} + ${term('favorite_count', HOT_WEIGHTS.favorite)}`;
};

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

const ownColumn: ColumnRef = (name) => sql.ref(name);
const mergedColumn: ColumnRef = (name) => sql.ref(`c.${name}`);

/**
 * One page of keys from the kinds asked for, in `order`, and (unless `counted` is false) the total.
 * `parts` splits a kind's rows where the order's first term does (hot: recent, then older), so each
 * part is read in index order; together they must be `filter`'s rows exactly.
 */
async function pageOfKeys(
  db: Db,
  list: {
    types: readonly ContentType[];
    filter: (query: KeyQuery, type: ContentType) => KeyQuery;
    parts?: readonly ((query: KeyQuery) => KeyQuery)[];
    /** The order inside a part; `lead` comes before it on the merged rows (constant inside a part). */
    order: ListOrder;
    lead?: ListOrder;
    counted?: boolean;
  },
  request: PageRequest,
): Promise<CommunityPage<ContentKey>> {
  const { types, filter, order, lead = [], parts = [(query: KeyQuery) => query], counted = true } = list;
  const wanted = offsetOf(request) + request.limit;
  const selected = types.flatMap((type) =>
    parts.map((part) => {
      let query = part(filter(keysOf(db, type), type));
      for (const term of order) query = query.orderBy(term(ownColumn), 'desc');
      return db.selectFrom(query.limit(wanted).as('p')).selectAll();
    }),
  );
  const [first, ...rest] = selected;
  if (!first) return { items: [], pagination: pageInfo(request, 0) };
  const union = rest.reduce((all, part) => all.unionAll(part), first);
  let rows = db.selectFrom(union.as('c')).select(['c.type', 'c.id']);
  for (const term of [...lead, ...order]) rows = rows.orderBy(term(mergedColumn), 'desc');
  rows = rows.orderBy('c.type');
  const [items, total] = await Promise.all([
    onPage(rows, request).execute(),
    counted ? countKeys(db, types, filter) : Promise.resolve(0),
  ]);
  return {
    items: items.map((row) => ({ type: row.type, id: row.id })),
    pagination: pageInfo(request, total),
  };
}

/** How many rows `filter` lets through in these kinds. */
async function countKeys(
  db: Db,
  types: readonly ContentType[],
  filter: (query: KeyQuery, type: ContentType) => KeyQuery,
): Promise<number> {
  const counts = await Promise.all(
    types.map((type) =>
      db
        .selectFrom(filter(keysOf(db, type), type).as('k'))
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ),
  );
  return counts.reduce((sum, row) => sum + Number(row.total), 0);
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
 * newest; `featured`: featured ones only, newest first. `counted: false` skips the total (a front
 * page's short lists).
 */
export async function feed(
  db: Db,
  request: FeedRequest & { counted?: boolean },
  now = new Date(),
): Promise<CommunityPage<FeedItem>> {
  const recent = new Date(now.getTime() - HOT_WINDOW_DAYS * 24 * 60 * 60_000).toISOString();
  const newest: ListOrder = [column('published_at'), column('id')];
  const hot = request.sort === 'hot';
  const recentFirst = (ref: ColumnRef) => sql`case when ${ref('published_at')} >= ${recent} then 1 else 0 end`;
  // The whole feed's hot list reads each table's older rows from the hot index; a section's or a
  // topic's rows are few enough to be sorted in one go.
  const keys = await pageOfKeys(
    db,
    {
      types: typesOf(request.type),
      filter: (query, type) => {
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
      ...(hot && request.sectionId === undefined && request.topicId === undefined
        ? {
            parts: [
              (query: KeyQuery) => query.where('published_at', '>=', recent),
              // The complement of the recent part (a row without a date counts as older, as in the order).
              (query: KeyQuery) =>
                query.where((eb) => eb.or([eb('published_at', '<', recent), eb('published_at', 'is', null)])),
            ],
            lead: [recentFirst],
            order: [hotScore, ...newest],
          }
        : {
            order: hot
              ? [recentFirst, hotScore, ...newest]
              : request.sort === 'new' && request.sectionId !== undefined
                ? [column('pinned'), ...newest]
                : newest,
          }),
      counted: request.counted ?? true,
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
    feed(db, { ...page(FRONT_LIST_SIZES.hot), type: 'all', sort: 'hot', counted: false }, now),
    feed(db, { ...page(FRONT_LIST_SIZES.latest), type: 'all', sort: 'new', counted: false }, now),
    feed(db, { ...page(FRONT_LIST_SIZES.featured), type: 'all', sort: 'featured', counted: false }, now),
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

/** A user's posts and articles of these statuses, newest first (drafts: most recently changed first). */
async function contentOf(
  db: Db,
  userId: string,
  statuses: readonly ContentStatus[],
  type: ContentType | undefined,
  request: PageRequest,
): Promise<CommunityPage<ContentListItem>> {
  const byChange = statuses.includes('draft');
  const keys = await pageOfKeys(
    db,
    {
      types: typesOf(type),
      filter: (query) => query.where('user_id', '=', userId).where('status', 'in', statuses),
      order: [column(byChange ? 'updated_at' : 'published_at'), column('id')],
    },
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
  return contentOf(db, user.id, ['published'], options.type, options);
}

/** The caller's drafts, or published items with those moderators hid (marked by their status). */
export async function ownContent(
  db: Db,
  userId: string,
  status: 'draft' | 'published',
  options: PageRequest & { type?: ContentType | undefined },
): Promise<CommunityPage<ContentListItem>> {
  return contentOf(db, userId, status === 'draft' ? ['draft'] : ['published', 'hidden'], options.type, options);
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
