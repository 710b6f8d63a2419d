import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneImageCache } from './image-cache.ts';

describe('image cache pruning', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function cacheWith(files: { name: string; bytes: number; ageDays: number }[], now: number) {
    const dir = mkdtempSync(path.join(tmpdir(), 'hikari-imgcache-'));
    dirs.push(dir);
    for (const f of files) {
      const shard = path.join(dir, f.name.slice(0, 2));
      mkdirSync(shard, { recursive: true });
      const file = path.join(shard, f.name);
      writeFileSync(file, Buffer.alloc(f.bytes));
      const t = (now - f.ageDays * 86_400_000) / 1000;
      utimesSync(file, t, t);
    }
    return dir;
  }
  const left = (dir: string) =>
    readdirSync(dir)
      .flatMap((s) => readdirSync(path.join(dir, s)))
      .sort();

  it('removes old variants, then the oldest until the rest fit', async () => {
    const now = Date.now();
    const dir = cacheWith(
      [
        { name: 'aa1.webp', bytes: 100, ageDays: 40 },
        { name: 'ab2.webp', bytes: 100, ageDays: 3 },
        { name: 'ac3.webp', bytes: 100, ageDays: 2 },
        { name: 'ad4.webp', bytes: 100, ageDays: 1 },
      ],
      now,
    );
    const result = await pruneImageCache(dir, { maxAgeMs: 30 * 86_400_000, maxBytes: 200, now });
    expect(result).toEqual({ removed: 2, keptBytes: 200 });
    expect(left(dir)).toEqual(['ac3.webp', 'ad4.webp']);
  });

  it('copes with a missing cache folder', async () => {
    expect(await pruneImageCache(path.join(tmpdir(), 'hikari-no-such-cache'), { maxAgeMs: 1, maxBytes: 1 })).toEqual({
      removed: 0,
      keptBytes: 0,
    });
  });
});
