import { z } from 'zod';
import { parseMarkers } from '../comment-markers.ts';
import { messageRef } from '../i18n/index.ts';
import { bodyId, decimalId, queryInt, safeText } from '../input-rules.ts';
import { TARGET_TYPES } from '../targets.ts';

/**
 * Comments (decision 018): two levels on every target that keeps a comment count (games, people,
 * characters, producers, posts, articles…). A root comment answers the target; a reply belongs to one
 * root and names whom it answers (`replyTo`). Text is plain text with the `[emoji:…]` and `[img]…[/img]`
 * markers of comment-markers.ts; images of our image bed are uploaded with `type: 'comment'` and the
 * author's userId as `id` (POST /api/upload) before the comment is sent.
 */
import {
  COMMENT_CONTENT_MAX,
  COMMENT_IMAGES_MAX,
  COMMENT_PAGE_DEFAULT,
  COMMENT_REPLY_PAGE_DEFAULT,
  COMMENT_PAGE_MAX,
  COMMENT_SORTS,
} from './comments-model.ts';

export * from './comments-model.ts';

const targetType = z.enum(TARGET_TYPES, { error: 'comments.validation.targetType' });
const page = queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1);
const pageSize = (fallback: number) =>
  queryInt({ min: 1, max: COMMENT_PAGE_MAX, label: 'validation.label.pageSize' }).default(fallback);

/** GET /api/comments query. */
export const commentListQuerySchema = z.object({
  targetType,
  targetId: decimalId('comments.label.target'),
  sort: z.enum(COMMENT_SORTS, { error: 'comments.validation.sort' }).default('hot'),
  page,
  limit: pageSize(COMMENT_PAGE_DEFAULT),
});
export type CommentListQuery = z.infer<typeof commentListQuerySchema>;

/** GET /api/comments/{id}/replies query. */
export const commentRepliesQuerySchema = z.object({ page, limit: pageSize(COMMENT_REPLY_PAGE_DEFAULT) });

/** {id} of /api/comments/{id}…. */
export const commentParamsSchema = z.object({ id: decimalId('comments.label.comment') });

/**
 * A comment's text: trimmed, line breaks kept (as \n), 1–COMMENT_CONTENT_MAX characters showing something
 * (visible-text.ts), no control characters, at most COMMENT_IMAGES_MAX images.
 */
export const commentContentSchema = safeText({
  kind: 'multiline',
  max: COMMENT_CONTENT_MAX,
  min: 1,
  label: 'comments.label.content',
}).refine((text) => parseMarkers(text).filter((token) => token.type === 'image').length <= COMMENT_IMAGES_MAX, {
  error: messageRef('comments.validation.tooManyImages', { max: COMMENT_IMAGES_MAX }),
});

/** POST /api/comments body: `parentId` answers a comment of the same target (a root or one of its replies). */
export const createCommentBodySchema = z.object({
  targetType,
  targetId: bodyId('comments.label.target'),
  content: commentContentSchema,
  parentId: bodyId('comments.label.parent').optional(),
});
export type CreateCommentBody = z.infer<typeof createCommentBodySchema>;

/** PUT /api/comments/{id}/pin body. */
export const pinCommentBodySchema = z.object({
  pinned: z.boolean({ error: 'comments.validation.pinned' }),
});
