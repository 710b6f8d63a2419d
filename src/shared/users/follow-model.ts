import type { Pagination } from '../catalogue.ts';

/** Spec §7 POST /user/follow and /user/follow/status: whether the caller follows the member now. */
export interface FollowStatus {
  isFollowing: boolean;
  /** The followed member's follower count after the change. */
  followerCount: number;
}

/** A member in a following or followers list, newest follow first. */
export interface FollowEntry {
  userId: number;
  name: string;
  avatar: string;
  signature: string;
  followerCount: number;
  followingCount: number;
  /** When the follow began. */
  followedAt: string;
}

export interface FollowPage {
  items: FollowEntry[];
  pagination: Pagination;
}

/** Spec §7 lists: page and limit. */
export const FOLLOW_PAGE_DEFAULT = 20;
export const FOLLOW_PAGE_MAX = 50;
