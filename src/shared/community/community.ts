import type { JSONContent } from '@tiptap/core';
import { z } from 'zod';
import { IMAGE_URL_MAX } from '../auth-model.ts';
import { messageRef, type MessageKey, type MessageRef } from '../i18n/index.ts';
import {
  bodyId,
  bodyInt,
  decimalId,
  isRowId,
  queryInt,
  ROW_ID_MAX,
  safeText,
  unsafeTextReason,
} from '../input-rules.ts';
import { userIdField } from '../users/users.contract.ts';
import { showsNothing } from '../visible-text.ts';

/**
 * The community (docs/decisions/018-community.md): sections, topics, posts, articles and follows. Values,
 * limits, answer shapes and the request schemas of `community.contract.ts`, shared by the editors, the
 * pages and the server.
 */

import {
  CONTENT_TYPES,
  FOLLOW_TARGET_TYPES,
  WORK_TYPES,
  FEED_TYPES,
  FEED_SORTS,
  TOPIC_SORTS,
  POST_TITLE_MAX,
  POST_CONTENT_MAX,
  POST_IMAGES_MAX,
  ARTICLE_TITLE_MAX,
  ARTICLE_SUMMARY_MAX,
  ARTICLE_SLUG_MIN,
  ARTICLE_SLUG_MAX,
  CONTENT_TOPICS_MAX,
  CONTENT_WORKS_MAX,
  TOPIC_NAME_MAX,
  COMMUNITY_PAGE_MAX,
  COMMUNITY_PAGE_NUMBER_MAX,
  isArticleSlug,
  topicKey,
} from './community-model.ts';

export * from './community-model.ts';

// ── Request schemas ───────────────────────────────────────────────────────────────────────────────

const L = {
  title: 'server.community.label.title',
  content: 'server.community.label.content',
  image: 'server.community.label.image',
  section: 'server.community.label.section',
  topic: 'server.community.label.topic',
  work: 'server.community.label.work',
  slug: 'server.community.label.slug',
  cover: 'server.community.label.cover',
  summary: 'server.community.label.summary',
  version: 'server.community.label.version',
  target: 'server.community.label.followTarget',
  user: 'server.community.label.user',
  contentId: 'server.community.label.contentId',
} as const satisfies Record<string, MessageKey>;

const booleanField = (label: MessageKey) => z.boolean({ error: messageRef('server.community.boolean', { label }) });

