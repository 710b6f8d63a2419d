import { atom } from 'nanostores';
import type { searchContract } from '../shared/search/search.contract.ts';
import {
  SEARCH_HISTORY_KEY,
  SEARCH_HISTORY_MAX,
  SEARCH_PREFIX_MAX,
  SEARCH_SUGGEST_DEBOUNCE_MS,
  SEARCH_TRENDING_CACHE_MS,
  SEARCH_TRENDING_KEY,
  SEARCH_TRENDING_LIMIT,
  type SearchHistoryEntry,
  type TrendingCache,
  type TrendingItem,
} from '../shared/search/search-model.ts';
import type { ApiClient } from './api-client.ts';

/**
 * The header search box's memory (spec §2.3, §4, §9): the reader's search history and the
 * 'Everyone is searching' list, both in local storage, and the suggestions while typing. The API
 * client and the search contract load with the first call, so the header carries none of them.
 */

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The history after searching `keyword`: one entry per keyword, newest first, at most SEARCH_HISTORY_MAX. */
export function withSearch(history: readonly SearchHistoryEntry[], keyword: string, now: number): SearchHistoryEntry[] {
  const clean = keyword.trim();
  if (!clean) return [...history];
  return [{ keyword: clean, createdAt: now }, ...history.filter((entry) => entry.keyword !== clean)].slice(
    0,
    SEARCH_HISTORY_MAX,
  );
}

/** Reads the stored history; anything unreadable counts as none, and stray entries are dropped. */
export function parseHistory(raw: string | null): SearchHistoryEntry[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    const entries = parsed.filter(
      (entry): entry is SearchHistoryEntry =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as SearchHistoryEntry).keyword === 'string' &&
        (entry as SearchHistoryEntry).keyword.trim() !== '' &&
        typeof (entry as SearchHistoryEntry).createdAt === 'number',
    );
    const seen = new Set<string>();
    return entries
      .sort((a, b) => b.createdAt - a.createdAt)
      .filter((entry) => !seen.has(entry.keyword) && seen.add(entry.keyword))
      .slice(0, SEARCH_HISTORY_MAX);
  } catch {
    return [];
  }
}

/** Reads the stored trending list, or null when there is none or it cannot be read. */
export function parseTrending(raw: string | null): TrendingCache | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<TrendingCache> | null;
    if (!parsed || !Array.isArray(parsed.items) || typeof parsed.createdAt !== 'number') return null;
    return {
      items: parsed.items.filter((item): item is TrendingItem => typeof item?.keyword === 'string'),
      createdAt: parsed.createdAt,
    };
  } catch {
    return null;
  }
}

/** Spec §4: trending is fetched again once it is older than an hour (or dated in the future). */
export const trendingIsFresh = (cache: TrendingCache | null, now: number): cache is TrendingCache =>
  cache !== null && now >= cache.createdAt && now - cache.createdAt < SEARCH_TRENDING_CACHE_MS;

/** The keyword of a /search address, or null when it is not one or its keyword is blank. */
export function searchedKeyword(pathname: string, search: string): string | null {
  if (pathname.replace(/\/+$/, '') !== '/search') return null;
  const keyword = new URLSearchParams(search).get('keyword')?.trim();
  return keyword ? keyword : null;
}

/** The address of the search page for `keyword`. */
export const searchHref = (keyword: string) => `/search?keyword=${encodeURIComponent(keyword.trim())}`;

export type SuggestState =
  { status: 'idle' } | { status: 'loading'; prefix: string } | { status: 'ready'; prefix: string; keywords: string[] };

export interface SearchApi {
  client: Pick<ApiClient, 'call'>;
  contract: typeof searchContract;
}

