import { beforeEach, describe, expect, it } from 'vitest';
import {
  $newBuildAvailable,
  RELOAD_GUARD_MS,
  checkForNewBuild,
  fetchBuildManifest,
  isChunkLoadError,
  mayReloadAfterChunkError,
  type GuardStorage,
} from './build-update.ts';

function memoryStorage(): GuardStorage {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

const answer =
  (body: unknown, ok = true) =>
  async () => ({ ok, json: async () => body });

describe('build updates', () => {
  beforeEach(() => $newBuildAvailable.set(false));

  it('flags a new build when latest.json names another id', async () => {
    expect(await checkForNewBuild('b1', answer({ buildId: 'b1' }))).toBe(false);
    expect($newBuildAvailable.get()).toBe(false);
    expect(await checkForNewBuild('b1', answer({ id: 'b2' }))).toBe(true);
    expect($newBuildAvailable.get()).toBe(true);
  });

  it('asks latest.json with a timestamp so caches cannot answer', async () => {
    const urls: string[] = [];
    await checkForNewBuild(
      'b1',
      async (url) => {
        urls.push(url);
        return { ok: true, json: async () => ({ id: 'b1' }) };
      },
      1234,
    );
    expect(urls).toEqual(['/builds/latest.json?t=1234']);
  });

  it('ignores failed or malformed answers', async () => {
    expect(await checkForNewBuild('b1', answer(null, false))).toBe(false);
    expect(await checkForNewBuild('b1', answer('nonsense'))).toBe(false);
  });

  it('only logs a failed manifest fetch', async () => {
    const failing = async () => {
      throw new Error('offline');
    };
    await expect(fetchBuildManifest('b1', failing)).resolves.toBeNull();
  });

  it('reloads after a chunk error at most once per 10 s for the same path', () => {
    const storage = memoryStorage();
    expect(mayReloadAfterChunkError(storage, '/docs', 1000)).toBe(true);
    expect(mayReloadAfterChunkError(storage, '/docs', 1000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(mayReloadAfterChunkError(storage, '/other', 1500)).toBe(true);
    expect(mayReloadAfterChunkError(storage, '/docs', 1000 + RELOAD_GUARD_MS)).toBe(true);
  });

  it('recognises chunk-load errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /_astro/x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });
});
