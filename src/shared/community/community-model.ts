import type { JSONContent } from '@tiptap/core';
import type { UserGroup } from '../auth-model.ts';
import type { Pagination } from '../catalogue-model.ts';

/**
 * The community's values, limits and answer shapes (docs/decisions/018-community.md), without zod:
 * islands import these; `community.ts` adds the request schemas of `community.contract.ts`.
 */

export const CONTENT_TYPES = ['post', 'article'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/**
 * A draft may be incomplete; a published item is shown to everyone; a hidden one (moderators, issue 18
 * §6) to its author and the editors only, marked hidden; a deleted one to nobody.
 */
export const CONTENT_STATUSES = ['draft', 'published', 'hidden', 'deleted'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

export const FOLLOW_TARGET_TYPES = ['section', 'topic'] as const;
export type FollowTargetType = (typeof FOLLOW_TARGET_TYPES)[number];

/** Works a post or article can be about (`lightnovel` only once that target type is registered). */
export const WORK_TYPES = ['galgame', 'lightnovel'] as const;
export type WorkType = (typeof WORK_TYPES)[number];

export const FEED_TYPES = ['all', 'post', 'article'] as const;
export type FeedType = (typeof FEED_TYPES)[number];
/** `new`: newest first (pinned first inside a section); `hot`: see HOT_WINDOW_DAYS; `featured`: featured only. */
export const FEED_SORTS = ['new', 'hot', 'featured'] as const;
export type FeedSort = (typeof FEED_SORTS)[number];
/** `active`: most recently used first; `popular`: most followed first. */
export const TOPIC_SORTS = ['active', 'popular'] as const;
export type TopicSort = (typeof TOPIC_SORTS)[number];

/** Who deletes anyone's posts and articles and pins or features them. */
export const MODERATOR_GROUPS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];
export const isModerator = (group: UserGroup): boolean => MODERATOR_GROUPS.includes(group);

export const POST_TITLE_MAX = 100;
export const POST_CONTENT_MAX = 3000;
export const POST_IMAGES_MAX = 9;
export const ARTICLE_TITLE_MAX = 100;
export const ARTICLE_SUMMARY_MAX = 200;
export const ARTICLE_SLUG_MIN = 3;
export const ARTICLE_SLUG_MAX = 80;
/** Topics and related works of one post or article. */
export const CONTENT_TOPICS_MAX = 5;
export const CONTENT_WORKS_MAX = 5;
export const TOPIC_NAME_MAX = 20;
/** Plain-text excerpt of lists and cards, in characters. */
export const EXCERPT_MAX = 140;
/** Images a feed item shows (a post's first ones). */
export const FEED_IMAGES_MAX = 3;
/** Changes this long after publishing mark a post or article as edited (Discourse's grace period). */
export const EDIT_GRACE_MS = 5 * 60_000;
/** The hot sort puts items published in the last this many days first. */
export const HOT_WINDOW_DAYS = 7;
/** Weights of the hot sort: likes + 2 × comments + 2 × favourites. */
export const HOT_WEIGHTS = { like: 1, comment: 2, favorite: 2 } as const;
/** Largest page of every community list. */
export const COMMUNITY_PAGE_MAX = 50;
/** Highest page number a list accepts. */
export const COMMUNITY_PAGE_NUMBER_MAX = 10_000;

/** Per-user write limits (429 with Retry-After beyond them). */
export const COMMUNITY_RATE_LIMITS = {
  /** New posts and articles (drafts included). */
  create: { limit: 20, windowMs: 60 * 60_000 },
  /** Publishing a draft or a new item (edits of published items are saves). */
  publish: { limit: 10, windowMs: 60 * 60_000 },
  /** Every save, autosaves included. */
  save: { limit: 120, windowMs: 60_000 },
} as const;

/** Sizes of the community front page's lists. */
export const FRONT_LIST_SIZES = { hot: 8, latest: 10, featured: 6, activeTopics: 12 } as const;

/** Lower-case a–z, 0–9 and '-', starting with a letter or digit; not only digits (those are ids). */
export const ARTICLE_SLUG = /^[a-z0-9][a-z0-9-]*$/;
export const isArticleSlug = (value: string): boolean =>
  value.length >= ARTICLE_SLUG_MIN &&
  value.length <= ARTICLE_SLUG_MAX &&
  ARTICLE_SLUG.test(value) &&
  !/^\d+$/.test(value);

/**
 * The key that makes topic names unique: Unicode NFKC, lower case, without the characters that show
 * nothing ("ＧＡＬ", "gal" and "g\u200Bal" are one topic).
 */
export const topicKey = (name: string): string =>
  name
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .toLowerCase();

export const postPath = (id: number): string => `/community/post/${id}`;
/** An article's address: its slug when it has one, else its id (both find it). */
export const articlePath = (article: { id: number; slug: string | null }): string =>
  `/community/article/${article.slug ?? article.id}`;

// ── Answer shapes ─────────────────────────────────────────────────────────────────────────────────

/** A user shown beside what they wrote. */
export interface UserBrief {
  userId: number;
  name: string;
  avatar: string;
}

export interface SectionBrief {
  id: number;
  name: string;
  color: string;
  icon: string;
}

/**
 * A topic named by a post or article. In a draft, a name no topic has yet is shown with `id: 0` and
 * `color: ''`: the topic is created when the draft is published.
 */
export interface TopicBrief {
  id: number;
  name: string;
  color: string;
}

export interface WorkBrief {
  type: WorkType;
  id: number;
  title: string;
  cover: string;
  url: string;
}

export interface SectionView {
  id: number;
  name: string;
  description: string;
  /** A name from the icon sprite (src/shared/icons.ts). */
  icon: string;
  /** `#rrggbb`. */
  color: string;
  cover: string;
  sortOrder: number;
  followerCount: number;
  postCount: number;
  articleCount: number;
  /** Whether the caller follows it; absent for visitors. */
  isFollowing?: boolean;
}

export interface TopicView {
  id: number;
  name: string;
  description: string;
  icon: string;
  color: string;
  cover: string;
  followerCount: number;
  /** Published posts and articles tagged with it. */
  useCount: number;
  lastUsedAt: string | null;
  isFollowing?: boolean;
}

export interface FollowState {
  isFollowing: boolean;
  followerCount: number;
}

/** A published post or article in a feed or list. */
export interface FeedItem {
  type: ContentType;
  id: number;
  title: string;
  /** At most EXCERPT_MAX characters of plain text (markers removed). */
  excerpt: string;
  /** A post's first FEED_IMAGES_MAX images; an article's cover, or none. */
  images: string[];
  author: UserBrief;
  section: SectionBrief | null;
  topics: TopicBrief[];
  likeCount: number;
  commentCount: number;
  favoriteCount: number;
  viewCount: number;
  pinned: boolean;
  featured: boolean;
  isReview: boolean;
  publishedAt: string;
  editedAt: string | null;
  url: string;
}

/** The sections a member moderates, by id, in order (none for most members; staff moderate everywhere). */
export interface ModeratedSections {
  sectionIds: number[];
}

/** What the viewer may do with a post or article they are looking at. */
export interface ContentViewerState {
  isLiked: boolean;
  isFavorited: boolean;
  /** The author, while it is not deleted. */
  canEdit: boolean;
  /** Moderators: delete, pin, feature. */
  canModerate: boolean;
}

interface ContentDetailBase {
  id: number;
  title: string;
  status: ContentStatus;
  section: SectionBrief | null;
  topics: TopicBrief[];
  works: WorkBrief[];
  author: UserBrief;
  likeCount: number;
  commentCount: number;
  favoriteCount: number;
  viewCount: number;
  pinned: boolean;
  featured: boolean;
  /** Send it back with the next save; a save from another version answers 409 CONTENT_CONFLICT. */
  version: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** Set when a published item was changed more than EDIT_GRACE_MS after publishing. */
  editedAt: string | null;
  viewer: ContentViewerState;
}

export interface PostDetail extends ContentDetailBase {
  /** Text with `[emoji:…]` and `[img]…[/img]` markers (comment-markers.ts). */
  content: string;
  images: string[];
}

export interface ArticleRatingBrief {
  id: number;
  score: number;
  status: string;
}

export interface ArticleDetail extends ContentDetailBase {
  slug: string | null;
  cover: string;
  /** As the author wrote it ('' when left empty; lists then show the start of the text). */
  summary: string;
  /** The Tiptap document, for the editor. */
  body: JSONContent;
  /** The document rendered on the server and sanitised: shown as it is. */
  bodyHtml: string;
  isReview: boolean;
  reviewWork: WorkBrief | null;
  /** The author's rating of the reviewed work; null when it is not a review or the rating was removed. */
  rating: ArticleRatingBrief | null;
}

/** A post or article in a user's lists (their content, drafts, published). */
export interface ContentListItem {
  type: ContentType;
  id: number;
  title: string;
  excerpt: string;
  status: ContentStatus;
  /** The first image or the cover, or ''. */
  cover: string;
  section: SectionBrief | null;
  likeCount: number;
  commentCount: number;
  updatedAt: string;
  publishedAt: string | null;
  url: string;
}

export interface CommunityPage<T> {
  items: T[];
  pagination: Pagination;
}

/** The data of /community (announcements come from the announcement module). */
export interface CommunityFront {
  sections: SectionView[];
  hot: FeedItem[];
  latest: FeedItem[];
  featured: FeedItem[];
  activeTopics: TopicView[];
}