export interface SearchStoreDeps {
  storage: () => Storage | null;
  now: () => number;
  api: () => Promise<SearchApi>;
  /** Logs a failure the reader is not told about (trending), or is told about elsewhere. */
  log: (message: string, error: unknown) => void;
  /** Tells the reader that suggestions failed (spec §8), with the server's message or the error. */
  suggestFailed: (error: unknown) => void;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export function createSearchStore(deps: SearchStoreDeps) {
  const $history = atom<SearchHistoryEntry[]>([]);
  const $trending = atom<TrendingItem[]>([]);
  const $suggest = atom<SuggestState>({ status: 'idle' });
  let trendingRequest: Promise<void> | null = null;
  let suggestTimer: unknown = null;
  let suggestTicket = 0;

  const read = (key: string): string | null => {
    try {
      return deps.storage()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const write = (key: string, value: unknown) => {
    try {
      deps.storage()?.setItem(key, JSON.stringify(value));
    } catch {
      // A full or blocked storage only forgets; the search itself goes on.
    }
  };

  const loadHistory = () => $history.set(parseHistory(read(SEARCH_HISTORY_KEY)));
  const saveHistory = (next: SearchHistoryEntry[]) => {
    $history.set(next);
    write(SEARCH_HISTORY_KEY, next);
  };

  return {
    $history,
    $trending,
    $suggest,
    /** Reads the history again (another tab may have searched). */
    loadHistory,
    /** Spec §4: a search run from the box, the search page's form, or an opened /search?keyword=. */
    remember(keyword: string) {
      if (!keyword.trim()) return;
      saveHistory(withSearch(parseHistory(read(SEARCH_HISTORY_KEY)), keyword, deps.now()));
    },
    forget(keyword: string) {
      saveHistory(parseHistory(read(SEARCH_HISTORY_KEY)).filter((entry) => entry.keyword !== keyword));
    },
    clearHistory() {
      saveHistory([]);
    },
    /** Shows the stored trending list, and fetches it again when older than an hour (failures only logged). */
    loadTrending(): Promise<void> {
      const cached = parseTrending(read(SEARCH_TRENDING_KEY));
      if (cached) $trending.set(cached.items);
      if (trendingIsFresh(cached, deps.now())) return Promise.resolve();
      trendingRequest ??= deps
        .api()
        .then(({ client, contract }) => client.call(contract.trending, { query: { limit: SEARCH_TRENDING_LIMIT } }))
        .then((answer) => {
          const cache: TrendingCache = { items: answer.data, createdAt: deps.now() };
          write(SEARCH_TRENDING_KEY, cache);
          $trending.set(cache.items);
        })
        .catch((error: unknown) => deps.log('[search] trending not loaded', error))
        .finally(() => {
          trendingRequest = null;
        });
      return trendingRequest;
    },
    /**
     * The input's text changed: suggestions for it after a 200 ms pause in typing (spec §9). A blank text
     * shows none; an answer to an older text is dropped.
     */
    type(text: string) {
      const prefix = text.trim();
      const ticket = ++suggestTicket;
      if (suggestTimer !== null) deps.clearTimeout(suggestTimer);
      suggestTimer = null;
      if (!prefix) return $suggest.set({ status: 'idle' });
      // Suggestions complete short beginnings; a longer text is searched as it is.
      if (prefix.length > SEARCH_PREFIX_MAX) return $suggest.set({ status: 'ready', prefix, keywords: [] });
      $suggest.set({ status: 'loading', prefix });
      suggestTimer = deps.setTimeout(() => {
        suggestTimer = null;
        void deps
          .api()
          .then(({ client, contract }) => client.call(contract.suggest, { query: { prefix } }))
          .then(
            (answer) => {
              if (ticket !== suggestTicket) return;
              $suggest.set({ status: 'ready', prefix, keywords: answer.data.map((s) => s.keyword) });
            },
            (error: unknown) => {
              if (ticket !== suggestTicket) return;
              deps.log('[search] suggestions not loaded', error);
              deps.suggestFailed(error);
              $suggest.set({ status: 'ready', prefix, keywords: [] });
            },
          );
      }, SEARCH_SUGGEST_DEBOUNCE_MS);
    },
    /** The box closed: no suggestion is waiting any more. */
    reset() {
      suggestTicket++;
      if (suggestTimer !== null) deps.clearTimeout(suggestTimer);
      suggestTimer = null;
      $suggest.set({ status: 'idle' });
    },
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;

/** The search contract and the API client, loaded with the first call. */
async function loadSearchApi(): Promise<SearchApi> {
  const [{ api }, { searchContract }] = await Promise.all([
    import('./api-client.ts'),
    import('../shared/search/search.contract.ts'),
  ]);
  return { client: api, contract: searchContract };
}

/** Spec §8: '获取搜索建议失败: {server message, or error, or 未知错误}', in the page's language. */
export function suggestFailureText(error: unknown, format: (reason: string | null) => string): string {
  if (error instanceof Error) return format(error.message || null);
  if (error !== undefined && error !== null && String(error) !== '') return format(String(error));
  return format(null);
}

/** Set by the box that shows the suggestions: how it tells the reader they failed. */
let onSuggestFailed: (error: unknown) => void = () => {};
export const setSuggestFailureHandler = (handler: (error: unknown) => void) => {
  onSuggestFailed = handler;
};

export const searchStore: SearchStore = createSearchStore({
  storage: () => {
    try {
      return typeof localStorage === 'undefined' ? null : localStorage;
    } catch {
      return null;
    }
  },
  now: () => Date.now(),
  api: loadSearchApi,
  log: (message, error) => console.warn(message, error),
  suggestFailed: (error) => onSuggestFailed(error),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});
