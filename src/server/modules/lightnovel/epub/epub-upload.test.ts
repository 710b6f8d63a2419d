import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeStaleUploads } from './epub-upload.ts';

describe('upload folders left by a crashed process', () => {
  const base = mkdtemp(join(tmpdir(), 'hikari-epub-tmp-'));
  afterAll(async () => rm(await base, { recursive: true, force: true }));

  it('are removed once old, while a recent upload and other files stay', async () => {
    const dir = await base;
    const hourAgo = (Date.now() - 2 * 60 * 60 * 1000) / 1000;
    await mkdir(join(dir, 'epub-old'));
    await utimes(join(dir, 'epub-old'), hourAgo, hourAgo);
    await mkdir(join(dir, 'epub-new'));
    await mkdir(join(dir, 'other-old'));
    await utimes(join(dir, 'other-old'), hourAgo, hourAgo);
    expect(await removeStaleUploads(dir)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['epub-new', 'other-old']);
    expect(await removeStaleUploads(join(dir, 'missing'))).toBe(0);
  });
});
