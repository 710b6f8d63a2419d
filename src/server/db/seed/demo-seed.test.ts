import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { listAnnouncements } from '../../modules/announcement/announcement.service.ts';
import { getEmojiSet, getEmojiSource } from '../../modules/emoji/emoji.service.ts';
import { LocalStorage } from '../../platform/storage/storage.local.ts';
import { searchCatalogue } from '../../modules/search/search.service.ts';
import { trendingKeywords } from '../../modules/search/search.trending.ts';
import { searchQuerySchema } from '../../../shared/search/search.contract.ts';
import { demoAnnouncements } from './demo-content.ts';
import { demoSearches } from './demo-searches.ts';
import { demoEmojiArt } from './demo-emoji.art.ts';
import { DEMO_EMOJI_SET } from './demo-emoji.ts';
import { needsDemoSeed, runDemoSeed } from './demo-seed.ts';

describe('demo seed', () => {
  let t: TestDatabase;
  let dir: string;
  let storage: LocalStorage;
  beforeAll(async () => {
    t = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'hikari-seed-media-'));
    storage = new LocalStorage({
      dir,
      secret: 's'.repeat(32),
      uploadBaseUrl: 'http://localhost:4321/media-upload',
      publicBaseUrl: 'http://localhost:4321/media',
    });
  });
  afterAll(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const demoSet = () =>
    getEmojiSet({ db: t.db, storage }, { id: 'seed-check', group: 'user' }, { name: DEMO_EMOJI_SET });

  it('runs on an empty database, is deterministic and idempotent', async () => {
    expect(await needsDemoSeed(t.db)).toBe(true);
    await runDemoSeed(t.db, storage);
    expect(await needsDemoSeed(t.db)).toBe(false);
    const first = await listAnnouncements(t.db, 100);
    const firstSet = await demoSet();
    await runDemoSeed(t.db, storage);
    const second = await listAnnouncements(t.db, 100);
    expect(second).toEqual(first);
    expect(first).toHaveLength(demoAnnouncements.length);
    expect(await demoSet()).toEqual(firstSet);
  });

  it('adds the emoji set "hikari", its images drawn here and stored as 96×96 webp', async () => {
    const { emojiSet, emojis } = await demoSet();
    const names = Object.keys(demoEmojiArt);
    expect(names.length).toBeGreaterThanOrEqual(12);
    expect(emojis.map((e) => e.name)).toEqual(names);
    expect(emojiSet).toMatchObject({ name: 'hikari', order: 0, emojiCount: names.length, cover: emojis[0]?.src });
    const creator = await t.db.selectFrom('emoji_set').select('created_by').executeTakeFirstOrThrow();
    const owner = await t.db.selectFrom('users').select('name').where('id', '=', creator.created_by).executeTakeFirst();
    expect(owner?.name).toBe('hikari_creator');
    for (const emoji of emojis) {
      const key = `emoji/${emojiSet.id}/${emoji.name}.webp`;
      expect(emoji.src).toBe(`http://localhost:4321/media/${key}`);
      const object = await storage.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of object!.body) chunks.push(chunk as Buffer);
      expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });
    }
    const smile = await getEmojiSource(t.db, storage, 'hikari', 'smile');
    expect(smile.code).toBe('hikari/smile');
  });

  it('gives trending its demo searches, each of which finds a demo game', async () => {
    const trending = await trendingKeywords(t.db, { limit: 20, window: '24h' });
    expect(trending).toEqual(demoSearches.map(({ keyword, searchers }) => ({ keyword, count: searchers })));
    for (const { keyword } of demoSearches) {
      const result = await searchCatalogue(t.db, searchQuerySchema.parse({ keyword }));
      expect(result.pagination.total, keyword).toBeGreaterThan(0);
    }
  });

  it('has a member of every staff group, and an update request waiting for review', async () => {
    const groups = await t.db.selectFrom('users').select(['name', 'user_group']).orderBy('user_id').execute();
    expect(groups.map((u) => u.user_group)).toEqual(['user', 'creator', 'superAdmin', 'user', 'editor', 'admin']);
    const requests = await t.db.selectFrom('update_request').selectAll().execute();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ item_type: 'lightnovel', status: 'pending', base_revision: 1 });
    expect(JSON.parse(requests[0]!.changes).map((c: { field: string }) => c.field)).toEqual(['aliases', 'intro']);
    const moderators = await t.db
      .selectFrom('section_moderator')
      .innerJoin('users', 'users.id', 'section_moderator.user_id')
      .select('users.name')
      .execute();
    expect(moderators).toEqual([{ name: 'hikari_creator' }]);
  });

  it('lists pinned announcements first, then the newest', async () => {
    const list = await listAnnouncements(t.db, 3);
    expect(list.map((a) => a.id)).toEqual(['ann-0002', 'ann-0001', 'ann-0005']);
    expect(list[0]?.pinned).toBe(true);
  });
});
