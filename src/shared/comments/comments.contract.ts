import { as, endpoint } from '../contract.ts';
import {
  commentListQuerySchema,
  commentParamsSchema,
  commentRepliesQuerySchema,
  createCommentBodySchema,
  pinCommentBodySchema,
  type CommentInThread,
  type CommentPage,
  type CommentReplyPage,
  type CommentView,
} from './comments.ts';

/**
 * Comments on every target that keeps a comment count (decision 018). Reading is public (a login adds
 * `viewer.isLiked`); writing needs a login and is limited to 6 comments a minute and 300 a day.
 */
export const commentsContract = {
  list: endpoint({
    method: 'GET',
    path: '/comments',
    query: commentListQuerySchema,
    response: as<CommentPage>(),
    auth: 'optional',
    summary:
      "A target's root comments (`sort` hot or new), each with its first 3 replies; the pinned root first on page 1",
  }),
  replies: endpoint({
    method: 'GET',
    path: '/comments/:id/replies',
    params: commentParamsSchema,
    query: commentRepliesQuerySchema,
    response: as<CommentReplyPage>(),
    auth: 'optional',
    summary: "A root comment's replies, oldest first",
  }),
  thread: endpoint({
    method: 'GET',
    path: '/comments/:id/thread',
    params: commentParamsSchema,
    response: as<CommentInThread>(),
    auth: 'optional',
    summary:
      'The thread holding a visible comment: its root, with the page of replies holding it (links to one comment)',
  }),
  create: endpoint({
    method: 'POST',
    path: '/comments',
    body: createCommentBodySchema,
    response: as<CommentView>(),
    auth: 'required',
    summary: 'Comments on a target, or answers one of its comments (`parentId`: a root or a reply)',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/comments/:id',
    params: commentParamsSchema,
    response: as<{ deleted: true }>(),
    auth: 'required',
    summary: 'Deletes a comment (its author or a moderator); a root with replies stays as "deleted"',
  }),
  pin: endpoint({
    method: 'PUT',
    path: '/comments/:id/pin',
    params: commentParamsSchema,
    body: pinCommentBodySchema,
    response: as<CommentView>(),
    auth: 'required',
    summary: "Pins or unpins a root comment (the target's owner or a moderator); one pinned root per target",
  }),
} as const;
