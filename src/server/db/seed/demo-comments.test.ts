import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { listComments } from '../../modules/comments/comments.service.ts';
import { appTargets } from '../../modules/index.ts';
import { LocalStorage } from '../../platform/storage/storage.local.ts';
import { runDemoSeed } from './demo-seed.ts';

describe('demo comments', () => {
  let t: TestDatabase;
  let dir: string;
  const targets = appTargets();
  beforeAll(async () => {
    t = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'hikari-seed-comments-'));
    const storage = new LocalStorage({
      dir,
      secret: 's'.repeat(32),
      uploadBaseUrl: 'http://localhost:4321/media-upload',
      publicBaseUrl: 'http://localhost:4321/media',
    });
    await runDemoSeed(t.db, storage);
    // Again: nothing is added twice.
    await runDemoSeed(t.db, storage);
  });
  afterAll(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('comments on the demo games in threads, with exact counts, once', async () => {
    const game = await t.db
      .selectFrom('galgame')
      .select('id')
      .where('bangumi_id', '=', -1001)
      .executeTakeFirstOrThrow();
    const page = await listComments({ db: t.db, targets }, null, {
      targetType: 'galgame',
      targetId: game.id,
      sort: 'hot',
      page: 1,
      limit: 20,
    });
    expect(page.total).toBe(5);
    // The moderator's reminder is pinned; the most liked thread follows.
    expect(page.items.map((c) => c.author.name)).toEqual(['hikari_admin', 'hikari_demo', 'hikari_creator']);
    expect(page.items[0]?.pinned).toBe(true);
    const thread = page.items[1]!;
    expect(thread).toMatchObject({ likeCount: 2, replyCount: 2 });
    expect(thread.replies.map((r) => [r.author.name, r.replyTo?.name])).toEqual([
      ['hikari_creator', 'hikari_demo'],
      ['hikari_demo', 'hikari_creator'],
    ]);

    const all = await t.db.selectFrom('comment').select(['target_type', 'target_id', 'status']).execute();
    for (const ref of new Set(all.map((c) => `${c.target_type}:${c.target_id}`))) {
      const [type, id] = ref.split(':') as ['galgame', string];
      const counted = all.filter((c) => `${c.target_type}:${c.target_id}` === ref && c.status === 'visible').length;
      expect(await targets.read(t.db, { type, id: Number(id) }, 'comment'), ref).toBe(counted);
    }
    const likes = await t.db.selectFrom('reaction_like').select('target_id').execute();
    const stored = await t.db.selectFrom('comment').select(['id', 'like_count']).execute();
    for (const row of stored) expect(row.like_count).toBe(likes.filter((l) => l.target_id === row.id).length);
  });
});
