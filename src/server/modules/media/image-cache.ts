import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface CachePruneResult {
  removed: number;
  keptBytes: number;
}

/**
 * Keeps the /img disk cache bounded: removes variants older than `maxAgeMs` (they are made again on
 * demand), then the oldest ones until the rest fit in `maxBytes`.
 */
export async function pruneImageCache(
  dir: string,
  options: { maxAgeMs: number; maxBytes: number; now?: number },
): Promise<CachePruneResult> {
  const now = options.now ?? Date.now();
  const files: { file: string; size: number; mtime: number }[] = [];
  const shards = await readdir(dir).catch(() => [] as string[]);
  for (const shard of shards) {
    const shardDir = path.join(dir, shard);
    for (const name of await readdir(shardDir).catch(() => [] as string[])) {
      const file = path.join(shardDir, name);
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) files.push({ file, size: info.size, mtime: info.mtimeMs });
    }
  }
  files.sort((a, b) => a.mtime - b.mtime);
  let total = files.reduce((sum, f) => sum + f.size, 0);
  let removed = 0;
  for (const f of files) {
    if (now - f.mtime <= options.maxAgeMs && total <= options.maxBytes) break;
    await rm(f.file, { force: true });
    total -= f.size;
    removed++;
  }
  return { removed, keptBytes: total };
}
