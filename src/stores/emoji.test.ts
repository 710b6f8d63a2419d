import { describe, expect, it, vi } from 'vitest';
import { EMOJI_CACHE_KEY, type Emoji, type EmojiSetSummary } from '../shared/emoji/emoji-model.ts';
import { createEmojiStore, readCache, reconcile, SOURCE_TTL_MS, type EmojiStoreDeps } from './emoji.ts';

const set = (id: number, name: string, updatedAt = '2026-11-01T00:00:00.000Z'): EmojiSetSummary => ({
  id,
  name,
  order: id,
  emojiCount: 1,
  cover: null,
  updatedAt,
  canManage: false,
});
const emoji = (id: number, setId: number, name: string): Emoji => ({
  id,
  name,
  src: `/media/emoji/${setId}/${name}.webp`,
  emojiSetId: setId,
  order: id,
});

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    data,
  };
}

/** A store whose API answers from `server`, counting calls by endpoint name. */
function setup(
  server: { sets: EmojiSetSummary[]; emojis: Record<number, Emoji[]>; failList?: boolean },
  storage = memoryStorage(),
  watchers: (() => void)[] = [],
) {
  const calls: Record<string, number> = {};
  let now = 1_000_000;
  const contract = { listSets: 'listSets', getSet: 'getSet', getEmoji: 'getEmoji' };
  const client = {
    call: vi.fn(async (endpoint: string, input?: { query?: Record<string, string | number> }) => {
      calls[endpoint] = (calls[endpoint] ?? 0) + 1;
      if (endpoint === 'listSets') {
        if (server.failList) throw new Error('offline');
        return { data: server.sets };
      }
      if (endpoint === 'getSet') {
        const found = server.sets.find((s) => s.id === Number(input?.query?.emojiSetId));
        if (!found) throw new Error('not found');
        return { data: { emojiSet: found, emojis: server.emojis[found.id] ?? [] } };
      }
      const found = server.sets.find((s) => s.name === input?.query?.emojiSetName);
      const hit = found && server.emojis[found.id]?.find((e) => e.name === input?.query?.emojiName);
      if (!found || !hit) throw new Error('Emoji not found');
      return { data: { ...hit, code: `${found.name}/${hit.name}`, setUpdatedAt: found.updatedAt } };
    }),
  };
  const deps = {
    api: async () => ({ client, contract }),
    storage: () => storage,
    now: () => now,
    watch: (changed: () => void) => watchers.push(changed),
  } as unknown as EmojiStoreDeps;
  return { store: createEmojiStore(deps), calls, storage, advance: (ms: number) => (now += ms) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the emoji cache', () => {
  it('starts empty from nothing, garbage or another version', () => {
    expect(readCache(null).sets).toBeNull();
    expect(readCache(memoryStorage({ [EMOJI_CACHE_KEY]: '{nope' })).emojis).toEqual({});
    expect(readCache(memoryStorage({ [EMOJI_CACHE_KEY]: '{"v":99,"emojis":{},"sources":{}}' })).sources).toEqual({});
  });

  it('drops the emojis and sources of sets that changed or are gone', () => {
    const cache = {
      v: 1,
      sets: null,
      emojis: {
        '1': { updatedAt: 'a', emojis: [] },
        '2': { updatedAt: 'a', emojis: [] },
        '3': { updatedAt: 'a', emojis: [] },
      },
      sources: {
        'one/x': { src: 's1', setId: 1, setUpdatedAt: 'a', at: 0 },
        'two/x': { src: 's2', setId: 2, setUpdatedAt: 'a', at: 0 },
        'three/x': { src: 's3', setId: 3, setUpdatedAt: 'a', at: 0 },
      },
    };
    const next = reconcile(cache, [set(1, 'one', 'a'), set(2, 'two', 'b')]);
    expect(Object.keys(next.emojis)).toEqual(['1']);
    expect(Object.keys(next.sources)).toEqual(['one/x']);
  });
});

