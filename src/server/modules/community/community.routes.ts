import { communityContract } from '../../../shared/community/community.contract.ts';
import type { ArticleDetail, ContentType, PostDetail } from '../../../shared/community/community.ts';
import { DECIMAL_ID } from '../../../shared/input-rules.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pageTags, pagesChanged } from '../../http/page-cache-policy.ts';
import { HttpError } from '../../platform/errors.ts';
import type { UserRow } from '../users/users.tables.ts';
import { createArticle, deleteArticle, getArticleDetail, moderateArticle, updateArticle } from './articles.service.ts';
import type { ContentViewer } from './content.service.ts';
import { favoriteContentOf, feed, ownContent, userContent } from './feed.service.ts';
import { createPost, deletePost, getPostDetail, moderatePost, updatePost } from './posts.service.ts';
import { sectionsModeratedBy } from './sections.manage.ts';
import { follow, getSection, getTopic, listSections, listTopics, unfollow } from './topics.service.ts';
import { contentViewsOf } from './view-counter.ts';

/** The community API (docs/decisions/018-community.md); the services decide, these parse and answer. */
export function communityRoutes(ctx: AppContext) {
  const db = ctx.db;
  const views = contentViewsOf(ctx);
  const viewerOf = (user: UserRow): ContentViewer => ({ id: user.id, group: user.user_group });
  const maybeViewer = (user: UserRow | null): ContentViewer | null => (user ? viewerOf(user) : null);

  /** A published item changed: its page, the lists (community), its section's and topics' pages. */
  const itemChanged = async (type: ContentType, detail: PostDetail | ArticleDetail) => {
    if (detail.status !== 'published') return;
    await pagesChanged(ctx, [
      type === 'post' ? pageTags.post(detail.id) : pageTags.article(detail.id),
      pageTags.community,
      ...(detail.section ? [pageTags.section(detail.section.id)] : []),
      ...detail.topics.map((topic) => pageTags.topic(topic.id)),
    ]);
  };
  const itemDeleted = (type: ContentType, id: number) =>
    pagesChanged(ctx, [type === 'post' ? pageTags.post(id) : pageTags.article(id), pageTags.community]);

  /** The user whose favourites are asked for: `userId` (numeric or `_id`), else the caller (as /favorite/galgames). */
  const favoritesOwner = async (userId: string | undefined, caller: UserRow | null): Promise<string> => {
    if (userId) {
      const owner = DECIMAL_ID.test(userId)
        ? await db.selectFrom('users').select('id').where('user_id', '=', Number(userId)).executeTakeFirst()
        : await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      if (!owner) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
      return owner.id;
    }
    if (!caller) throw new HttpError(400, 'VALIDATION_FAILED', 'server.userRequired');
    return caller.id;
  };

  return contractRoutes(ctx, communityContract, {
    sections: async (_c, { user }) => ({ data: await listSections(db, user?.id ?? null) }),

    section: async (_c, { params, user }) => ({ data: await getSection(db, params.id, user?.id ?? null) }),

    topics: async (_c, { query, user }) => ({ data: await listTopics(db, query, user?.id ?? null) }),

    topic: async (_c, { params, user }) => ({ data: await getTopic(db, params.id, user?.id ?? null) }),

    follow: async (_c, { body, user }) => {
      const target = { type: body.targetType, id: body.targetId };
      const data = await follow(db, user.id, target);
      await pagesChanged(ctx, [target.type === 'section' ? pageTags.section(target.id) : pageTags.topic(target.id)]);
      return { data, message: 'server.community.followed' };
    },

    unfollow: async (_c, { params, user }) => {
      const target = { type: params.targetType, id: params.targetId };
      const data = await unfollow(db, user.id, target);
      await pagesChanged(ctx, [target.type === 'section' ? pageTags.section(target.id) : pageTags.topic(target.id)]);
      return { data, message: 'server.community.unfollowed' };
    },

    feed: async (_c, { query }) => ({ data: await feed(db, query) }),

    post: async (_c, { params, user }) => {
      const data = await getPostDetail(ctx, params.id, maybeViewer(user));
      if (data.status === 'published') views.hit('post', data.id);
      return { data };
    },

    createPost: async (_c, { body, user }) => {
      const data = await createPost(ctx, viewerOf(user), body);
      await itemChanged('post', data);
      return {
        data,
        status: 201,
        code: 'CREATED',
        message: body.publish ? 'server.community.postPublished' : 'server.community.draftSaved',
      };
    },

    updatePost: async (_c, { params, body, user }) => {
      const data = await updatePost(ctx, viewerOf(user), params.id, body);
      await itemChanged('post', data);
      return {
        data,
        message: data.status === 'published' ? 'server.community.postUpdated' : 'server.community.draftSaved',
      };
    },

    deletePost: async (_c, { params, user }) => {
      const data = await deletePost(ctx, viewerOf(user), params.id);
      await itemDeleted('post', params.id);
      return { data, message: 'server.community.postDeleted' };
    },

    moderatePost: async (_c, { params, body, user }) => {
      const data = await moderatePost(ctx, viewerOf(user), params.id, body);
      await itemChanged('post', data);
      return { data, message: 'server.community.moderated' };
    },

    article: async (_c, { params, user }) => {
      const data = await getArticleDetail(ctx, params.idOrSlug, maybeViewer(user));
      if (data.status === 'published') views.hit('article', data.id);
      return { data };
    },

    createArticle: async (_c, { body, user }) => {
      const data = await createArticle(ctx, viewerOf(user), body);
      await itemChanged('article', data);
      return {
        data,
        status: 201,
        code: 'CREATED',
        message: body.publish ? 'server.community.articlePublished' : 'server.community.draftSaved',
      };
    },

    updateArticle: async (_c, { params, body, user }) => {
      const data = await updateArticle(ctx, viewerOf(user), params.id, body);
      await itemChanged('article', data);
      return {
        data,
        message: data.status === 'published' ? 'server.community.articleUpdated' : 'server.community.draftSaved',
      };
    },

    deleteArticle: async (_c, { params, user }) => {
      const data = await deleteArticle(ctx, viewerOf(user), params.id);
      await itemDeleted('article', params.id);
      return { data, message: 'server.community.articleDeleted' };
    },

    moderateArticle: async (_c, { params, body, user }) => {
      const data = await moderateArticle(ctx, viewerOf(user), params.id, body);
      await itemChanged('article', data);
      return { data, message: 'server.community.moderated' };
    },

    userContent: async (_c, { query }) => ({
      data: await userContent(db, query.userId, { page: query.page, limit: query.pageSize, type: query.contentType }),
    }),

    drafts: async (_c, { query, user }) => ({
      data: await ownContent(db, user.id, 'draft', { page: query.page, limit: query.limit, type: query.type }),
    }),

    published: async (_c, { query, user }) => ({
      data: await ownContent(db, user.id, 'published', { page: query.page, limit: query.limit, type: query.type }),
    }),

    moderatedSections: async (_c, { user }) => ({ data: { sectionIds: await sectionsModeratedBy(db, user.id) } }),

    favoritePosts: async (_c, { query, user }) => ({
      data: await favoriteContentOf(db, await favoritesOwner(query.userId, user), 'post', {
        page: query.page,
        limit: query.limit,
        keyword: query.keyword || undefined,
      }),
    }),

    favoriteArticles: async (_c, { query, user }) => ({
      data: await favoriteContentOf(db, await favoritesOwner(query.userId, user), 'article', {
        page: query.page,
        limit: query.limit,
        keyword: query.keyword || undefined,
      }),
    }),
  });
}
