import type { GalgameCard, Pagination, RatingView } from '../catalogue-model.ts';
import type { FeedItem, UserBrief } from '../community/community-model.ts';
import type { TargetSummary } from '../targets.ts';

/** Spec §7 GET /user/statistics/{id}: a member's counts, each counted from its rows. */
export interface UserStatistics {
  userId: number;
  following: number;
  followers: number;
  /** Published posts and articles. */
  posts: number;
  articles: number;
  ratings: number;
  favorites: number;
  /** Visible comments. */
  comments: number;
}

/** One entry of a member's activity feed (the space's "dynamic" tab), newest first. */
export type DynamicItem =
  | { kind: 'post' | 'article'; at: string; content: FeedItem }
  | { kind: 'rating'; at: string; rating: SpaceRating }
  | { kind: 'favorite'; at: string; item: TargetSummary }
  | { kind: 'follow'; at: string; user: UserBrief };
export type DynamicKind = DynamicItem['kind'];

export interface DynamicPage {
  items: DynamicItem[];
  pagination: Pagination;
}

/** A member's rating of a game, with the game's card. */
export interface SpaceRating extends Omit<RatingView, 'galgameId' | 'user'> {
  galgame: GalgameCard;
}

export interface SpaceRatingPage {
  items: SpaceRating[];
  pagination: Pagination;
}

/** One of the caller's logins (a refresh-token family). */
export interface SessionEntry {
  id: string;
  /** When the login began. */
  createdAt: string;
  /** The last time it refreshed its access token (or began). */
  lastActiveAt: string;
  expiresAt: string;
  /** The login this request was made with. */
  current: boolean;
  /** What the login began in, read from its User-Agent; null when none was sent. */
  device: SessionDevice | null;
}

export interface SessionDevice {
  browser: string | null;
  os: string | null;
  type: 'desktop' | 'mobile' | 'tablet' | null;
}

export interface SessionList {
  items: SessionEntry[];
}

/** The space's list pages. */
export const SPACE_PAGE_DEFAULT = 10;
export const SPACE_PAGE_MAX = 50;
