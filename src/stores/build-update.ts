import { atom } from 'nanostores';

/** Build-update timings (spec §4, §9). */
export const MANIFEST_FIRST_FETCH_MS = 1000;
export const BUILD_POLL_MS = 5 * 60 * 1000;
export const RELOAD_GUARD_MS = 10_000;
export const RELOAD_GUARD_KEY = 'hikari-chunk-reload';

/** True once the server runs a newer build than this page; the next navigation then reloads fully. */
export const $newBuildAvailable = atom(false);

interface BuildFile {
  id?: unknown;
  buildId?: unknown;
}

type Fetcher = (url: string) => Promise<{ ok: boolean; json: () => Promise<unknown> }>;

function idOf(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const file = data as BuildFile;
  const id = file.buildId ?? file.id;
  return typeof id === 'string' ? id : null;
}

/** Asks builds/latest.json for the current id; marks a new build when it differs from ours. */
export async function checkForNewBuild(currentId: string, fetcher: Fetcher, now = Date.now()): Promise<boolean> {
  const response = await fetcher(`/builds/latest.json?t=${now}`);
  if (!response.ok) return false;
  const latest = idOf(await response.json());
  const changed = latest !== null && latest !== currentId;
  if (changed) $newBuildAvailable.set(true);
  return changed;
}

/** Loads this build's manifest; a failure is only logged (spec §8). */
export async function fetchBuildManifest(currentId: string, fetcher: Fetcher): Promise<unknown> {
  try {
    const response = await fetcher(`/builds/meta/${encodeURIComponent(currentId)}.json`);
    return response.ok ? await response.json() : null;
  } catch (error) {
    console.warn('[build] manifest fetch failed', error);
    return null;
  }
}

export interface GuardStorage {
  getItem: (key: string) => string | null;
  setItem: (key: string, value: string) => void;
}

/**
 * Decides whether a chunk-load failure may reload the page: at most once per 10 s for the same path,
 * so a broken deploy cannot trap the tab in a reload loop.
 */
export function mayReloadAfterChunkError(storage: GuardStorage, path: string, now: number): boolean {
  let record: Record<string, number> = {};
  try {
    const parsed: unknown = JSON.parse(storage.getItem(RELOAD_GUARD_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') record = parsed as Record<string, number>;
  } catch {
    record = {};
  }
  const last = record[path];
  if (typeof last === 'number' && now - last < RELOAD_GUARD_MS) return false;
  record[path] = now;
  try {
    storage.setItem(RELOAD_GUARD_KEY, JSON.stringify(record));
  } catch {
    // Storage full or blocked: still allow this one reload.
  }
  return true;
}

export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Loading chunk|Unable to preload CSS/i.test(
    message,
  );
}