/** An image address: http(s), at most IMAGE_URL_MAX characters (whether it is ours is checked on the server). */
function imageUrlField(label: MessageKey) {
  return safeText({ max: IMAGE_URL_MAX, label }).refine((url) => url === '' || isHttpUrl(url), {
    error: messageRef('server.community.imageUrl', { label }),
  });
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /[\s"'<>\\]/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A topic name: trimmed and NFKC-normalised, 1–TOPIC_NAME_MAX characters on one line, no '#' (names are
 * written as #name elsewhere).
 */
export const topicNameField = z
  .string({ error: messageRef('validation.text.notText', { label: L.topic }) })
  .transform((raw, ctx) => {
    const value = raw.normalize('NFKC').trim();
    const refuse = (message: MessageRef) => {
      ctx.addIssue({ code: 'custom', message, input: raw });
      return z.NEVER;
    };
    if (value === '') return refuse(messageRef('validation.text.required', { label: L.topic }));
    // A name of zero-width characters or fillers would be a topic nobody can see.
    if (showsNothing(value)) return refuse(messageRef('validation.text.invisible', { label: L.topic }));
    const unsafe = unsafeTextReason(value, 'line');
    if (unsafe) return refuse(messageRef(unsafe, { label: L.topic }));
    if (value.length > TOPIC_NAME_MAX)
      return refuse(messageRef('validation.text.tooLong', { label: L.topic, max: TOPIC_NAME_MAX }));
    if (value.includes('#')) return refuse('server.community.topicHash');
    return value;
  });

/** Topic names, each once (by topicKey), in the order given. */
const topicsField = z
  .array(topicNameField, { error: 'server.community.topicsList' })
  .max(CONTENT_TOPICS_MAX, { error: messageRef('server.community.tooManyTopics', { max: CONTENT_TOPICS_MAX }) })
  .transform((names) => names.filter((name, i) => names.findIndex((n) => topicKey(n) === topicKey(name)) === i))
  .default([]);

export const workRefSchema = z.object(
  {
    type: z.enum(WORK_TYPES, { error: 'server.community.workType' }),
    id: bodyId(L.work),
  },
  { error: 'server.community.workRef' },
);
export type WorkRef = z.infer<typeof workRefSchema>;

/** Related works, each once, in the order given. */
const worksField = z
  .array(workRefSchema, { error: 'server.community.worksList' })
  .max(CONTENT_WORKS_MAX, { error: messageRef('server.community.tooManyWorks', { max: CONTENT_WORKS_MAX }) })
  .transform((works) => works.filter((w, i) => works.findIndex((o) => o.type === w.type && o.id === w.id) === i))
  .default([]);

const sectionIdField = bodyId(L.section).nullable().default(null);

/** What the post editor sends (drafts may leave the title and section empty; publishing checks them). */
export const postInputSchema = z.object({
  title: safeText({ max: POST_TITLE_MAX, label: L.title }).default(''),
  content: safeText({ kind: 'multiline', max: POST_CONTENT_MAX, label: L.content }).default(''),
  images: z
    .array(
      imageUrlField(L.image).refine((url) => url !== '', { error: 'server.community.imageEmpty' }),
      {
        error: 'server.community.imagesList',
      },
    )
    .max(POST_IMAGES_MAX, { error: messageRef('server.community.tooManyImages', { max: POST_IMAGES_MAX }) })
    .default([]),
  sectionId: sectionIdField,
  topics: topicsField,
  works: worksField,
});
export type PostInput = z.infer<typeof postInputSchema>;

const publishField = booleanField('server.community.label.publish').default(false);
const versionField = bodyInt({ min: 1, max: Number.MAX_SAFE_INTEGER, label: L.version });

/** POST /api/community/posts body. */
export const createPostBodySchema = postInputSchema.extend({ publish: publishField });
export type CreatePostBody = z.input<typeof createPostBodySchema>;
/** PUT /api/community/posts/{id} body: the version the editor started from. */
export const updatePostBodySchema = createPostBodySchema.extend({ version: versionField });
export type UpdatePostBody = z.input<typeof updatePostBodySchema>;

/** A slug, or '' / null for none. */
const slugField = z
  .union([z.string({ error: 'server.community.slugFormat' }), z.null()], { error: 'server.community.slugFormat' })
  .transform((raw, ctx) => {
    const value = (raw ?? '').trim();
    if (value === '') return null;
    if (!isArticleSlug(value)) {
      ctx.addIssue({
        code: 'custom',
        message: messageRef('server.community.slugFormat', { min: ARTICLE_SLUG_MIN, max: ARTICLE_SLUG_MAX }),
        input: raw,
      });
      return z.NEVER;
    }
    return value;
  })
  .default(null);

/** A Tiptap document: checked in full (schema, size) when it is rendered on the server. */
export const articleDocField = z
  .looseObject({ type: z.literal('doc', { error: 'server.community.bodyDoc' }) }, { error: 'server.community.bodyDoc' })
  .transform((doc) => doc as JSONContent);

/** What the article editor sends. */
export const articleInputSchema = z.object({
  title: safeText({ max: ARTICLE_TITLE_MAX, label: L.title }).default(''),
  slug: slugField,
  cover: imageUrlField(L.cover).default(''),
  summary: safeText({ max: ARTICLE_SUMMARY_MAX, label: L.summary }).default(''),
  body: articleDocField.default({ type: 'doc', content: [] }),
  sectionId: sectionIdField,
  topics: topicsField,
  works: worksField,
  isReview: booleanField('server.community.label.isReview').default(false),
  reviewWork: workRefSchema.nullable().default(null),
});
export type ArticleInput = z.infer<typeof articleInputSchema>;

/** POST /api/community/articles body. */
export const createArticleBodySchema = articleInputSchema.extend({ publish: publishField });
export type CreateArticleBody = z.input<typeof createArticleBodySchema>;
/** PUT /api/community/articles/{id} body. */
export const updateArticleBodySchema = createArticleBodySchema.extend({ version: versionField });
export type UpdateArticleBody = z.input<typeof updateArticleBodySchema>;

/** PUT …/moderation body: at least one of the two. */
export const moderationBodySchema = z
  .object({
    pinned: booleanField('server.community.label.pinned').optional(),
    featured: booleanField('server.community.label.featured').optional(),
  })
  .refine((body) => body.pinned !== undefined || body.featured !== undefined, {
    error: 'server.community.moderationRequired',
  });
export type ModerationBody = z.infer<typeof moderationBodySchema>;

const followType = z.enum(FOLLOW_TARGET_TYPES, { error: 'server.community.followType' });

/** POST /api/community/follow body. */
export const followBodySchema = z.object({ targetType: followType, targetId: bodyId(L.target) });
/** DELETE /api/community/follow/{targetType}/{targetId}. */
export const followParamsSchema = z.object({ targetType: followType, targetId: decimalId(L.target) });

export const contentIdParams = z.object({ id: decimalId(L.contentId) });

/** GET /api/community/articles/{idOrSlug}: a decimal id or a slug. */
export const articleKeyParams = z.object({
  idOrSlug: z
    .string({ error: 'server.community.articleKey' })
    .refine((value) => isRowId(value) || isArticleSlug(value), {
      error: 'server.community.articleKey',
    })
    .transform((value) => (/^\d+$/.test(value) ? { id: Number(value) } : { slug: value })),
});

const page = queryInt({ min: 1, max: COMMUNITY_PAGE_NUMBER_MAX, label: 'validation.label.page' }).default(1);
const limit = (fallback: number) =>
  queryInt({ min: 1, max: COMMUNITY_PAGE_MAX, label: 'validation.label.pageSize' }).default(fallback);
const optionalId = (label: MessageKey) =>
  z.union([decimalId(label), z.number().int().positive().max(ROW_ID_MAX)]).optional();

/** GET /api/community/topics query. */
export const topicsQuerySchema = z.object({
  keyword: safeText({ max: TOPIC_NAME_MAX, label: 'validation.label.keyword' }).optional(),
  sort: z.enum(TOPIC_SORTS, { error: 'server.community.topicSort' }).default('active'),
  page,
  limit: limit(20),
});
export type TopicsQuery = z.infer<typeof topicsQuerySchema>;

/** GET /api/community/feed query. */
export const feedQuerySchema = z.object({
  sectionId: optionalId(L.section),
  topicId: optionalId(L.topic),
  type: z.enum(FEED_TYPES, { error: 'server.community.feedType' }).default('all'),
  sort: z.enum(FEED_SORTS, { error: 'server.community.feedSort' }).default('new'),
  page,
  limit: limit(20),
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;

const contentTypeField = z.enum(CONTENT_TYPES, { error: 'server.community.contentType' });

/** GET /api/user/content query (spec §7): a user's published posts and articles. */
export const userContentQuerySchema = z.object({
  userId: z.union([decimalId(L.user), z.number().int().positive().max(ROW_ID_MAX)], {
    error: messageRef('validation.bodyId.missing', { label: L.user }),
  }),
  page,
  pageSize: limit(10),
  // The spec leaves it out for both; 'all' is read the same way.
  contentType: z
    .enum([...CONTENT_TYPES, 'all'], { error: 'server.community.contentType' })
    .optional()
    .transform((value) => (value === 'all' ? undefined : value)),
});
export type UserContentQuery = z.infer<typeof userContentQuerySchema>;

/** GET /api/user/drafts and /api/user/published query. */
export const ownContentQuerySchema = z.object({ page, limit: limit(10), type: contentTypeField.optional() });
export type OwnContentQuery = z.infer<typeof ownContentQuerySchema>;

/** GET /api/favorite/posts and /api/favorite/articles query (as /favorite/galgames). */
export const favoriteContentQuerySchema = z.object({
  page,
  limit: queryInt({ min: 1, max: 100, label: 'validation.label.pageSize' }).default(20),
  userId: userIdField.optional(),
  keyword: safeText({ max: 100, label: 'validation.label.keyword' }).optional(),
});
export type FavoriteContentQuery = z.infer<typeof favoriteContentQuerySchema>;
