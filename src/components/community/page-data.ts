import type { AstroCookies, AstroGlobal } from 'astro';
import { cachePage, pageTags } from '../../server/http/page-cache-policy.ts';
import type { AppContext } from '../../server/context.ts';
import { authenticate } from '../../server/modules/auth/sessions.service.ts';
import { feed } from '../../server/modules/community/feed.service.ts';
import { mergedInto, moderatorsOf } from '../../server/modules/community/sections.manage.ts';
import { listSections, listTopics } from '../../server/modules/community/topics.service.ts';
import { contentViewsOf } from '../../server/modules/community/view-counter.ts';
import { ACCESS_TOKEN_COOKIE, type UserGroup } from '../../shared/auth-model.ts';
import type { CommentPage } from '../../shared/comments/comments.ts';
import { firstComments, resolveEmoji, type FirstComments } from '../comments/first-comments.ts';
import {
  FRONT_LIST_SIZES,
  type ArticleDetail,
  type ContentType,
  type FollowTargetType,
  type PostDetail,
  type UserBrief,
  type WorkBrief,
} from '../../shared/community/community.ts';
import { orNotFound, parseRouteId } from '../galgame/galgame-routes.ts';
import {
  FEED_PAGE_SIZE,
  feedTags,
  lastPageRedirect,
  parseFeedView,
  sectionPath,
  topicPath,
} from './community-routes.ts';

/** Server-side helpers of the community pages that need more than the page's own data. */

/**
 * The member behind the access-token cookie, verified like the API verifies a bearer token (signature,
 * expiry, account, ended logins), or null. Only for a page that shows something private to that member
 * (their own draft): such a page is never cached, and nothing is decided from the user-info cookie.
 */
export async function verifiedViewer(
  app: Pick<AppContext, 'db' | 'config'>,
  cookies: AstroCookies,
): Promise<{ id: string; group: UserGroup } | null> {
  const token = cookies.get(ACCESS_TOKEN_COOKIE)?.value;
  if (!token) return null;
  try {
    const { user } = await authenticate({ db: app.db, secret: app.config.jwtSecret }, token);
    return { id: user.id, group: user.user_group };
  } catch {
    return null;
  }
}

/**
 * The page-cache tags of users shown by their public number (authors, commenters): user tags are keyed
 * by the account id, so a change of name or avatar drops the pages showing it.
 */
