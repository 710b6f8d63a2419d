import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SEARCH_HISTORY_KEY,
  SEARCH_HISTORY_MAX,
  SEARCH_PREFIX_MAX,
  SEARCH_SUGGEST_DEBOUNCE_MS,
  SEARCH_TRENDING_CACHE_MS,
  SEARCH_TRENDING_KEY,
} from '../shared/search/search-model.ts';
import {
  createSearchStore,
  parseHistory,
  searchedKeyword,
  searchHref,
  suggestFailureText,
  trendingIsFresh,
  withSearch,
  type SearchApi,
} from './search.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
    data,
  };
}

const contract = { trending: 'trending', suggest: 'suggest' } as unknown as SearchApi['contract'];

function setup(
  options: { storage?: ReturnType<typeof memoryStorage>; answer?: (name: string, query: unknown) => unknown } = {},
) {
  const storage = options.storage ?? memoryStorage();
  let now = 10_000_000;
  const calls: { name: string; query: unknown }[] = [];
  const log = vi.fn();
  const suggestFailed = vi.fn();
  const client = {
    call: vi.fn(async (endpoint: unknown, input: { query: unknown }) => {
      const name = endpoint as string;
      calls.push({ name, query: input.query });
      const data = options.answer ? await options.answer(name, input.query) : [];
      return { success: true, code: 0, message: 'ok', data };
    }),
  } as unknown as SearchApi['client'];
  const store = createSearchStore({
    storage: () => storage,
    now: () => now,
    api: async () => ({ client, contract }),
    log,
    suggestFailed,
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  });
  return { store, storage, calls, log, suggestFailed, tick: (ms: number) => (now += ms), at: () => now };
}

describe('search history (spec §4, §9)', () => {
  it('puts a new search on top, moves a repeated keyword up instead of adding it twice', () => {
    let history = withSearch([], 'a', 1);
    history = withSearch(history, 'b', 2);
    history = withSearch(history, 'a', 3);
    expect(history).toEqual([
      { keyword: 'a', createdAt: 3 },
      { keyword: 'b', createdAt: 2 },
    ]);
  });

  it('keeps the newest ten', () => {
    let history = withSearch([], 'k0', 0);
    for (let i = 1; i <= 12; i++) history = withSearch(history, `k${i}`, i);
    expect(history).toHaveLength(SEARCH_HISTORY_MAX);
    expect(history[0]?.keyword).toBe('k12');
    expect(history.at(-1)?.keyword).toBe('k3');
  });

  it('ignores blank keywords and trims the others', () => {
    expect(withSearch([], '   ', 1)).toEqual([]);
    expect(withSearch([], '  雨声 ', 1)).toEqual([{ keyword: '雨声', createdAt: 1 }]);
  });

  it('reads stored history newest first, without duplicates, blanks or broken entries', () => {
    const raw = JSON.stringify([
      { keyword: 'old', createdAt: 1 },
      { keyword: 'new', createdAt: 5 },
      { keyword: 'old', createdAt: 0 },
      { keyword: ' ', createdAt: 9 },
      { keyword: 3, createdAt: 9 },
      null,
    ]);
    expect(parseHistory(raw)).toEqual([
      { keyword: 'new', createdAt: 5 },
      { keyword: 'old', createdAt: 1 },
    ]);
    expect(parseHistory('not json')).toEqual([]);
    expect(parseHistory('{"a":1}')).toEqual([]);
  });

  it('saves searches under searchHistory, deletes one entry and clears all', () => {
    const { store, storage, tick } = setup();
    store.remember('雨声');
    tick(1000);
    store.remember('白学');
    tick(1000);
    store.remember('  ');
    expect(store.$history.get().map((e) => e.keyword)).toEqual(['白学', '雨声']);
    expect(parseHistory(storage.data.get(SEARCH_HISTORY_KEY) ?? null)).toEqual(store.$history.get());

    store.forget('白学');
    expect(store.$history.get().map((e) => e.keyword)).toEqual(['雨声']);
    store.clearHistory();
    expect(store.$history.get()).toEqual([]);
    expect(storage.data.get(SEARCH_HISTORY_KEY)).toBe('[]');
  });

  it('sees what another tab saved when it loads the history again', () => {
    const storage = memoryStorage({ [SEARCH_HISTORY_KEY]: JSON.stringify([{ keyword: 'x', createdAt: 1 }]) });
    const { store } = setup({ storage });
    store.loadHistory();
    expect(store.$history.get()).toEqual([{ keyword: 'x', createdAt: 1 }]);
  });

  it('takes the keyword of an opened /search address', () => {
    expect(searchedKeyword('/search', '?keyword=%E9%9B%A8%E5%A3%B0')).toBe('雨声');
    expect(searchedKeyword('/search/', '?keyword=a&type=person')).toBe('a');
    expect(searchedKeyword('/search', '?keyword=%20')).toBeNull();
    expect(searchedKeyword('/search', '')).toBeNull();
    expect(searchedKeyword('/galgame', '?keyword=a')).toBeNull();
    expect(searchHref(' a&b ')).toBe('/search?keyword=a%26b');
  });
});

