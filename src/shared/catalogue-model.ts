/**
 * The Galgame catalogue contract without any validation library, so islands that only need values,
 * paths and types stay small. The request schemas live in catalogue.ts, which re-exports this file.
 */

export const GALGAME_STATUSES = ['draft', 'pending', 'published', 'rejected'] as const;
export type GalgameStatus = (typeof GALGAME_STATUSES)[number];

export const PLATFORMS = [
  'windows',
  'mac',
  'linux',
  'android',
  'ios',
  'switch',
  'ps4',
  'ps5',
  'psv',
  'web',
  'other',
] as const;
export type Platform = (typeof PLATFORMS)[number];

export const TRANSLATION_TYPES = ['official', 'fan', 'machine', 'ai', 'none'] as const;
export type TranslationType = (typeof TRANSLATION_TYPES)[number];

export const DOWNLOAD_LANGUAGES = ['zh-Hans', 'zh-Hant', 'ja', 'en'] as const;
export type DownloadLanguage = (typeof DOWNLOAD_LANGUAGES)[number];

export const PLAY_STATUSES = ['playing', 'completed', 'on_hold', 'dropped', 'plan'] as const;
export type PlayStatus = (typeof PLAY_STATUSES)[number];

export const PRODUCER_ROLES = ['developer', 'publisher'] as const;
export type ProducerRole = (typeof PRODUCER_ROLES)[number];
export const STAFF_ROLES = ['director', 'scenario', 'art', 'character_design', 'music', 'voice', 'other'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const CHARACTER_ROLES = ['main', 'supporting', 'appears'] as const;
export type CharacterRole = (typeof CHARACTER_ROLES)[number];
export const RELATIONS = ['sequel', 'prequel', 'fandisc', 'same_series', 'other'] as const;
export type Relation = (typeof RELATIONS)[number];

export const NSFW_FILTERS = ['all', 'safe', 'nsfw'] as const;
export const LIST_SORTS = ['date', 'rating', 'popularity'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** Longest rating text, in characters. */
export const RATING_TEXT_MAX = 2000;

/** Reports on one link after which it is marked suspect for everyone. */
export const SUSPECT_REPORTS = 3;
export const LIST_PAGE_SIZE = 24;
/**
 * How far a game list counts and pages: a count that reaches this says "more than" it, and pages end
 * after this many games (docs/decisions/011-fast-list-queries.md).
 */
export const LIST_COUNT_CAP = 10_000;

/** A game in lists and cards. */
export interface GalgameCard {
  id: number;
  title: string;
  titleZh: string;
  cover: string;
  nsfw: boolean;
  releaseDate: string | null;
  ratingAvg: number | null;
  ratingCount: number;
  viewCount: number;
  favoriteCount: number;
}

/**
 * A page of a list. `totalPages` counts the pages that can be opened: a game list ends after
 * LIST_COUNT_CAP games even when `total` is larger. `capped` is set when counting stopped early:
 * there are more than `total`.
 */
export interface Pagination {
  page: number;
  totalPages: number;
  limit: number;
  total: number;
  capped?: boolean;
}

export interface NamedLink {
  id: number;
  name: string;
  nameZh: string;
}

export interface GalgameTagView extends NamedLink {
  votes: number;
  spoiler: number;
}

export interface GalgamePrice {
  edition: string;
  currency: string;
  amount: number;
}

export interface GalgameDetail extends GalgameCard {
  aliases: string[];
  intro: string;
  images: string[];
  prices: GalgamePrice[];
  platforms: string[];
  status: GalgameStatus;
  /** How many ratings gave 1…10. */
  scoreHistogram: number[];
  producers: (NamedLink & { role: string; note: string })[];
  staff: (NamedLink & { role: string; note: string })[];
  characters: (NamedLink & { role: string; image: string; voice: NamedLink | null })[];
  tags: GalgameTagView[];
  related: (GalgameCard & { relation: string })[];
}

export interface DownloadLinkView {
  id: number;
  label: string;
  url: string;
  /** Only for logged-in viewers; null otherwise. */
  password: string | null;
  hasPassword: boolean;
  reportCount: number;
  suspect: boolean;
  reportedByMe: boolean;
}

export interface DownloadView {
  id: number;
  language: DownloadLanguage | string;
  platform: string;
  translationType: TranslationType | string;
  translationGroup: string;
  sizeBytes: number | null;
  note: string;
  links: DownloadLinkView[];
}

export const FAVORITE_ITEM_TYPES = ['galgame', 'lightnovel', 'post', 'article'] as const;
export type FavoriteItemType = (typeof FAVORITE_ITEM_TYPES)[number];

export interface RatingView {
  id: number;
  galgameId: number;
  score: number;
  status: PlayStatus;
  text: string;
  spoiler: boolean;
  likeCount: number;
  createdAt: string;
  updatedAt: string;
  user: { _id: string; userId: number; name: string; avatar: string };
}

export interface RatingSummary {
  ratingAvg: number | null;
  ratingCount: number;
  scoreHistogram: number[];
}
