import type { Pagination } from '../catalogue.ts';
import type { TargetType } from '../targets.ts';

/**
 * Notifications (issue 13 item 4, decision 021): what happened to a member's things, newest first.
 * Likes and follows are grouped while unread ("A and 3 others liked your post"); comments, replies,
 * moderation decisions and announcements are one each.
 */
export const NOTIFICATION_KINDS = [
  'reply',
  'comment',
  'like',
  'follow',
  'moderation',
  'announcement',
  'review',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What a moderator did to the member's post, article or comment (hide and restore: issue 18 §6). */
export type ModerationAction = 'pin' | 'feature' | 'delete' | 'hide' | 'restore';

/** What staff decided about the member's update request or creator application (kind 'review'). */
export const REVIEW_ACTIONS = [
  'request_approved',
  'request_rejected',
  'request_changes',
  'application_approved',
  'application_rejected',
] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export const isReviewAction = (value: unknown): value is ReviewAction =>
  typeof value === 'string' && (REVIEW_ACTIONS as readonly string[]).includes(value);

/** A member named in a notification. */
export interface NotificationActor {
  userId: number;
  name: string;
  avatar: string;
}

export interface NotificationView {
  _id: string;
  kind: NotificationKind;
  /** The latest actors, newest first (at most NOTIFICATION_ACTORS_SHOWN); empty for announcements. */
  actors: NotificationActor[];
  /** How many members acted (a group of likes or follows); 1 for the one-off kinds, 0 for announcements. */
  actorCount: number;
  /** What was liked, commented on, moderated (null for follows and announcements). */
  target: { type: TargetType; id: number; title: string } | null;
  /** The comment or reply itself (comment and reply kinds). */
  commentId: number | null;
  action: ModerationAction | ReviewAction | null;
  /** A short line of the comment, the removed item's title, the reviewed item's title, or the announcement's title. */
  excerpt: string;
  /** Why staff refused or sent back the member's request or application (review kind only). */
  reason?: string;
  /** The comment or reply it is about was deleted or hidden since: no text, no link, left out of digests. */
  gone: boolean;
  /** Where the notification leads (the exact comment, the item, the follower's space); null when gone. */
  url: string | null;
  isRead: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface NotificationPage {
  items: NotificationView[];
  pagination: Pagination;
  unreadCount: number;
}

/** Spec §7 GET /user/unread (v2). */
export interface UnreadSummary {
  unreadCount: number;
}

/** The bell's counts: unread notifications, and unread private messages across the member's conversations. */
export interface BellCounts extends UnreadSummary {
  privateUnread: number;
}

export const NOTIFICATION_PAGE_DEFAULT = 20;
export const NOTIFICATION_PAGE_MAX = 50;
export const NOTIFICATION_ACTORS_SHOWN = 3;
/** Spec §9: the bell's badge shows at most this, then "99+". */
export const UNREAD_BADGE_CAP = 99;