describe('the emoji store', () => {
  it('loads the set list once per page and keeps it in local storage', async () => {
    const { store, calls, storage } = setup({ sets: [set(1, 'hikari')], emojis: {} });
    await Promise.all([store.loadSets(), store.loadSets()]);
    expect(calls.listSets).toBe(1);
    expect(store.$sets.get()).toMatchObject({ status: 'ready' });
    expect(JSON.parse(storage.data.get(EMOJI_CACHE_KEY)!).sets).toHaveLength(1);
  });

  it("serves a set's emojis from the cache until the set changes", async () => {
    const server = { sets: [set(1, 'hikari', 'a')], emojis: { 1: [emoji(1, 1, 'smile')] } };
    const first = setup(server);
    await first.store.loadSetEmojis(server.sets[0]!);
    expect(first.calls.getSet).toBe(1);

    // A later page, same storage: no request while updatedAt is the same.
    const second = setup(server, first.storage);
    await second.store.loadSets();
    await second.store.loadSetEmojis(server.sets[0]!);
    expect(second.calls.getSet).toBeUndefined();
    expect(second.store.$setEmojis.get()['1']).toHaveLength(1);

    // The set changed (an emoji added): the next page asks again and sees it.
    server.sets = [set(1, 'hikari', 'b')];
    server.emojis[1] = [emoji(1, 1, 'smile'), emoji(2, 1, 'cry')];
    const third = setup(server, first.storage);
    const sets = await third.store.loadSets();
    expect(await third.store.loadSetEmojis(sets[0]!)).toHaveLength(2);
    expect(third.calls.getSet).toBe(1);
  });

  it('asks for an unknown code once, shows it when it arrives, and leaves unknown emoji as text', async () => {
    const { store, calls } = setup({ sets: [set(1, 'hikari')], emojis: { 1: [emoji(1, 1, 'smile')] } });
    expect(store.sourceOf('hikari/smile')).toBeNull();
    expect(store.sourceOf('hikari/smile')).toBeNull();
    expect(store.sourceOf('hikari/missing')).toBeNull();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await flush();
    await flush();
    expect(calls.getEmoji).toBe(2);
    expect(store.$sources.get()['hikari/smile']).toBe('/media/emoji/1/smile.webp');
    expect(store.$sources.get()['hikari/missing']).toBeNull();
    expect(store.sourceOf('hikari/missing')).toBeNull();
    expect(calls.getEmoji).toBe(2);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('keeps single sources for a few hours, then asks again', async () => {
    const server = { sets: [set(1, 'hikari')], emojis: { 1: [emoji(1, 1, 'smile')] } };
    const first = setup(server);
    first.store.sourceOf('hikari/smile');
    await flush();
    await flush();
    const later = setup(server, first.storage);
    expect(later.store.sourceOf('hikari/smile')).toBe('/media/emoji/1/smile.webp');
    expect(later.calls.getEmoji).toBeUndefined();
    later.advance(SOURCE_TTL_MS + 1);
    const stale = setup(server, first.storage);
    stale.advance(SOURCE_TTL_MS + 1);
    expect(stale.store.sourceOf('hikari/smile')).toBe('/media/emoji/1/smile.webp');
    await flush();
    expect(stale.calls.getEmoji).toBe(1);
  });

  it('shows a failed set list as an error, loads it on a retry, and starts again when invalidated', async () => {
    const server = { sets: [set(1, 'hikari')], emojis: {}, failList: true };
    const { store, calls } = setup(server);
    await expect(store.loadSets()).rejects.toThrow('offline');
    expect(store.$sets.get()).toEqual({ status: 'error', message: 'offline', sets: null });
    server.failList = false;
    await expect(store.loadSets()).resolves.toHaveLength(1);
    expect(calls.listSets).toBe(2);
    store.invalidate();
    expect(store.$sets.get()).toEqual({ status: 'idle' });
    expect(store.$sources.get()).toEqual({});
    await store.loadSets();
    expect(calls.listSets).toBe(3);
  });

  it('forgets a source whose image does not load, so the emoji reads as text', async () => {
    const { store, storage } = setup({ sets: [set(1, 'hikari')], emojis: { 1: [emoji(1, 1, 'smile')] } });
    store.sourceOf('hikari/smile');
    await flush();
    await flush();
    expect(store.$sources.get()['hikari/smile']).toBe('/media/emoji/1/smile.webp');
    store.forget('hikari/smile');
    expect(store.sourceOf('hikari/smile')).toBeNull();
    expect(JSON.parse(storage.data.get(EMOJI_CACHE_KEY)!).sources).toEqual({});
  });

  it('reads the cache again after another tab wrote it, instead of writing its own copy over it', async () => {
    const server = { sets: [set(1, 'hikari', 'a')], emojis: { 1: [emoji(1, 1, 'smile')] } };
    const storage = memoryStorage();
    const watchers: (() => void)[] = [];
    const tab = setup(server, storage, watchers);
    await tab.store.loadSets();
    await tab.store.loadSetEmojis(server.sets[0]!);
    // Another tab (the emoji pages) empties the cache.
    const other = setup(server, storage);
    other.store.invalidate();
    for (const changed of watchers) changed();
    // This tab's next write starts from what is stored now, not from its old copy.
    tab.store.forget('hikari/none');
    expect(JSON.parse(storage.data.get(EMOJI_CACHE_KEY)!).emojis).toEqual({});
  });
});
