import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { queryInt, safeText } from '../input-rules.ts';
import {
  SEARCH_KEYWORD_MAX,
  SEARCH_PAGE_DEFAULT,
  SEARCH_PAGE_LIMIT,
  SEARCH_PAGE_MAX,
  SEARCH_PREFIX_MAX,
  SEARCH_SUGGEST_DEFAULT,
  SEARCH_SUGGEST_MAX,
  SEARCH_TRENDING_LIMIT,
  SEARCH_TYPES,
  TRENDING_WINDOW_DEFAULT,
  TRENDING_WINDOWS,
  type SearchResultPage,
  type SearchSuggestion,
  type TrendingItem,
} from './search-model.ts';

/** A keyword: trimmed, one line, not blank, at most SEARCH_KEYWORD_MAX characters. */
const keyword = (max: number, label: 'search.validation.keyword' | 'search.validation.prefix') =>
  safeText({ max, label }).refine((value) => value.length > 0, { error: messageRef('search.validation.blank') });

export const searchQuerySchema = z.object({
  keyword: keyword(SEARCH_KEYWORD_MAX, 'search.validation.keyword'),
  page: queryInt({ min: 1, max: SEARCH_PAGE_LIMIT, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: SEARCH_PAGE_MAX, label: 'validation.label.pageSize' }).default(SEARCH_PAGE_DEFAULT),
  relative_match: z
    .enum(['true', 'false'], { error: messageRef('search.validation.relativeMatch') })
    .transform((value) => value === 'true')
    .optional(),
  type: z.enum(SEARCH_TYPES, { error: messageRef('search.validation.type') }).default('galgame'),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

const trendingQuery = z.object({
  limit: queryInt({ min: 1, max: SEARCH_TRENDING_LIMIT, label: 'validation.label.pageSize' }).default(
    SEARCH_TRENDING_LIMIT,
  ),
  window: z.enum(TRENDING_WINDOWS, { error: messageRef('search.validation.window') }).default(TRENDING_WINDOW_DEFAULT),
});

const suggestQuery = z.object({
  prefix: keyword(SEARCH_PREFIX_MAX, 'search.validation.prefix'),
  limit: queryInt({ min: 1, max: SEARCH_SUGGEST_MAX, label: 'validation.label.pageSize' }).default(
    SEARCH_SUGGEST_DEFAULT,
  ),
});

/** Spec §7 Search (v2), decision 024. */
export const searchContract = {
  search: endpoint({
    method: 'GET',
    path: '/search',
    query: searchQuerySchema,
    response: as<SearchResultPage>(),
    auth: 'optional',
    summary:
      'Searches games, light novels, producers or people (`type`) for `keyword`; counts per type, highlighted matches',
  }),
  trending: endpoint({
    method: 'GET',
    path: '/search/trending',
    query: trendingQuery,
    response: as<TrendingItem[]>(),
    auth: 'none',
    summary: 'What most people searched for in the last `window` (1h, 24h, 7d), one count per searcher an hour',
  }),
  suggest: endpoint({
    method: 'GET',
    path: '/search/suggest',
    query: suggestQuery,
    response: as<SearchSuggestion[]>(),
    auth: 'none',
    summary: 'Keywords starting with `prefix`: titles and names, then popular searches',
  }),
} as const;
