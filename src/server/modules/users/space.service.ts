import { sql, type SelectQueryBuilder } from 'kysely';
import type { PlayStatus } from '../../../shared/catalogue-model.ts';
import type { TargetType } from '../../../shared/targets.ts';
import type {
  DynamicItem,
  DynamicKind,
  DynamicPage,
  SpaceRating,
  SpaceRatingPage,
  UserStatistics,
} from '../../../shared/users/space-model.ts';
import type { Database, Db } from '../../db/database.ts';
import { offsetOf, onPage, pageInfo, paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import type { TargetRegistry } from '../../platform/targets/targets.ts';
import { cardColumns, toCard } from '../catalogue/catalogue.mappers.ts';
import { feedItems } from '../community/community.repository.ts';
import type { UserRow } from './users.tables.ts';

/**
 * A member's space (issue 13, decision 022): their counts, their activity feed and their ratings. Lists
 * show only what a visitor may see (published posts, articles and games); a banned member's lists are
 * closed (403 USER_BANNED) while their header and counts stay readable, as the space shows a notice.
 */

export interface SpaceDeps {
  db: Db;
  targets: TargetRegistry;
}

const userNotFound = () => new HttpError(404, 'NOT_FOUND', 'server.userNotFound');

/** The member whose space this is, by public userId, or a 404. */
export async function spaceOwner(db: Db, userId: number): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw userNotFound();
  return row;
}

/** The member whose lists are read: a 404 when unknown, a 403 when banned (their space shows a notice). */
export async function listedOwner(db: Db, userId: number): Promise<UserRow> {
  const row = await spaceOwner(db, userId);
  if (row.status === 'banned') throw new HttpError(403, 'USER_BANNED', 'server.space.banned');
  return row;
}

/**
 * Whether the row `ref` points at is published: a correlated EXISTS, one primary-key look-up per row of
 * the member's list (an `IN (subquery)` would read every published row of the table on each count).
 */
const published = (table: 'galgame' | 'post' | 'article', ref: 'favorite.item_id' | 'rating.galgame_id') =>
  sql<boolean>`exists (select 1 from ${sql.table(table)} t where t.id = ${sql.ref(ref)} and t.status = 'published')`;

/** Favourites whose item a visitor may see (the types the space lists: games, posts, articles). */
function visibleFavorites(db: Db, userId: string) {
  return db
    .selectFrom('favorite')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb.and([eb('item_type', '=', 'galgame'), published('galgame', 'favorite.item_id')]),
        eb.and([eb('item_type', '=', 'post'), published('post', 'favorite.item_id')]),
        eb.and([eb('item_type', '=', 'article'), published('article', 'favorite.item_id')]),
      ]),
    );
}

const ratingsOfPublished = (db: Db, userId: string) =>
  db.selectFrom('rating').where('user_id', '=', userId).where(published('galgame', 'rating.galgame_id'));

const contentOf = (db: Db, table: 'post' | 'article', userId: string) =>
  db
    .selectFrom(table)
    .where('user_id', '=', userId)
    .where('status', '=', 'published')
    .where('published_at', 'is not', null);

/** The number of rows a query lets through. */
async function countOf<TB extends keyof Database>(query: SelectQueryBuilder<Database, TB, object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Spec §7 GET /user/statistics/{id}. Follow counts are the member's row (kept equal to the follow rows in
 * every change, decision 020); the others are counted from the rows the space lists, so each count
 * equals its list's total.
 */
export async function userStatistics(db: Db, userId: number): Promise<UserStatistics> {
  const owner = await spaceOwner(db, userId);
  const [posts, articles, ratings, favorites, comments] = await Promise.all([
    countOf(contentOf(db, 'post', owner.id)),
    countOf(contentOf(db, 'article', owner.id)),
    countOf(ratingsOfPublished(db, owner.id)),
    countOf(visibleFavorites(db, owner.id)),
    countOf(db.selectFrom('comment').where('user_id', '=', owner.id).where('status', '=', 'visible')),
  ]);
  return {
    userId: owner.user_id,
    following: owner.following_count,
    followers: owner.follower_count,
    posts,
    articles,
    ratings,
    favorites,
    comments,
  };
}

/** A rating row with its game's card columns. */
function ratingRows(db: Db) {
  return db
    .selectFrom('rating as r')
    .innerJoin('galgame as g', 'g.id', 'r.galgame_id')
    .select([
      'r.id as rating_id',
      'r.score',
      'r.play_status',
      'r.text',
      'r.spoiler',
      'r.like_count as rating_likes',
      'r.created_at as rating_created_at',
      'r.updated_at as rating_updated_at',
      ...cardColumns,
    ])
    .where('g.status', '=', 'published');
}

type RatingJoinRow = Awaited<ReturnType<ReturnType<typeof ratingRows>['execute']>>[number];

function toSpaceRating(row: RatingJoinRow): SpaceRating {
  return {
    id: row.rating_id,
    score: row.score,
    status: row.play_status,
    // Spoilers stay in the text; the page hides them behind the same reveal the game page uses.
    text: row.text,
    spoiler: row.spoiler === 1,
    likeCount: row.rating_likes,
    createdAt: row.rating_created_at,
    updatedAt: row.rating_updated_at,
    galgame: toCard(row),
  };
}

