import type { GalgameCard, Pagination } from '../catalogue-model.ts';
import type { LightnovelCard } from '../lightnovel/lightnovel.ts';

/** What `/search` can look for (spec §7 Search): one tab each on the search page. */
export const SEARCH_TYPES = ['galgame', 'novel', 'producer', 'person'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** relative_match's default per type (spec §7): works match in part, producers and people by whole name. */
export const RELATIVE_MATCH_DEFAULT: Record<SearchType, boolean> = {
  galgame: true,
  novel: true,
  producer: false,
  person: false,
};

/** Longest keyword, in characters (a longer one is refused, not cut). */
export const SEARCH_KEYWORD_MAX = 100;
export const SEARCH_PAGE_DEFAULT = 20;
export const SEARCH_PAGE_MAX = 50;
/** The last page a search can open: deeper pages are never what a reader wants. */
export const SEARCH_PAGE_LIMIT = 50;
/** Results are counted up to this many (shown as "1000+"): more than the pages that open. */
export const SEARCH_COUNT_CAP = 1000;

/** Spec §9: the header's history, trending and suggestion constants. */
export const SEARCH_HISTORY_KEY = 'searchHistory';
export const SEARCH_HISTORY_MAX = 10;
export const SEARCH_TRENDING_KEY = 'searchTrending';
export const SEARCH_TRENDING_LIMIT = 20;
export const SEARCH_TRENDING_CACHE_MS = 60 * 60 * 1000;
export const SEARCH_SUGGEST_DEBOUNCE_MS = 200;
export const SEARCH_SUGGEST_DEFAULT = 10;
export const SEARCH_SUGGEST_MAX = 20;
export const SEARCH_PREFIX_MAX = 50;
/** How many trending items the dropdown colours (spec §2.3: the top six have distinct colours). */
export const SEARCH_TRENDING_COLOURED = 6;

/** The sliding windows trending counts over: the last hour, day or week. */
export const TRENDING_WINDOWS = ['1h', '24h', '7d'] as const;
export type TrendingWindow = (typeof TRENDING_WINDOWS)[number];
export const TRENDING_WINDOW_DEFAULT: TrendingWindow = '24h';

/** Which name of a result matched, with the matched parts as [start, end) UTF-16 offsets into `text`. */
export interface MatchedName {
  text: string;
  field: 'title' | 'titleZh' | 'alias' | 'name' | 'nameZh';
  ranges: [number, number][];
}

/** A producer, person or character in the results. */
export interface SearchEntityCard {
  kind: 'producer' | 'person' | 'character';
  id: number;
  name: string;
  nameZh: string;
  image: string;
  /** How many published works (games, light novels) it is linked with. */
  works: number;
}

export type SearchHit =
  | { type: 'galgame'; galgame: GalgameCard; matched: MatchedName }
  | { type: 'novel'; lightnovel: LightnovelCard; matched: MatchedName }
  | { type: 'producer' | 'person'; entity: SearchEntityCard; matched: MatchedName };

export interface SearchResultPage {
  /** The keyword as searched (trimmed). */
  keyword: string;
  type: SearchType;
  relativeMatch: boolean;
  items: SearchHit[];
  pagination: Pagination;
  /** How many results each type has for the keyword, each with its own default matching. */
  counts: Record<SearchType, number>;
  /** Types whose count stopped at its value (SEARCH_COUNT_CAP): there are more. */
  countsCapped: SearchType[];
  /** Only when nothing matched: the nearest keywords that do find something. */
  suggestions: string[];
}

/** Spec §3 "Search suggestion". */
export interface SearchSuggestion {
  keyword: string;
}

/** One entry of 'Everyone is searching'. */
export interface TrendingItem {
  keyword: string;
  /** Distinct searchers in the window. */
  count: number;
}

/** Spec §3: the trending list as kept in local storage under `searchTrending`. */
export interface TrendingCache {
  items: TrendingItem[];
  createdAt: number;
}

/** Spec §3: one search history entry, as kept in local storage under `searchHistory`. */
export interface SearchHistoryEntry {
  keyword: string;
  createdAt: number;
}