export async function userTagsOf(db: AppContext['db'], userIds: readonly number[]): Promise<string[]> {
  const wanted = [...new Set(userIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
  if (wanted.length === 0) return [];
  const rows = await db.selectFrom('users').select('id').where('user_id', 'in', wanted).execute();
  return rows.map((row) => pageTags.user(row.id));
}

/**
 * Which of these games are NSFW: a related work's card then shows a generated cover instead of the
 * image, whoever looks (the card carries no NSFW flag of its own, and visitors' pages are shared).
 */
export async function nsfwGameIds(db: AppContext['db'], ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('galgame')
    .select('id')
    .where('id', 'in', [...new Set(ids)])
    .where('nsfw', '=', 1)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Everyone a comment page shows: authors of the roots, of their first replies, and whom they answer. */
export function commentUserIds(page: CommentPage): number[] {
  return page.items.flatMap((thread) => [
    thread.author.userId,
    ...thread.replies.flatMap((reply) => [reply.author.userId, ...(reply.replyTo ? [reply.replyTo.userId] : [])]),
  ]);
}

/** The user tags of these people, shared like the data they belong to. */
export function sharedUserTags(app: Pick<AppContext, 'db' | 'reads'>, userIds: readonly number[]): Promise<string[]> {
  const ids = [...new Set(userIds)].filter((id) => id > 0).sort((a, b) => a - b);
  return app.reads.get(
    `users:tags:${ids.join(',')}`,
    () => userTagsOf(app.db, ids),
    (tags) => tags,
  );
}

/** A post or article with what its page shows beside it. */
export interface ContentPage<T> {
  item: T;
  /** The first page of comments; null while it is a draft. */
  comments: FirstComments | null;
  /** The emoji of the text (a post's), resolved for the server HTML (the comments carry their own). */
  textEmoji: Record<string, string>;
  /** The related games whose covers are hidden (NSFW). */
  hiddenCovers: Set<number>;
}

/**
 * Loads the page of a post or article, or null when the viewer may not see one. A published item is
 * the same for everyone: read through the shared cache, the page cached and each answer counted as a
 * view. A draft is shown only to its author and the moderators, on a private page that is never cached.
 */
export async function loadContentPage<T extends PostDetail | ArticleDetail>(
  astro: Pick<AstroGlobal, 'locals' | 'cookies' | 'response'>,
  type: ContentType,
  source: {
    /** The key of the published item in the shared reads. */
    cacheKey: string;
    load: (viewer: { id: string; group: UserGroup } | null) => Promise<T>;
    tags: (item: T) => string[];
    /** The works whose cards the page shows (default: the related works). */
    works?: (item: T) => readonly WorkBrief[];
    /** Texts with emoji markers the page shows (a post's text; an article's body is HTML already). */
    texts?: (item: T) => readonly string[];
  },
): Promise<ContentPage<T> | null> {
  const app = astro.locals.app;
  let item = await orNotFound(() => app.reads.get(source.cacheKey, () => source.load(null), source.tags));
  let privateView = false;
  if (!item) {
    const viewer = await verifiedViewer(app, astro.cookies);
    if (viewer) item = await orNotFound(() => source.load(viewer));
    if (!item) return null;
    privateView = true;
  }
  const { id } = item;
  const works = source.works?.(item) ?? item.works;
  const [comments, text, hiddenCovers] = await Promise.all([
    item.status === 'published' ? firstComments(app, type, id) : Promise.resolve(null),
    resolveEmoji(app, source.texts?.(item) ?? []),
    nsfwGameIds(
      app.db,
      works.filter((work) => work.type === 'galgame').map((work) => work.id),
    ),
  ]);

  if (privateView) {
    astro.response.headers.set('Cache-Control', 'private, no-store');
  } else {
    const userTags = await sharedUserTags(app, [
      item.author.userId,
      ...(comments ? commentUserIds(comments.page) : []),
    ]);
    const views = contentViewsOf(app);
    views.hit(type, id);
    const tags = [...source.tags(item), ...userTags, ...text.tags, ...(comments?.tags ?? [])];
    // Every answer from the cache is a view too. Members share a copy: their likes, favourites and
    // rights come from the islands.
    cachePage(astro.locals, { tags, onServe: () => views.hit(type, id), members: true });
  }
  return { item, comments, textEmoji: text.emoji, hiddenCovers };
}

/**
 * Loads the page of a section or topic, or null when there is none: the item, a page of its feed, all
 * sections and the active topics, everything read as a visitor sees it (whether a member follows is the
 * follow button's business). The page is cached unless it has to redirect to the feed's last page.
 */
export async function loadFollowTargetPage<T>(
  astro: Pick<AstroGlobal, 'locals' | 'params' | 'url'>,
  kind: FollowTargetType,
  load: (db: AppContext['db'], id: number) => Promise<T>,
  /** The tags of anything else the page shows (the people it names). */
  moreTags: readonly string[] = [],
) {
  const id = parseRouteId(astro.params.id);
  if (id === null) return null;
  const { db, reads } = astro.locals.app;
  const tag = kind === 'section' ? pageTags.section : pageTags.topic;
  const item = await orNotFound(() =>
    reads.get(
      `community:${kind}:${id}`,
      () => load(db, id),
      () => [tag(id)],
    ),
  );
  if (!item) return null;
  const view = parseFeedView(astro.url.searchParams);
  const path = kind === 'section' ? sectionPath(id) : topicPath(id);
  const [page, sections, topics] = await Promise.all([
    reads.get(
      `community:feed:${kind}:${id}:${view.sort}:${view.type}:${view.page}`,
      () => feed(db, { ...view, ...(kind === 'section' ? { sectionId: id } : { topicId: id }), limit: FEED_PAGE_SIZE }),
      (result) => [tag(id), ...feedTags(result.items)],
    ),
    reads.get(
      'community:sections',
      () => listSections(db, null),
      (list) => list.map((section) => pageTags.section(section.id)),
    ),
    reads.get(
      'community:topics:active',
      () => listTopics(db, { page: 1, limit: FRONT_LIST_SIZES.activeTopics, sort: 'active' }, null),
      (list) => [pageTags.community, ...list.items.map((topic) => pageTags.topic(topic.id))],
    ),
  ]);
  const redirect = lastPageRedirect(path, view, page.pagination);
  if (!redirect) {
    cachePage(astro.locals, {
      members: true,
      tags: () => [
        pageTags.community,
        tag(id),
        ...sections.map((section) => pageTags.section(section.id)),
        ...topics.items.map((topic) => pageTags.topic(topic.id)),
        ...feedTags(page.items),
        ...moreTags,
      ],
    });
  }
  return { id, item, view, path, page, sections, topics: topics.items, redirect };
}

/**
 * Where the address of a topic that no longer exists leads: a merged topic's page moves for good to
 * the topic it went into (through any later merges); null for any other missing id.
 */
export async function mergedTopicPath(db: AppContext['db'], rawId: string | undefined): Promise<string | null> {
  const id = parseRouteId(rawId);
  if (id === null) return null;
  const into = await mergedInto(db, id);
  return into === null ? null : topicPath(into);
}

/**
 * A section's moderators as its page shows them, read through the shared cache (dropped with the
 * section's tag when they change), with the tags of their accounts (a new name or avatar).
 */
export async function sectionModerators(
  app: Pick<AppContext, 'db' | 'reads'>,
  rawId: string | undefined,
): Promise<{ people: readonly UserBrief[]; tags: readonly string[] }> {
  const id = parseRouteId(rawId);
  if (id === null) return { people: [], tags: [] };
  const people = await app.reads.get(
    `community:section:${id}:moderators`,
    async () => (await moderatorsOf(app.db, [id])).get(id) ?? [],
    () => [pageTags.section(id)],
  );
  const tags = await sharedUserTags(
    app,
    people.map((person) => person.userId),
  );
  return { people, tags };
}
