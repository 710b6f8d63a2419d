import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { EXCERPT_MAX, type PostInput } from '../../../shared/community/community.ts';
import { HttpError } from '../../platform/errors.ts';
import { LocalStorage } from '../../platform/storage/storage.local.ts';
import { appTargets } from '../index.ts';
import { createUser } from '../users/users.service.ts';
import { canSee, excerptOf, ourImageKey, type CommunityDeps, type ContentViewer } from './content.service.ts';
import { createPost, deletePost, updatePost } from './posts.service.ts';
import { queueOnly } from '../notifications/notifications.queue.ts';

describe('community content rules', () => {
  let t: TestDatabase;
  let dir: string;
  let deps: CommunityDeps;
  let author: ContentViewer;
  let moderator: ContentViewer;
  const at = '2026-11-20T00:00:00.000Z';

  beforeAll(async () => {
    t = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'hikari-community-'));
    const storage = new LocalStorage({
      dir,
      secret: 's'.repeat(32),
      uploadBaseUrl: 'https://hikari.example/media-upload',
      publicBaseUrl: 'https://hikari.example/media',
    });
    deps = { db: t.db, storage, targets: appTargets() };
    const a = await createUser(t.db, {
      name: 'ContentAuthor',
      email: 'content-author@example.test',
      passwordHash: 'x',
    });
    const m = await createUser(t.db, {
      name: 'ContentMod',
      email: 'content-mod@example.test',
      passwordHash: 'x',
      group: 'admin',
    });
    author = { id: a.id, group: 'user' };
    moderator = { id: m.id, group: 'admin' };
    await t.db.insertInto('section').values({ id: 1, name: '综合讨论', created_at: at, updated_at: at }).execute();
  });
  afterAll(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const input = (over: Partial<PostInput> = {}): PostInput => ({
    title: '标题',
    content: '正文',
    images: [],
    sectionId: 1,
    topics: ['话题'],
    works: [],
    ...over,
  });
  const counts = async () => ({
    user: (await t.db.selectFrom('users').select('post_count').where('id', '=', author.id).executeTakeFirstOrThrow())
      .post_count,
    section: (await t.db.selectFrom('section').select('post_count').where('id', '=', 1).executeTakeFirstOrThrow())
      .post_count,
    topic: (await t.db.selectFrom('topic').select('use_count').where('name', '=', '话题').executeTakeFirst())
      ?.use_count,
  });

  it('knows our image addresses by kind and refuses look-alikes', () => {
    const { storage } = deps;
    const url = 'https://hikari.example/media/post/42/abc_1.webp';
    expect(ourImageKey(storage, url, 'post', 'images.0', false)).toBe('post/42/abc_1.webp');
    expect(ourImageKey(storage, 'https://elsewhere.example/a.png', 'post', 'content', true)).toBeNull();
    for (const bad of [
      'https://elsewhere.example/a.png',
      'https://hikari.example/media/article/42/abc.webp',
      'https://hikari.example/media/post/42/../avatar/1/a.webp',
      'https://hikari.example/media/post/42/a/b.webp',
      'https://hikari.example/media/post/42/.hidden.webp',
      'https://hikari.example/media/post/42/page.html',
      'https://hikari.example/media/post/42/a.webp?x=1',
    ])
      expect(() => ourImageKey(storage, bad, 'post', 'images.0', false), bad).toThrow(HttpError);
  });

  it('makes one-line excerpts of whole characters', () => {
    expect(excerptOf('  第一行\n\n第二行\t结束 ')).toBe('第一行 第二行 结束');
    const long = excerptOf('😀'.repeat(EXCERPT_MAX + 10));
    expect(Array.from(long)).toHaveLength(EXCERPT_MAX);
    expect(long.endsWith('…')).toBe(true);
  });

  it('shows drafts to their author and moderators only, deleted items to nobody', () => {
    const draft = { status: 'draft' as const, user_id: author.id };
    expect(canSee(draft, author)).toBe(true);
    expect(canSee(draft, moderator)).toBe(true);
    expect(canSee(draft, { id: 'someone', group: 'creator' })).toBe(false);
    expect(canSee(draft, null)).toBe(false);
    expect(canSee({ status: 'deleted', user_id: author.id }, moderator)).toBe(false);
    expect(canSee({ status: 'published', user_id: author.id }, null)).toBe(true);
  });

  it('shows what moderators hid to its author and the editors and above only', () => {
    const hidden = { status: 'hidden' as const, user_id: author.id };
    expect(canSee(hidden, author)).toBe(true);
    for (const group of ['editor', 'admin', 'superAdmin'] as const)
      expect(canSee(hidden, { id: 'staff', group })).toBe(true);
    for (const group of ['user', 'creator'] as const) expect(canSee(hidden, { id: 'someone', group })).toBe(false);
    expect(canSee(hidden, null)).toBe(false);
  });

  it('publishes a draft once when two tabs publish it at the same time', async () => {
    const draft = await createPost(deps, author, { ...input(), publish: false });
    const before = await counts();
    const results = await Promise.allSettled(
      [0, 1, 2, 3].map(() => updatePost(deps, author, draft.id, { ...input(), publish: true, version: draft.version })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409, code: 'CONTENT_CONFLICT' });
    expect(await counts()).toEqual({
      user: before.user + 1,
      section: before.section + 1,
      topic: (before.topic ?? 0) + 1,
    });
  });

  it('takes the counts away once when the author and a moderator delete at the same time', async () => {
    const post = await createPost(deps, author, { ...input(), publish: true });
    const before = await counts();
    const results = await Promise.allSettled([
      deletePost({ ...deps, jobs: queueOnly }, author, post.id),
      deletePost({ ...deps, jobs: queueOnly }, moderator, post.id),
      deletePost({ ...deps, jobs: queueOnly }, author, post.id),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await counts()).toEqual({
      user: before.user - 1,
      section: before.section - 1,
      topic: (before.topic ?? 1) - 1,
    });
    const topicLinks = await t.db
      .selectFrom('content_topic')
      .select('topic_id')
      .where('content_id', '=', post.id)
      .execute();
    expect(topicLinks).toEqual([]);
  });
});
