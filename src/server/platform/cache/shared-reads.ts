/**
 * Reads that are the same for everyone, shared by the requests of one process for a few seconds.
 *
 * Pages for logged-in readers are rendered for each request (their header, NSFW setting and rating
 * are theirs), but most of what such a page shows — a game, its recent ratings, a list of games —
 * does not depend on who asks. Loading it costs more than the rest of the render, so a page asks for
 * it here: one load per key serves every request for `ttlMs`, concurrent misses wait for the same load,
 * and a change to the data (the tags of the visitor page cache, `pagesChanged`) drops it at once in
 * every process. A load that was running when its data changed is not kept. Values are frozen: a page
 * that tried to change a shared value would throw instead of changing it for everyone.
 *
 * Only for data that is the same for every reader: never anything of the viewer's own.
 */

export interface SharedReadsOptions {
  /** How long a loaded value serves (default 10 s): the most a reader's page lags an unannounced change. */
  ttlMs?: number;
  /** Most values kept; the least recently used go first (default 2000). */
  maxEntries?: number;
  now?: () => number;
}

export interface SharedReads {
  /**
   * The value of `key`: kept, or loaded by `load` (once, however many requests ask meanwhile).
   * `tagsOf` names the data the value shows, as the page cache's tags; a failed load is not kept.
   */
  get<T>(key: string, load: () => Promise<T>, tagsOf: (value: T) => readonly string[]): Promise<T>;
  /** The data behind these tags changed ('*': everything). */
  invalidate(tags: readonly string[]): void;
  stats(): { entries: number };
}

export const SHARED_READ_TTL_MS = 10_000;
const ALL = '*';

interface Entry {
  value: unknown;
  tags: readonly string[];
  expires: number;
}

interface Flight {
  promise: Promise<unknown>;
  /** The invalidation clock when the load started. */
  tick: number;
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}

export function createSharedReads(options: SharedReadsOptions = {}): SharedReads {
  const ttlMs = options.ttlMs ?? SHARED_READ_TTL_MS;
  const maxEntries = options.maxEntries ?? 2000;
  const now = options.now ?? Date.now;
  /** In least-recently-used order: a hit moves its entry to the end. */
  const entries = new Map<string, Entry>();
  const byTag = new Map<string, Set<string>>();
  const flights = new Map<string, Flight>();
  let clock = 0;
  /** Loads still running (including ones a newer load of the same key replaced in `flights`). */
  let running = 0;
  /** When each tag last changed (clock ticks), for loads that were running then; pruned as loads end. */
  const changedAt = new Map<string, number>();

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  }

  function add(key: string, entry: Entry): void {
    remove(key);
    entries.set(key, entry);
    for (const tag of entry.tags) {
      let keys = byTag.get(tag);
      if (!keys) byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      remove(oldest);
    }
  }

  const changedSince = (tick: number, tags: readonly string[]) =>
    (changedAt.get(ALL) ?? 0) > tick || tags.some((tag) => (changedAt.get(tag) ?? 0) > tick);

  function invalidate(tags: readonly string[]): void {
    clock++;
    for (const tag of tags) {
      // Only loads still running need to know; with none, nothing has to be remembered.
      if (running > 0) changedAt.set(tag, clock);
      if (tag === ALL) {
        entries.clear();
        byTag.clear();
        continue;
      }
      for (const key of [...(byTag.get(tag) ?? [])]) remove(key);
    }
  }

  async function get<T>(key: string, load: () => Promise<T>, tagsOf: (value: T) => readonly string[]): Promise<T> {
    const at = now();
    const entry = entries.get(key);
    if (entry && at < entry.expires) {
      entries.delete(key);
      entries.set(key, entry);
      return entry.value as T;
    }
    if (entry) remove(key);
    // A load that began before a change may bring the old data: later requests start their own.
    const flight = flights.get(key);
    if (flight && flight.tick === clock) return flight.promise as Promise<T>;

    const tick = clock;
    running++;
    const promise = (async () => {
      const value = await load();
      const tags = [...new Set(tagsOf(value))];
      deepFreeze(value);
      if (!changedSince(tick, tags)) add(key, { value, tags, expires: now() + ttlMs });
      return value;
    })();
    const mine: Flight = { promise, tick };
    flights.set(key, mine);
    try {
      return await promise;
    } finally {
      if (flights.get(key) === mine) flights.delete(key);
      running--;
      if (running === 0) changedAt.clear();
    }
  }

  return { get, invalidate, stats: () => ({ entries: entries.size }) };
}
