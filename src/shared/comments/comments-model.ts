import type { Pagination } from '../catalogue-model.ts';
import type { TargetSummary, TargetType } from '../targets.ts';

/**
 * Comments' values, limits and answer shapes (decision 018), without zod: islands and stores import
 * these; `comments.ts` adds the request schemas of `comments.contract.ts`.
 */

/** Longest comment, in characters after trimming. */
export const COMMENT_CONTENT_MAX = 1000;
/** Most `[img]` markers one comment may carry. */
export const COMMENT_IMAGES_MAX = 9;
/** Replies shown under each root in a list; the rest are read with GET /comments/:id/replies. */
export const COMMENT_PREVIEW_REPLIES = 3;
/** Page sizes: roots of a target, and replies of a root. */
export const COMMENT_PAGE_DEFAULT = 20;
export const COMMENT_REPLY_PAGE_DEFAULT = 10;
export const COMMENT_PAGE_MAX = 50;
/** Characters of a comment a link to it shows (the `comment` target's title). */
export const COMMENT_EXCERPT_LENGTH = 40;

/** `hot`: most liked, then most replied, then newest; `new`: newest first. */
export const COMMENT_SORTS = ['hot', 'new'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];

/** Hidden: by moderators (issue 18 §6), shown to its author and the editors only. */
export const COMMENT_STATUSES = ['visible', 'hidden', 'deleted'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** The user shown beside a comment (the same fields a rating shows of its author). */
export interface CommentAuthor {
  userId: number;
  name: string;
  avatar: string;
}

/** What the caller may do with one comment. */
export interface CommentViewerState {
  isLiked: boolean;
  /** The author, or a moderator. */
  canDelete: boolean;
  /** The target's owner, or a moderator; roots only. */
  canPin: boolean;
}

export interface CommentView {
  id: number;
  targetType: TargetType;
  targetId: number;
  /** null for a root; the root a reply belongs to. */
  rootId: number | null;
  /** null for a root; the comment a reply answers (its root or another reply of it). */
  parentId: number | null;
  author: CommentAuthor;
  /** null for a root; the author of the comment answered. */
  replyTo: CommentAuthor | null;
  /** '' once deleted. */
  content: string;
  /** A deleted root keeps its place while it has visible replies. */
  deleted: boolean;
  /** Hidden by moderators: only its author and the moderators read it, marked hidden. */
  hidden: boolean;
  likeCount: number;
  /** Roots: their visible replies; replies: 0. */
  replyCount: number;
  pinned: boolean;
  createdAt: string;
  viewer: CommentViewerState;
}

/** A root with its first COMMENT_PREVIEW_REPLIES replies, oldest first. */
export type CommentThread = CommentView & { replies: CommentView[] };

/** GET /comments: one page of roots; `total` counts the target's visible comments, replies included. */
export interface CommentPage {
  items: CommentThread[];
  pagination: Pagination;
  total: number;
}

/** GET /comments/:id/replies: one page of a root's replies, oldest first. */
export interface CommentReplyPage {
  items: CommentView[];
  pagination: Pagination;
}

/** GET /comments/:id/thread: the thread holding a comment, its replies the page holding it (deep links). */
export interface CommentInThread {
  thread: CommentThread;
}

/** A user's comment with what it is about (the user space). */
export type UserComment = CommentView & { target: TargetSummary };

export interface UserCommentPage {
  items: UserComment[];
  pagination: Pagination;
}
