import type { Pagination } from '../catalogue-model.ts';

/**
 * Likes' and reports' values, limits and answer shapes (decision 018), without zod: islands and stores
 * import these; `reactions.ts` adds the request schemas of `reactions.contract.ts`.
 */

/** What can be liked: the targets that keep a like count. */
export const LIKE_TARGET_TYPES = ['post', 'article', 'comment', 'rating'] as const;
export type LikeTargetType = (typeof LIKE_TARGET_TYPES)[number];

/** Most ids one GET /likes/check asks about. */
export const LIKE_CHECK_MAX = 100;

/** What can be reported. */
export const REPORT_TARGET_TYPES = ['post', 'article', 'comment'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASONS = ['spam', 'abuse', 'nsfw', 'spoiler', 'illegal', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Longest report text, in characters. */
export const REPORT_TEXT_MAX = 500;
/** Reports one member may send a day. */
export const REPORTS_PER_DAY = 20;

/** The caller's like of one item, and its like count after the call. */
export interface LikeState {
  isLiked: boolean;
  likeCount: number;
}

/** GET /likes/check: which of the asked ids the caller has liked. */
export interface LikeCheck {
  liked: number[];
}

/** POST /reports answer. */
export interface ReportCreated {
  id: number;
  status: 'open';
}

/** One report as the moderation queue lists it. */
export interface ReportView {
  id: number;
  targetType: ReportTargetType;
  targetId: number;
  reason: ReportReason;
  text: string;
  status: ReportStatus;
  createdAt: string;
  reporter: { userId: number; name: string; avatar: string };
  resolvedBy: { userId: number; name: string } | null;
  resolvedAt: string | null;
}

export interface ReportPage {
  items: ReportView[];
  pagination: Pagination;
}