describe('trending (spec §4, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is fresh for an hour', () => {
    expect(trendingIsFresh(null, 0)).toBe(false);
    expect(trendingIsFresh({ items: [], createdAt: 1000 }, 1000 + SEARCH_TRENDING_CACHE_MS - 1)).toBe(true);
    expect(trendingIsFresh({ items: [], createdAt: 1000 }, 1000 + SEARCH_TRENDING_CACHE_MS)).toBe(false);
    expect(trendingIsFresh({ items: [], createdAt: 5000 }, 1000)).toBe(false);
  });

  it('fetches 20 when nothing is stored, keeps them as { items, createdAt }, then uses the copy for an hour', async () => {
    const items = [{ keyword: '雨声', count: 3 }];
    const { store, storage, calls, tick, at } = setup({ answer: () => items });
    await store.loadTrending();
    expect(calls).toEqual([{ name: 'trending', query: { limit: 20 } }]);
    expect(store.$trending.get()).toEqual(items);
    expect(JSON.parse(storage.data.get(SEARCH_TRENDING_KEY) ?? 'null')).toEqual({ items, createdAt: at() });

    tick(SEARCH_TRENDING_CACHE_MS - 1);
    await store.loadTrending();
    expect(calls).toHaveLength(1);
    tick(1);
    await store.loadTrending();
    expect(calls).toHaveLength(2);
  });

  it('shows a stale copy while fetching, and keeps it (logging only) when the fetch fails', async () => {
    const stale = { items: [{ keyword: 'old', count: 1 }], createdAt: 1 };
    const storage = memoryStorage({ [SEARCH_TRENDING_KEY]: JSON.stringify(stale) });
    const { store, log } = setup({
      storage,
      answer: () => {
        throw new Error('offline');
      },
    });
    const loading = store.loadTrending();
    expect(store.$trending.get()).toEqual(stale.items);
    await loading;
    expect(store.$trending.get()).toEqual(stale.items);
    expect(log).toHaveBeenCalledWith('[search] trending not loaded', expect.any(Error));
  });
});

describe('suggestions (spec §7, §8, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks once typing pauses for 200 ms, with the latest text, and reads the keywords', async () => {
    const { store, calls } = setup({
      answer: (_name, query) => [{ keyword: `${(query as { prefix: string }).prefix}1` }],
    });
    store.type('雨');
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS - 1);
    store.type('雨声');
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS - 1);
    expect(calls).toEqual([]);
    expect(store.$suggest.get()).toEqual({ status: 'loading', prefix: '雨声' });
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([{ name: 'suggest', query: { prefix: '雨声' } }]);
    expect(store.$suggest.get()).toEqual({ status: 'ready', prefix: '雨声', keywords: ['雨声1'] });
  });

  it('asks nothing for a blank text, and drops an answer the reader typed past', async () => {
    let release: (value: unknown) => void = () => {};
    const { store, calls } = setup({
      answer: (_name, query) =>
        (query as { prefix: string }).prefix === 'a'
          ? new Promise((resolve) => (release = resolve))
          : [{ keyword: 'ab' }],
    });
    store.type('   ');
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS);
    expect(calls).toEqual([]);
    expect(store.$suggest.get()).toEqual({ status: 'idle' });

    store.type('a');
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS);
    store.type('ab');
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS);
    release([{ keyword: 'stale' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.$suggest.get()).toEqual({ status: 'ready', prefix: 'ab', keywords: ['ab'] });
  });

  it('asks nothing for a text longer than a prefix may be (the search itself takes it)', async () => {
    const { store, calls, suggestFailed } = setup();
    const long = '恋'.repeat(SEARCH_PREFIX_MAX + 1);
    store.type(long);
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS);
    expect(calls).toEqual([]);
    expect(suggestFailed).not.toHaveBeenCalled();
    expect(store.$suggest.get()).toEqual({ status: 'ready', prefix: long, keywords: [] });
  });

  it('logs a failure and tells the reader', async () => {
    const failure = new Error('服务器繁忙');
    const { store, log, suggestFailed } = setup({
      answer: () => {
        throw failure;
      },
    });
    store.type('x');
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS);
    expect(log).toHaveBeenCalledWith('[search] suggestions not loaded', failure);
    expect(suggestFailed).toHaveBeenCalledWith(failure);
    expect(store.$suggest.get()).toEqual({ status: 'ready', prefix: 'x', keywords: [] });
  });

  it('forgets a pending request when the box resets', async () => {
    const { store, calls } = setup();
    store.type('x');
    store.reset();
    await vi.advanceTimersByTimeAsync(SEARCH_SUGGEST_DEBOUNCE_MS);
    expect(calls).toEqual([]);
    expect(store.$suggest.get()).toEqual({ status: 'idle' });
  });

  it('words the failure with the server message, else the error, else unknown', () => {
    const format = (reason: string | null) => `获取搜索建议失败: ${reason ?? '未知错误'}`;
    expect(suggestFailureText(new Error('busy'), format)).toBe('获取搜索建议失败: busy');
    expect(suggestFailureText('boom', format)).toBe('获取搜索建议失败: boom');
    expect(suggestFailureText(new Error(''), format)).toBe('获取搜索建议失败: 未知错误');
    expect(suggestFailureText(undefined, format)).toBe('获取搜索建议失败: 未知错误');
  });
});
