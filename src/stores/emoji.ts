import { atom, map } from 'nanostores';
import type { emojiContract } from '../shared/emoji/emoji.contract.ts';
import { EMOJI_CACHE_KEY, type Emoji, type EmojiSetSummary } from '../shared/emoji/emoji-model.ts';
import type { ApiClient } from './api-client.ts';

/**
 * Emoji sets, their emojis and single emoji sources, cached in local storage under
 * `hikari_emoji_cache` (spec §4). The set list is asked for once per page when the picker opens; a set
 * whose `updatedAt` changed (or that is gone) drops its cached emojis and sources, so a renamed, refilled
 * or deleted set shows as it is now. Sources asked for one by one (text written by others) are kept a
 * few hours, then asked for again; one whose image no longer loads is forgotten at once.
 */

export const SOURCE_TTL_MS = 6 * 60 * 60 * 1000;
const CACHE_VERSION = 1;
/** Sources kept at most; the oldest go first. */
const MAX_SOURCES = 500;

interface CachedSource {
  src: string;
  setId: number;
  setUpdatedAt: string;
  at: number;
}

export interface EmojiCache {
  v: number;
  sets: EmojiSetSummary[] | null;
  emojis: Record<string, { updatedAt: string; emojis: Emoji[] }>;
  sources: Record<string, CachedSource>;
}

const emptyCache = (): EmojiCache => ({ v: CACHE_VERSION, sets: null, emojis: {}, sources: {} });

/** Reads the cache; anything unreadable or of another version starts empty. */
export function readCache(storage: Pick<Storage, 'getItem'> | null): EmojiCache {
  try {
    const raw = storage?.getItem(EMOJI_CACHE_KEY);
    if (!raw) return emptyCache();
    const parsed = JSON.parse(raw) as Partial<EmojiCache>;
    if (parsed.v !== CACHE_VERSION || typeof parsed.emojis !== 'object' || typeof parsed.sources !== 'object')
      return emptyCache();
    return {
      v: CACHE_VERSION,
      sets: Array.isArray(parsed.sets) ? parsed.sets : null,
      emojis: parsed.emojis ?? {},
      sources: parsed.sources ?? {},
    };
  } catch {
    return emptyCache();
  }
}

/** The cache after a fresh set list: entries of changed or deleted sets are dropped. */
export function reconcile(cache: EmojiCache, sets: EmojiSetSummary[]): EmojiCache {
  const current = new Map(sets.map((set) => [set.id, set.updatedAt]));
  const emojis: EmojiCache['emojis'] = {};
  for (const [id, entry] of Object.entries(cache.emojis))
    if (current.get(Number(id)) === entry.updatedAt) emojis[id] = entry;
  const sources: EmojiCache['sources'] = {};
  for (const [code, entry] of Object.entries(cache.sources))
    if (current.get(entry.setId) === entry.setUpdatedAt) sources[code] = entry;
  return { v: CACHE_VERSION, sets, emojis, sources };
}

/** Keeps the newest MAX_SOURCES sources. */
function trimSources(sources: EmojiCache['sources']): EmojiCache['sources'] {
  const entries = Object.entries(sources);
  if (entries.length <= MAX_SOURCES) return sources;
  entries.sort((a, b) => b[1].at - a[1].at);
  return Object.fromEntries(entries.slice(0, MAX_SOURCES));
}

export type SetsState =
  | { status: 'idle' }
  | { status: 'loading'; sets: EmojiSetSummary[] | null }
  | { status: 'ready'; sets: EmojiSetSummary[] }
  | { status: 'error'; message: string; sets: EmojiSetSummary[] | null };

export interface EmojiStoreDeps {
  api: () => Promise<{ client: Pick<ApiClient, 'call'>; contract: typeof emojiContract }>;
  storage: () => Pick<Storage, 'getItem' | 'setItem'> | null;
  now: () => number;
  /** Calls `changed` when another tab writes the cache (the browser's `storage` event). */
  watch?: (changed: () => void) => void;
}