/** A member's ratings of published games, most recently changed first, optionally of one play status. */
export async function userRatings(
  db: Db,
  userId: number,
  request: PageRequest & { status?: PlayStatus | undefined },
): Promise<SpaceRatingPage> {
  const owner = await listedOwner(db, userId);
  let rows = ratingRows(db).where('r.user_id', '=', owner.id);
  let count = ratingsOfPublished(db, owner.id);
  if (request.status) {
    rows = rows.where('r.play_status', '=', request.status);
    count = count.where('play_status', '=', request.status);
  }
  const { items, pagination } = await paginate(
    request,
    rows.orderBy('r.updated_at', 'desc').orderBy('r.id', 'desc'),
    count.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return { items: items.map(toSpaceRating), pagination };
}

/**
 * A member's activity, newest first: published posts and articles, ratings (when last changed),
 * favourites of visible items and follows. Like the community feed, each source gives its own first
 * `offset + limit` rows in time order, read from an index on (user, time), and the page is cut from
 * their UNION ALL; the rows of the page are then read by key.
 */
export async function userDynamic(deps: SpaceDeps, userId: number, request: PageRequest): Promise<DynamicPage> {
  const { db } = deps;
  const owner = await listedOwner(db, userId);
  const wanted = offsetOf(request) + request.limit;
  const lit = (kind: DynamicKind) => sql<DynamicKind>`${sql.lit(kind)}`.as('kind');
  const sources = [
    contentOf(db, 'post', owner.id)
      .select([lit('post'), 'id as key', sql<string>`published_at`.as('at')])
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(wanted),
    contentOf(db, 'article', owner.id)
      .select([lit('article'), 'id as key', sql<string>`published_at`.as('at')])
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(wanted),
    ratingsOfPublished(db, owner.id)
      .select([lit('rating'), 'id as key', 'updated_at as at'])
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(wanted),
    visibleFavorites(db, owner.id)
      .select([lit('favorite'), 'id as key', 'created_at as at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(wanted),
    db
      .selectFrom('user_follow as f')
      .innerJoin('users as u', 'u.id', 'f.followee_id')
      .where('f.follower_id', '=', owner.id)
      .select([lit('follow'), 'u.user_id as key', 'f.created_at as at'])
      .orderBy('f.created_at', 'desc')
      .orderBy('u.user_id', 'desc')
      .limit(wanted),
  ].map((source) => db.selectFrom(source.as('p')).selectAll());
  const [first, ...rest] = sources;
  const union = rest.reduce((all, part) => all.unionAll(part), first!);
  const merged = db
    .selectFrom(union.as('m'))
    .select(['m.kind', 'm.key', 'm.at'])
    .orderBy('m.at', 'desc')
    .orderBy('m.kind')
    .orderBy('m.key', 'desc');
  const [keys, totals] = await Promise.all([
    onPage(merged, request).execute(),
    Promise.all([
      countOf(contentOf(db, 'post', owner.id)),
      countOf(contentOf(db, 'article', owner.id)),
      countOf(ratingsOfPublished(db, owner.id)),
      countOf(visibleFavorites(db, owner.id)),
      Promise.resolve(owner.following_count),
    ]),
  ]);
  const items = await dynamicItems(
    deps,
    keys.map((row) => ({ kind: row.kind, key: Number(row.key), at: String(row.at) })),
  );
  return {
    items,
    pagination: pageInfo(
      request,
      totals.reduce((a, b) => a + b, 0),
    ),
  };
}

/** The entries of a feed page, in the keys' order. */
async function dynamicItems(
  deps: SpaceDeps,
  keys: readonly { kind: DynamicKind; key: number; at: string }[],
): Promise<DynamicItem[]> {
  const { db } = deps;
  const of = (kind: DynamicKind) => keys.filter((k) => k.kind === kind).map((k) => k.key);
  const [content, ratings, favorites, follows] = await Promise.all([
    feedItems(db, [
      ...of('post').map((id) => ({ type: 'post' as const, id })),
      ...of('article').map((id) => ({ type: 'article' as const, id })),
    ]),
    of('rating').length === 0 ? [] : ratingRows(db).where('r.id', 'in', of('rating')).execute(),
    of('favorite').length === 0
      ? []
      : db.selectFrom('favorite').select(['id', 'item_type', 'item_id']).where('id', 'in', of('favorite')).execute(),
    of('follow').length === 0
      ? []
      : db.selectFrom('users').select(['user_id', 'name', 'avatar']).where('user_id', 'in', of('follow')).execute(),
  ]);
  const favoriteTargets = new Map<string, { type: TargetType; id: number; title: string; url: string }>();
  const byType = new Map<TargetType, number[]>();
  for (const row of favorites) byType.set(row.item_type, [...(byType.get(row.item_type) ?? []), row.item_id]);
  for (const [type, ids] of byType) {
    for (const [id, info] of await deps.targets.find(db, type, ids, null)) {
      favoriteTargets.set(`${type}:${id}`, { type, id, title: info.title, url: info.url });
    }
  }
  const contentBy = new Map(content.map((item) => [`${item.type}:${item.id}`, item]));
  const ratingBy = new Map(ratings.map((row) => [row.rating_id, toSpaceRating(row)]));
  const favoriteBy = new Map(favorites.map((row) => [row.id, favoriteTargets.get(`${row.item_type}:${row.item_id}`)]));
  const followBy = new Map(
    follows.map((row) => [row.user_id, { userId: row.user_id, name: row.name, avatar: row.avatar }]),
  );
  return keys.flatMap((k): DynamicItem[] => {
    if (k.kind === 'post' || k.kind === 'article') {
      const item = contentBy.get(`${k.kind}:${k.key}`);
      return item ? [{ kind: k.kind, at: k.at, content: item }] : [];
    }
    if (k.kind === 'rating') {
      const rating = ratingBy.get(k.key);
      return rating ? [{ kind: 'rating', at: k.at, rating }] : [];
    }
    if (k.kind === 'favorite') {
      const item = favoriteBy.get(k.key);
      return item ? [{ kind: 'favorite', at: k.at, item }] : [];
    }
    const user = followBy.get(k.key);
    return user ? [{ kind: 'follow', at: k.at, user }] : [];
  });
}