export function createEmojiStore(deps: EmojiStoreDeps) {
  const $sets = atom<SetsState>({ status: 'idle' });
  /** Emojis of sets by set id, once loaded. */
  const $setEmojis = map<Record<string, Emoji[]>>({});
  /** Sources by code: a URL, null when unknown, absent while not asked. */
  const $sources = map<Record<string, string | null>>({});
  let cache: EmojiCache | null = null;
  let setsRequest: Promise<EmojiSetSummary[]> | null = null;
  // Which set-list request is the latest; `invalidate` moves it on too.
  let setsTicket = 0;
  const emojiRequests = new Map<string, Promise<Emoji[]>>();
  const sourceRequests = new Set<string>();

  const load = () => (cache ??= readCache(deps.storage()));
  // Another tab changed the cache (a set was edited there): read it again rather than write ours over it.
  deps.watch?.(() => {
    cache = null;
  });
  const save = () => {
    try {
      deps.storage()?.setItem(EMOJI_CACHE_KEY, JSON.stringify(load()));
    } catch {
      // A full or blocked storage only costs a request next time.
    }
  };

  const rememberSources = (set: EmojiSetSummary, emojis: Emoji[]) => {
    const c = load();
    const at = deps.now();
    const known: Record<string, string> = {};
    for (const emoji of emojis) {
      const code = `${set.name}/${emoji.name}`;
      c.sources[code] = { src: emoji.src, setId: set.id, setUpdatedAt: set.updatedAt, at };
      known[code] = emoji.src;
    }
    c.sources = trimSources(c.sources);
    $sources.set({ ...$sources.get(), ...known });
  };

  /** The set list: fresh from the server once per page, the cached one meanwhile. */
  function loadSets(force = false): Promise<EmojiSetSummary[]> {
    if (setsRequest && !force) return setsRequest;
    const cached = load().sets;
    $sets.set({ status: 'loading', sets: cached });
    const ticket = ++setsTicket;
    const request: Promise<EmojiSetSummary[]> = (async () => {
      const { client, contract } = await deps.api();
      const answer = await client.call(contract.listSets);
      // A newer request (a retry, an invalidation) has the last word.
      if (ticket !== setsTicket) return answer.data;
      cache = reconcile(load(), answer.data);
      save();
      $setEmojis.set(Object.fromEntries(Object.entries(load().emojis).map(([id, entry]) => [id, entry.emojis])));
      $sets.set({ status: 'ready', sets: answer.data });
      return answer.data;
    })();
    setsRequest = request;
    request.catch((error: unknown) => {
      if (ticket !== setsTicket) return;
      setsRequest = null;
      $sets.set({ status: 'error', message: errorText(error), sets: cached });
    });
    return request;
  }

  /** A set's emojis: from the cache while its `updatedAt` is unchanged, else from the server. */
  function loadSetEmojis(set: EmojiSetSummary): Promise<Emoji[]> {
    const cached = load().emojis[set.id];
    if (cached && cached.updatedAt === set.updatedAt) {
      if (!$setEmojis.get()[set.id]) $setEmojis.setKey(String(set.id), cached.emojis);
      return Promise.resolve(cached.emojis);
    }
    // Keyed by the version asked for: a request for an older version of the set does not answer this one.
    const requestKey = `${set.id}:${set.updatedAt}`;
    const running = emojiRequests.get(requestKey);
    if (running) return running;
    const request = (async () => {
      const { client, contract } = await deps.api();
      const answer = await client.call(contract.getSet, { query: { emojiSetId: set.id } });
      const { emojiSet, emojis } = answer.data;
      load().emojis[emojiSet.id] = { updatedAt: emojiSet.updatedAt, emojis };
      rememberSources(emojiSet, emojis);
      save();
      $setEmojis.setKey(String(emojiSet.id), emojis);
      return emojis;
    })();
    emojiRequests.set(requestKey, request);
    void request.catch(() => undefined).finally(() => emojiRequests.delete(requestKey));
    return request;
  }

  /**
   * The image of an emoji code, or null while unknown. A code not cached is asked for once (visitors
   * too: one emoji is not a set); the answer arrives through `$sources`. A failure is logged only and
   * the emoji stays text (spec §8).
   */
  function sourceOf(code: string): string | null {
    const known = $sources.get()[code];
    if (known !== undefined) return known;
    const cached = load().sources[code];
    if (cached && deps.now() - cached.at < SOURCE_TTL_MS) return cached.src;
    if (!sourceRequests.has(code)) {
      sourceRequests.add(code);
      void fetchSource(code);
    }
    return cached?.src ?? null;
  }

  async function fetchSource(code: string): Promise<void> {
    const slash = code.indexOf('/');
    try {
      const { client, contract } = await deps.api();
      const answer = await client.call(contract.getEmoji, {
        query: { emojiSetName: code.slice(0, slash), emojiName: code.slice(slash + 1) },
      });
      const emoji = answer.data;
      load().sources[code] = {
        src: emoji.src,
        setId: emoji.emojiSetId,
        setUpdatedAt: emoji.setUpdatedAt,
        at: deps.now(),
      };
      load().sources = trimSources(load().sources);
      save();
      $sources.setKey(code, emoji.src);
    } catch (error) {
      console.warn(`[emoji] no source for ${code}`, error);
      $sources.setKey(code, null);
    }
  }

  /**
   * An emoji image that failed to load (the emoji was deleted since it was cached): the code reads as
   * text from now on, and is asked for again on a later page.
   */
  function forget(code: string): void {
    if ($sources.get()[code] === null) return;
    delete load().sources[code];
    save();
    $sources.setKey(code, null);
  }

  /** After the creator pages change a set: the next picker and texts see it as it is now. */
  function invalidate(): void {
    cache = emptyCache();
    save();
    setsRequest = null;
    setsTicket++;
    $sets.set({ status: 'idle' });
    $setEmojis.set({});
    $sources.set({});
    sourceRequests.clear();
  }

  return { $sets, $setEmojis, $sources, loadSets, loadSetEmojis, sourceOf, forget, invalidate };
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : '';
}

export type EmojiStore = ReturnType<typeof createEmojiStore>;

/** The API client and the emoji contract, loaded with the first call. */
export async function loadEmojiApi(): Promise<{ client: ApiClient; contract: typeof emojiContract }> {
  const [{ api }, { emojiContract }] = await Promise.all([
    import('./api-client.ts'),
    import('../shared/emoji/emoji.contract.ts'),
  ]);
  return { client: api, contract: emojiContract };
}

export const emojiStore: EmojiStore = createEmojiStore({
  api: loadEmojiApi,
  storage: () => {
    try {
      return typeof localStorage === 'undefined' ? null : localStorage;
    } catch {
      return null;
    }
  },
  now: () => Date.now(),
  watch: (changed) => {
    if (typeof window === 'undefined') return;
    window.addEventListener('storage', (event) => {
      if (event.key === EMOJI_CACHE_KEY || event.key === null) changed();
    });
  },
});
