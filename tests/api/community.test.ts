import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import {
  COMMUNITY_RATE_LIMITS,
  CONTENT_TOPICS_MAX,
  POST_CONTENT_MAX,
  POST_IMAGES_MAX,
  type ArticleDetail,
  type CommunityPage,
  type ContentListItem,
  type FeedItem,
  type FollowState,
  type PostDetail,
  type SectionView,
  type TopicView,
} from '../../src/shared/community/community.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { saveRating } from '../../src/server/modules/catalogue/ratings.service.ts';
import { contentViewsOf } from '../../src/server/modules/community/view-counter.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { removeUser } from '../../src/server/modules/users/users.removal.ts';
import { mergedTopicPath, sectionModerators } from '../../src/components/community/page-data.ts';
import type { ModeratedSections } from '../../src/shared/community/community.ts';
import { call, data } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

type Answer = Awaited<ReturnType<typeof call>>;

interface Account {
  id: string;
  userId: number;
  token: string;
}

describe('community API: sections, topics, posts, articles, follows and lists', () => {
  let app: TestApp;
  let author: Account;
  let other: Account;
  let editor: Account;
  let sectionA: number;
  let sectionB: number;
  let game: number;
  let hiddenGame: number;
  let accountCount = 0;

  /** An account made directly (no mail round trip) with a signed access token. */
  async function account(group: UserGroup = 'user'): Promise<Account> {
    accountCount += 1;
    const name = `cm_${accountCount}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x', group });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group });
    return { id: user.id, userId: user.user_id, token };
  }

  let sectionCount = 0;
  async function addSection(name: string): Promise<number> {
    sectionCount += 1;
    const at = new Date().toISOString();
    await app.ctx.db
      .insertInto('section')
      .values({
        id: 1000 + sectionCount,
        name,
        sort_order: sectionCount,
        icon: 'messages',
        color: '#39c5bb',
        created_at: at,
        updated_at: at,
      })
      .execute();
    return 1000 + sectionCount;
  }

  /** An image stored as an upload for `kind` would be; answers its public address. */
  async function image(kind: 'post' | 'article' | 'comment' = 'post'): Promise<string> {
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff6b81' } })
      .webp()
      .toBuffer();
    const key = `${kind}/${Math.random().toString(36).slice(2, 8)}/${Date.now().toString(36)}x${Math.random().toString(36).slice(2, 8)}.webp`;
    await app.ctx.storage.put(key, bytes, 'image/webp');
    return app.ctx.storage.publicUrl(key);
  }

  /** Gives the write limits back, so tests of other rules are not refused for their volume. */
  const resetLimits = () => app.ctx.db.deleteFrom('rate_limit').execute();

  const expectFailure = (answer: Answer, status: number, code: ApiFailure['code']) => {
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
  };

  const postBody = (over: Record<string, unknown> = {}) => ({
    title: '夏日的回响',
    content: '第一次玩到结局时哭了[emoji:hikari/smile]\n大家怎么看？',
    images: [],
    sectionId: sectionA,
    topics: [],
    works: [],
    publish: true,
    ...over,
  });
  const createPost = (token: string | undefined, body: unknown) =>
    call<PostDetail>(app, 'POST', '/community/posts', token, body);
  const updatePost = (token: string | undefined, id: number, body: unknown) =>
    call<PostDetail>(app, 'PUT', `/community/posts/${id}`, token, body);
  const getPost = (token: string | undefined, id: number | string) =>
    call<PostDetail>(app, 'GET', `/community/posts/${id}`, token);
  const deletePost = (token: string | undefined, id: number) =>
    call<{ deleted: true }>(app, 'DELETE', `/community/posts/${id}`, token);
  const doc = (...paragraphs: string[]) => ({
    type: 'doc',
    content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  });
  const articleBody = (over: Record<string, unknown> = {}) => ({
    title: '一篇长评',
    slug: null,
    cover: '',
    summary: '',
    body: doc('正文第一段。', '正文第二段。'),
    sectionId: sectionA,
    topics: [],
    works: [],
    isReview: false,
    reviewWork: null,
    publish: true,
    ...over,
  });
  const createArticle = (token: string | undefined, body: unknown) =>
    call<ArticleDetail>(app, 'POST', '/community/articles', token, body);
  const updateArticle = (token: string | undefined, id: number, body: unknown) =>
    call<ArticleDetail>(app, 'PUT', `/community/articles/${id}`, token, body);
  const feed = async (query: string, token?: string) =>
    data((await call<CommunityPage<FeedItem>>(app, 'GET', `/community/feed?${query}`, token)).body);

  async function published(token: string, over: Record<string, unknown> = {}): Promise<PostDetail> {
    const answer = await createPost(token, postBody(over));
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }

  /** Counts as stored, and as counted from the rows. */
  async function counts() {
    const db = app.ctx.db;
    const users = await db.selectFrom('users').select(['id', 'post_count', 'article_count']).execute();
    const sections = await db
      .selectFrom('section')
      .select(['id', 'post_count', 'article_count', 'follower_count'])
      .execute();
    const topics = await db.selectFrom('topic').select(['id', 'use_count', 'follower_count']).execute();
    const posts = await db
      .selectFrom('post')
      .select(['user_id', 'section_id', 'id'])
      .where('status', '=', 'published')
      .execute();
    const articles = await db
      .selectFrom('article')
      .select(['user_id', 'section_id', 'id'])
      .where('status', '=', 'published')
      .execute();
    const links = await db.selectFrom('content_topic').select(['content_type', 'content_id', 'topic_id']).execute();
    const follows = await db.selectFrom('community_follow').selectAll().execute();
    const published = new Set([...posts.map((p) => `post:${p.id}`), ...articles.map((a) => `article:${a.id}`)]);
    return {
      stored: {
        users: users.map((u) => [u.id, u.post_count, u.article_count]),
        sections: sections.map((s) => [s.id, s.post_count, s.article_count, s.follower_count]),
        topics: topics.map((t) => [t.id, t.use_count, t.follower_count]),
      },
      counted: {
        users: users.map((u) => [
          u.id,
          posts.filter((p) => p.user_id === u.id).length,
          articles.filter((a) => a.user_id === u.id).length,
        ]),
        sections: sections.map((s) => [
          s.id,
          posts.filter((p) => p.section_id === s.id).length,
          articles.filter((a) => a.section_id === s.id).length,
          follows.filter((f) => f.target_type === 'section' && f.target_id === s.id).length,
        ]),
        topics: topics.map((t) => [
          t.id,
          links.filter((l) => l.topic_id === t.id && published.has(`${l.content_type}:${l.content_id}`)).length,
          follows.filter((f) => f.target_type === 'topic' && f.target_id === t.id).length,
        ]),
      },
      links: links.filter((l) => !published.has(`${l.content_type}:${l.content_id}`)),
    };
  }
  async function expectExactCounts() {
    const c = await counts();
    expect(c.stored).toEqual(c.counted);
    // Topic links are kept for published items only.
    expect(c.links).toEqual([]);
  }

  beforeAll(async () => {
    app = await createTestApp();
    author = await account();
    other = await account();
    editor = await account('editor');
    sectionA = await addSection('综合讨论');
    sectionB = await addSection('Galgame 讨论');
    game = await saveGalgame(app.ctx.db, {
      title: 'Summer Echo',
      titleZh: '蝉雨回响',
      releaseDate: '2024-07-01',
      status: 'published',
    });
    hiddenGame = await saveGalgame(app.ctx.db, { title: 'Hidden', releaseDate: '2024-07-01', status: 'draft' });
  });
  afterAll(async () => app.close());

  describe('sections and topics', () => {
    it('shows sections in order to everyone, with isFollowing only for members', async () => {
      const visitor = data((await call<SectionView[]>(app, 'GET', '/community/sections')).body);
      expect(visitor.map((s) => s.name)).toEqual(['综合讨论', 'Galgame 讨论']);
      expect(visitor[0]).toMatchObject({
        id: sectionA,
        icon: 'messages',
        color: '#39c5bb',
        postCount: expect.any(Number),
      });
      expect(visitor[0]).not.toHaveProperty('isFollowing');
      const member = data((await call<SectionView[]>(app, 'GET', '/community/sections', other.token)).body);
      expect(member[0]?.isFollowing).toBe(false);
      expect(data((await call<SectionView>(app, 'GET', `/community/sections/${sectionB}`)).body).name).toBe(
        'Galgame 讨论',
      );
      expectFailure(await call(app, 'GET', '/community/sections/999999'), 404, 'NOT_FOUND');
      expectFailure(await call(app, 'GET', '/community/sections/abc'), 400, 'VALIDATION_FAILED');
    });

    it('follows and unfollows idempotently, with exact counts under 20 concurrent clients', async () => {
      const section = await addSection('关注测试');
      const people = await Promise.all(Array.from({ length: 20 }, () => account()));
      const follow = (who: Account) =>
        call<FollowState>(app, 'POST', '/community/follow', who.token, { targetType: 'section', targetId: section });
      const unfollow = (who: Account) =>
        call<FollowState>(app, 'DELETE', `/community/follow/section/${section}`, who.token);
      const answers = await Promise.all(people.map(follow));
      for (const answer of answers) expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
      expect(data((await call<SectionView>(app, 'GET', `/community/sections/${section}`)).body).followerCount).toBe(20);

      // One member double-clicking: 20 follows at once count once; 20 unfollows at once take one away.
      const one = people[0]!;
      await Promise.all(Array.from({ length: 20 }, () => follow(one)));
      expect(data((await follow(one)).body)).toEqual({ isFollowing: true, followerCount: 20 });
      const offs = await Promise.all(Array.from({ length: 20 }, () => unfollow(one)));
      expect(offs.every((a) => a.res.status === 200)).toBe(true);
      expect(data((await unfollow(one)).body)).toEqual({ isFollowing: false, followerCount: 19 });
      // Follows and unfollows of different members interleaved.
      await Promise.all(people.flatMap((p, i) => (i % 2 === 0 ? [follow(p)] : [unfollow(p)])));
      const view = data((await call<SectionView>(app, 'GET', `/community/sections/${section}`, people[0]!.token)).body);
      expect(view).toMatchObject({ followerCount: 10, isFollowing: true });
      await expectExactCounts();

      expectFailure(
        await call(app, 'POST', '/community/follow', undefined, { targetType: 'section', targetId: section }),
        401,
        'UNAUTHORIZED',
      );
      expectFailure(
        await call(app, 'POST', '/community/follow', one.token, { targetType: 'section', targetId: 999_999 }),
        404,
        'NOT_FOUND',
      );
      for (const body of [
        { targetType: 'post', targetId: section },
        { targetType: 'section', targetId: String(section) },
        { targetType: 'section' },
        { targetType: 'section', targetId: -1 },
      ])
        expectFailure(await call(app, 'POST', '/community/follow', one.token, body), 400, 'VALIDATION_FAILED');
      expectFailure(
        await call(app, 'DELETE', `/community/follow/user/${section}`, one.token),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('makes one topic when 20 publishes name the same new topic at once, counting every use', async () => {
      const people = await Promise.all(Array.from({ length: 20 }, () => account()));
      const answers = await Promise.all(
        people.map((p, i) =>
          createPost(p.token, postBody({ title: `话题 ${i}`, topics: ['新作速报', i % 2 ? 'ＮＥＷ' : 'new'] })),
        ),
      );
      for (const answer of answers) expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
      const topics = await app.ctx.db
        .selectFrom('topic')
        .selectAll()
        .where('name_key', 'in', ['新作速报', 'new'])
        .execute();
      expect(topics).toHaveLength(2);
      expect(topics.map((t) => t.use_count)).toEqual([20, 20]);
      const first = data(answers[0]!.body);
      expect(first.topics.map((t) => t.name)).toEqual(['新作速报', expect.stringMatching(/^new$/i)]);
      const picker = data(
        (await call<CommunityPage<TopicView>>(app, 'GET', `/community/topics?keyword=${encodeURIComponent('新作')}`))
          .body,
      );
      expect(picker.items.map((t) => t.name)).toContain('新作速报');
      const topic = topics.find((t) => t.name_key === '新作速报')!;
      expect(data((await call<TopicView>(app, 'GET', `/community/topics/${topic.id}`)).body)).toMatchObject({
        useCount: 20,
        lastUsedAt: expect.any(String),
      });
      const byTopic = await feed(`topicId=${topic.id}&limit=50`);
      expect(byTopic.pagination.total).toBe(20);
      await expectExactCounts();
    });

    it('lists topics by recent use or by followers, and follows topics too', async () => {
      const popular = data(
        (await call<CommunityPage<TopicView>>(app, 'GET', '/community/topics?sort=popular&limit=50')).body,
      );
      const topic = popular.items[0]!;
      const followed = await call<FollowState>(app, 'POST', '/community/follow', other.token, {
        targetType: 'topic',
        targetId: topic.id,
      });
      expect(data(followed.body)).toEqual({ isFollowing: true, followerCount: topic.followerCount + 1 });
      const again = data(
        (await call<CommunityPage<TopicView>>(app, 'GET', '/community/topics?sort=popular', other.token)).body,
      );
      expect(again.items[0]).toMatchObject({ id: topic.id, isFollowing: true });
      for (const bad of ['sort=old', 'limit=51', 'limit=0', 'page=0', `keyword=${'x'.repeat(21)}`])
        expectFailure(await call(app, 'GET', `/community/topics?${bad}`), 400, 'VALIDATION_FAILED');
    });
  });

  describe('posts', () => {
    it('keeps visitors out of writes and drafts, and shows published posts to everyone', async () => {
      const post = await published(author.token);
      expectFailure(await createPost(undefined, postBody()), 401, 'UNAUTHORIZED');
      expectFailure(await updatePost(undefined, post.id, { ...postBody(), version: 1 }), 401, 'UNAUTHORIZED');
      expectFailure(await deletePost(undefined, post.id), 401, 'UNAUTHORIZED');
      const seen = data((await getPost(undefined, post.id)).body);
      expect(seen).toMatchObject({ id: post.id, status: 'published', viewer: { canEdit: false, canModerate: false } });
      expect(seen.author).toEqual({ userId: author.userId, name: expect.any(String), avatar: '' });

      const draft = data(
        (await createPost(author.token, postBody({ publish: false, title: '', sectionId: null }))).body,
      );
      expect(draft).toMatchObject({ status: 'draft', title: '', section: null, publishedAt: null });
      expectFailure(await getPost(undefined, draft.id), 404, 'NOT_FOUND');
      expectFailure(await getPost(other.token, draft.id), 404, 'NOT_FOUND');
      expect(data((await getPost(author.token, draft.id)).body).viewer).toMatchObject({
        canEdit: true,
        canModerate: false,
      });
      expect(data((await getPost(editor.token, draft.id)).body).viewer).toMatchObject({
        canEdit: false,
        canModerate: true,
      });
    });

    it('lets only the author edit, the author or a moderator delete, and moderators pin and feature', async () => {
      const post = await published(author.token);
      const draft = data((await createPost(author.token, postBody({ publish: false }))).body);
      expectFailure(await updatePost(other.token, post.id, { ...postBody(), version: post.version }), 403, 'FORBIDDEN');
      expectFailure(
        await updatePost(editor.token, post.id, { ...postBody(), version: post.version }),
        403,
        'FORBIDDEN',
      );
      expectFailure(
        await updatePost(other.token, draft.id, { ...postBody(), version: draft.version }),
        404,
        'NOT_FOUND',
      );
      expectFailure(await deletePost(other.token, post.id), 403, 'FORBIDDEN');
      expectFailure(await deletePost(other.token, draft.id), 404, 'NOT_FOUND');

      const moderation = (token: string, id: number, body: unknown) =>
        call<PostDetail>(app, 'PUT', `/community/posts/${id}/moderation`, token, body);
      expectFailure(await moderation(author.token, post.id, { pinned: true }), 403, 'FORBIDDEN');
      expectFailure(await moderation(editor.token, post.id, {}), 400, 'VALIDATION_FAILED');
      expectFailure(await moderation(editor.token, post.id, { pinned: 'yes' }), 400, 'VALIDATION_FAILED');
      expectFailure(await moderation(editor.token, draft.id, { pinned: true }), 400, 'VALIDATION_FAILED');
      const pinned = data((await moderation(editor.token, post.id, { pinned: true, featured: true })).body);
      expect(pinned).toMatchObject({ pinned: true, featured: true, version: post.version });

      expect(data((await deletePost(editor.token, post.id)).body)).toEqual({ deleted: true });
      expectFailure(await getPost(author.token, post.id), 404, 'NOT_FOUND');
      expectFailure(await getPost(editor.token, post.id), 404, 'NOT_FOUND');
      expectFailure(await deletePost(author.token, post.id), 404, 'NOT_FOUND');
      expectFailure(
        await updatePost(author.token, post.id, { ...postBody(), version: post.version + 1 }),
        404,
        'NOT_FOUND',
      );
      expect(data((await deletePost(author.token, draft.id)).body)).toEqual({ deleted: true });
      await expectExactCounts();
    });

    it('goes draft → publish → edit → delete with every count exact', async () => {
      const writer = await account();
      const section = await addSection('计数测试');
      const draft = data(
        (
          await createPost(
            writer.token,
            postBody({ publish: false, sectionId: section, topics: ['计数话题', '另一个'] }),
          )
        ).body,
      );
      expect(draft.topics).toEqual([
        { id: 0, name: '计数话题', color: '' },
        { id: 0, name: '另一个', color: '' },
      ]);
      const user = () =>
        app.ctx.db.selectFrom('users').select(['post_count']).where('id', '=', writer.id).executeTakeFirstOrThrow();
      const sectionRow = () =>
        app.ctx.db.selectFrom('section').select(['post_count']).where('id', '=', section).executeTakeFirstOrThrow();
      expect((await user()).post_count).toBe(0);
      expect((await sectionRow()).post_count).toBe(0);
      expect(
        await app.ctx.db.selectFrom('topic').select('id').where('name', '=', '计数话题').executeTakeFirst(),
      ).toBeUndefined();

      const saved = data(
        (
          await updatePost(writer.token, draft.id, {
            ...postBody({ publish: false, sectionId: section, topics: ['计数话题', '另一个'] }),
            version: 1,
          })
        ).body,
      );
      expect(saved).toMatchObject({ status: 'draft', version: 2 });
      const live = data(
        (
          await updatePost(writer.token, draft.id, {
            ...postBody({ sectionId: section, topics: ['计数话题', '另一个'] }),
            version: 2,
          })
        ).body,
      );
      expect(live).toMatchObject({ status: 'published', version: 3, editedAt: null });
      expect(live.publishedAt).not.toBeNull();
      expect(live.topics.every((t) => t.id > 0)).toBe(true);
      expect((await user()).post_count).toBe(1);
      expect((await sectionRow()).post_count).toBe(1);
      await expectExactCounts();

      // Moving it to another section and changing a topic moves the counts with it; the edit within
      // five minutes of publishing leaves no edited mark.
      const moved = data(
        (
          await updatePost(writer.token, draft.id, {
            ...postBody({ title: '改个标题', sectionId: sectionB, topics: ['计数话题', '第三个'] }),
            version: 3,
          })
        ).body,
      );
      expect(moved).toMatchObject({ section: { id: sectionB }, editedAt: null, version: 4 });
      expect((await sectionRow()).post_count).toBe(0);
      await expectExactCounts();
      expectFailure(
        await updatePost(writer.token, draft.id, { ...postBody({ publish: false }), version: 4 }),
        400,
        'VALIDATION_FAILED',
      );

      await deletePost(writer.token, draft.id);
      expect((await user()).post_count).toBe(0);
      await expectExactCounts();
      const feedAfter = await feed(`sectionId=${sectionB}&limit=50`);
      expect(feedAfter.items.some((i) => i.id === draft.id && i.type === 'post')).toBe(false);
    });

    it('marks an edit more than five minutes after publishing as edited', async () => {
      const { updatePost: save } = await import('../../src/server/modules/community/posts.service.ts');
      const post = await published(author.token);
      const viewer = { id: author.id, group: 'user' as const };
      const publishedAt = new Date(post.publishedAt!).getTime();
      const input = { ...postBody(), topics: [], works: [], images: [], sectionId: sectionA, publish: true };
      // Four minutes later: no mark, even when the text changes.
      let detail = await save(
        app.ctx,
        viewer,
        post.id,
        { ...input, title: '四分钟后', version: post.version },
        new Date(publishedAt + 4 * 60_000),
      );
      expect(detail.editedAt).toBeNull();
      // Six minutes later without a change to title or text: still no mark.
      detail = await save(
        app.ctx,
        viewer,
        post.id,
        { ...input, title: '四分钟后', version: detail.version },
        new Date(publishedAt + 6 * 60_000),
      );
      expect(detail.editedAt).toBeNull();
      const later = new Date(publishedAt + 7 * 60_000);
      detail = await save(app.ctx, viewer, post.id, { ...input, title: '七分钟后', version: detail.version }, later);
      expect(detail.editedAt).toBe(later.toISOString());
      expect(detail.publishedAt).toBe(post.publishedAt);
    });

    it('refuses a save from a stale version and changes nothing', async () => {
      const post = await published(author.token);
      const first = await updatePost(author.token, post.id, {
        ...postBody({ title: '第一个标签页' }),
        version: post.version,
      });
      expect(first.res.status).toBe(200);
      const stale = await updatePost(author.token, post.id, {
        ...postBody({ title: '第二个标签页' }),
        version: post.version,
      });
      expectFailure(stale, 409, 'CONTENT_CONFLICT');
      expect(data((await getPost(author.token, post.id)).body)).toMatchObject({
        title: '第一个标签页',
        version: post.version + 1,
      });
      // Two tabs saving at once from the same version: one wins.
      const current = data((await getPost(author.token, post.id)).body).version;
      const racing = await Promise.all(
        ['A', 'B', 'C', 'D'].map((tab) =>
          updatePost(author.token, post.id, { ...postBody({ title: tab }), version: current }),
        ),
      );
      expect(racing.filter((a) => a.res.status === 200)).toHaveLength(1);
      expect(racing.filter((a) => a.body.code === 'CONTENT_CONFLICT')).toHaveLength(3);
      expect(data((await getPost(author.token, post.id)).body).version).toBe(current + 1);
      for (const version of ['1', null, 0, 1.5, undefined])
        expectFailure(await updatePost(author.token, post.id, { ...postBody(), version }), 400, 'VALIDATION_FAILED');
    });

    it('validates every field, wrong types and hostile input', async () => {
      await resetLimits();
      const bad = async (over: Record<string, unknown>, status = 400, code: ApiFailure['code'] = 'VALIDATION_FAILED') =>
        expectFailure(await createPost(author.token, postBody(over)), status, code);
      await bad({ title: '' });
      await bad({ title: '   ' });
      await bad({ title: 42 });
      await bad({ title: 'x'.repeat(101) });
      await bad({ title: 'a\nb' });
      await bad({ title: 'bell\u0007' });
      await bad({ title: 'rtl\u202Eoverride' });
      await bad({ content: 'x'.repeat(POST_CONTENT_MAX + 1) });
      await bad({ content: 'nul\u0000' });
      await bad({ content: ['array'] });
      await bad({ images: 'https://example.com/a.webp' });
      await bad({ images: Array.from({ length: POST_IMAGES_MAX + 1 }, () => 'https://example.com/a.webp') });
      await bad({ images: ['javascript:alert(1)'] });
      await bad({ images: ['https://elsewhere.example/a.webp'] });
      await bad({ images: [await image('comment')] });
      await bad({ images: [`${app.ctx.storage.publicUrl('post/x/a.webp').replace('a.webp', '../avatar/1/a.webp')}`] });
      await bad({ images: [app.ctx.storage.publicUrl('post/1/missing.webp')] }, 400, 'UPLOAD_INCOMPLETE');
      await bad({ content: `看图[img]${app.ctx.storage.publicUrl('avatar/1/a.webp')}[/img]` });
      await bad({ sectionId: '1' });
      await bad({ sectionId: 999_999 });
      await bad({ sectionId: null });
      await bad({ topics: Array.from({ length: CONTENT_TOPICS_MAX + 1 }, (_, i) => `t${i}`) });
      await bad({ topics: ['#hash'] });
      await bad({ topics: ['x'.repeat(21)] });
      await bad({ topics: [''] });
      await bad({ topics: 'one' });
      await bad({ works: [{ type: 'galgame', id: 999_999 }] });
      await bad({ works: [{ type: 'galgame', id: hiddenGame }] });
      await bad({ works: [{ type: 'lightnovel', id: 1 }] });
      await bad({ works: [{ type: 'movie', id: game }] });
      await bad({ works: [{ type: 'galgame', id: String(game) }] });
      await bad({ publish: 'true' });
      // Larger than any API body: refused before it is read.
      await bad({ content: 'x'.repeat(10 * 1024 * 1024) }, 413, 'PAYLOAD_TOO_LARGE');
      const malformed = await app.request('/api/community/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${author.token}` },
        body: '{"title":',
      });
      expect(malformed.status).toBe(400);
      for (const id of ['0', '-1', '1e3', '0x10', 'abc', '01'])
        expectFailure(await getPost(undefined, id), 400, 'VALIDATION_FAILED');

      // What passes: tabs and line breaks in the text, our images, visible games, topics given twice once.
      const images = [await image(), await image()];
      const ok = data(
        (
          await createPost(
            author.token,
            postBody({
              title: '  带图的帖子  ',
              content: `第一行\r\n\t第二行[img]${images[0]}[/img][img]https://elsewhere.example/x.png[/img]`,
              images,
              topics: ['重复', '重复 ', 'ＲＥＰＥＡＴ', 'repeat'],
              works: [
                { type: 'galgame', id: game },
                { type: 'galgame', id: game },
              ],
            }),
          )
        ).body,
      );
      expect(ok).toMatchObject({ title: '带图的帖子', images });
      expect(ok.content).toBe(`第一行\n\t第二行[img]${images[0]}[/img][img]https://elsewhere.example/x.png[/img]`);
      expect(ok.topics.map((t) => t.name)).toEqual(['重复', 'REPEAT']);
      expect(ok.works).toEqual([{ type: 'galgame', id: game, title: '蝉雨回响', cover: '', url: `/galgame/${game}` }]);
      const item = (await feed('limit=1')).items[0]!;
      expect(item).toMatchObject({ id: ok.id, images, excerpt: '第一行 第二行' });
      // A draft may be incomplete; it still refuses what is never valid.
      expect(
        (await createPost(author.token, postBody({ publish: false, title: '', sectionId: null }))).res.status,
      ).toBe(201);
      expectFailure(
        await createPost(author.token, postBody({ publish: false, images: ['https://elsewhere.example/a.webp'] })),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('keeps banned members from writing', async () => {
      const banned = await account();
      await app.ctx.db.updateTable('users').set({ status: 'banned' }).where('id', '=', banned.id).execute();
      expectFailure(await createPost(banned.token, postBody()), 403, 'ACCOUNT_BANNED');
      expectFailure(
        await call(app, 'POST', '/community/follow', banned.token, { targetType: 'section', targetId: sectionA }),
        403,
        'ACCOUNT_BANNED',
      );
    });

    it('limits creating to 20 an hour and publishing to 10 an hour, with Retry-After', async () => {
      const busy = await account();
      for (let i = 0; i < COMMUNITY_RATE_LIMITS.publish.limit; i++)
        expect((await createPost(busy.token, postBody())).res.status).toBe(201);
      const refused = await createPost(busy.token, postBody());
      expectFailure(refused, 429, 'RATE_LIMITED');
      expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      // Drafts are still fine, up to the creation limit.
      for (let i = COMMUNITY_RATE_LIMITS.publish.limit; i < COMMUNITY_RATE_LIMITS.create.limit; i++)
        expect((await createPost(busy.token, postBody({ publish: false }))).res.status).toBe(201);
      expectFailure(await createPost(busy.token, postBody({ publish: false })), 429, 'RATE_LIMITED');
      const posts = await app.ctx.db.selectFrom('post').select('id').where('user_id', '=', busy.id).execute();
      expect(posts).toHaveLength(COMMUNITY_RATE_LIMITS.create.limit);
    });

    it('counts views of published posts', async () => {
      const post = await published(author.token);
      await getPost(undefined, post.id);
      await getPost(other.token, post.id);
      await contentViewsOf(app.ctx).flush();
      expect(data((await getPost(undefined, post.id)).body).viewCount).toBe(2);
    });
  });

  describe('articles', () => {
    it('renders the body on the server, finds it by slug, and keeps slugs unique under concurrency', async () => {
      await resetLimits();
      const cover = await image('article');
      const hostile = {
        type: 'doc',
        content: [
          { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: '标题' }] },
          { type: 'paragraph', content: [{ type: 'text', text: '<script>alert(1)</script>' }] },
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: '链接', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
            ],
          },
        ],
      };
      const created = await createArticle(
        author.token,
        articleBody({ slug: 'summer-echo-review', cover, body: hostile }),
      );
      expect(created.res.status, JSON.stringify(created.body)).toBe(201);
      const article = data(created.body);
      expect(article).toMatchObject({ slug: 'summer-echo-review', cover, status: 'published', isReview: false });
      expect(article.bodyHtml).not.toMatch(/<script|javascript:/i);
      expect(article.bodyHtml).toContain('&lt;script&gt;');
      expect(article.body).toMatchObject({ type: 'doc' });
      const bySlug = data((await call<ArticleDetail>(app, 'GET', '/community/articles/summer-echo-review')).body);
      expect(bySlug.id).toBe(article.id);
      expect(data((await call<ArticleDetail>(app, 'GET', `/community/articles/${article.id}`)).body).slug).toBe(
        'summer-echo-review',
      );
      expectFailure(await call(app, 'GET', '/community/articles/no-such-slug'), 404, 'NOT_FOUND');
      expectFailure(await call(app, 'GET', '/community/articles/Bad_Slug'), 400, 'VALIDATION_FAILED');
      const item = (await feed('type=article&limit=1')).items[0]!;
      expect(item).toMatchObject({ type: 'article', images: [cover], url: '/community/article/summer-echo-review' });
      expect(item.excerpt).toContain('标题');

      expectFailure(await createArticle(other.token, articleBody({ slug: 'summer-echo-review' })), 409, 'SLUG_TAKEN');
      for (const slug of ['ab', 'UPPER', '-lead', '12345', 'a b c', 'x'.repeat(81), 'ünï'])
        expectFailure(await createArticle(author.token, articleBody({ slug })), 400, 'VALIDATION_FAILED');
      const people = await Promise.all(Array.from({ length: 8 }, () => account()));
      const racing = await Promise.all(
        people.map((p) => createArticle(p.token, articleBody({ slug: 'race-for-a-slug' }))),
      );
      expect(racing.filter((a) => a.res.status === 201)).toHaveLength(1);
      for (const lost of racing.filter((a) => a.res.status !== 201)) expectFailure(lost, 409, 'SLUG_TAKEN');
      // Saving again with its own slug is fine; an empty slug frees it.
      const own = data(
        (
          await updateArticle(author.token, article.id, {
            ...articleBody({ slug: 'summer-echo-review', cover }),
            version: article.version,
          })
        ).body,
      );
      expect(own.slug).toBe('summer-echo-review');
      const freed = data(
        (await updateArticle(author.token, article.id, { ...articleBody({ slug: '', cover }), version: own.version }))
          .body,
      );
      expect(freed.slug).toBeNull();
      expect((await createArticle(other.token, articleBody({ slug: 'summer-echo-review' }))).res.status).toBe(201);
      await expectExactCounts();
    });

    it('validates the body, the cover and publishing needs', async () => {
      await resetLimits();
      const bad = async (over: Record<string, unknown>) =>
        expectFailure(await createArticle(author.token, articleBody(over)), 400, 'VALIDATION_FAILED');
      await bad({ body: 'text' });
      await bad({ body: { type: 'paragraph' } });
      await bad({ body: { type: 'doc', content: [{ type: 'script' }] } });
      await bad({ body: doc() });
      await bad({ cover: 'https://elsewhere.example/c.webp' });
      await bad({ cover: await image('post') });
      await bad({ summary: 'x'.repeat(201) });
      await bad({ isReview: 'yes' });
      await bad({ title: '' });
      const draft = await createArticle(author.token, articleBody({ publish: false, body: doc(), title: '' }));
      expect(draft.res.status).toBe(201);
    });

    it('publishes a review only with the author’s own rating of the work', async () => {
      await resetLimits();
      const reviewer = await account();
      const review = articleBody({
        isReview: true,
        reviewWork: { type: 'galgame', id: game },
        works: [{ type: 'galgame', id: game }],
      });
      const refused = await createArticle(reviewer.token, review);
      expectFailure(refused, 400, 'VALIDATION_FAILED');
      expect(refused.body.message).toContain('蝉雨回响');
      expectFailure(await createArticle(reviewer.token, articleBody({ isReview: true })), 400, 'VALIDATION_FAILED');
      expectFailure(
        await createArticle(
          reviewer.token,
          articleBody({ isReview: true, reviewWork: { type: 'galgame', id: hiddenGame } }),
        ),
        400,
        'VALIDATION_FAILED',
      );
      // Another member's rating does not count.
      await saveRating(app.ctx.db, other.id, game, { score: 3, status: 'dropped', text: '', spoiler: false });
      expectFailure(await createArticle(reviewer.token, review), 400, 'VALIDATION_FAILED');
      await saveRating(app.ctx.db, reviewer.id, game, { score: 9, status: 'completed', text: '', spoiler: false });
      const article = data((await createArticle(reviewer.token, review)).body);
      expect(article).toMatchObject({
        isReview: true,
        reviewWork: { type: 'galgame', id: game, title: '蝉雨回响' },
        rating: { score: 9, status: 'completed' },
      });
      expect((await feed('type=article&limit=1')).items[0]).toMatchObject({ id: article.id, isReview: true });
    });
  });

  describe('lists', () => {
    let lister: Account;
    let section: number;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      await resetLimits();
      lister = await account();
      section = await addSection('列表测试');
      const make = async (name: string, over: Record<string, unknown>) => {
        const answer = await createPost(lister.token, postBody({ title: name, sectionId: section, ...over }));
        expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
        ids[name] = data(answer.body).id;
      };
      await make('old', {});
      await make('liked', {});
      await make('pinned', {});
      await make('newest', {});
      const article = data(
        (await createArticle(lister.token, articleBody({ title: 'article', sectionId: section }))).body,
      );
      ids.article = article.id;
      await createPost(lister.token, postBody({ title: 'draft', sectionId: section, publish: false }));
      // An old post, and likes and favourites on another (as the reactions module would count them).
      await app.ctx.db
        .updateTable('post')
        .set({ published_at: '2020-01-01T00:00:00.000Z' })
        .where('id', '=', ids.old!)
        .execute();
      await app.ctx.db
        .updateTable('post')
        .set({ like_count: 50, comment_count: 1 })
        .where('id', '=', ids.old!)
        .execute();
      await app.ctx.db.updateTable('post').set({ like_count: 5 }).where('id', '=', ids.liked!).execute();
      await call(app, 'PUT', `/community/posts/${ids.pinned}/moderation`, editor.token, { pinned: true });
      await call(app, 'PUT', `/community/articles/${ids.article}/moderation`, editor.token, { featured: true });
    });

    it('sorts the feed newest first with pinned first in a section, hot, and featured', async () => {
      const titles = (page: CommunityPage<FeedItem>) => page.items.map((i) => i.title);
      expect(titles(await feed(`sectionId=${section}`))).toEqual(['pinned', 'article', 'newest', 'liked', 'old']);
      expect(titles(await feed(`sectionId=${section}&type=post`))).toEqual(['pinned', 'newest', 'liked', 'old']);
      expect(titles(await feed(`sectionId=${section}&type=article`))).toEqual(['article']);
      // Recent ones first, then by likes + 2 × comments + 2 × favourites.
      expect(titles(await feed(`sectionId=${section}&sort=hot`))).toEqual([
        'liked',
        'article',
        'newest',
        'pinned',
        'old',
      ]);
      expect(titles(await feed(`sectionId=${section}&sort=featured`))).toEqual(['article']);
      const all = await feed('sort=featured&limit=50');
      expect(all.items.every((i) => i.featured)).toBe(true);
      // Pages split the same order without repeating anything.
      const first = await feed(`sectionId=${section}&limit=2&page=1`);
      const second = await feed(`sectionId=${section}&limit=2&page=2`);
      const third = await feed(`sectionId=${section}&limit=2&page=3`);
      expect([...titles(first), ...titles(second), ...titles(third)]).toEqual([
        'pinned',
        'article',
        'newest',
        'liked',
        'old',
      ]);
      expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
      const item = first.items[0]!;
      expect(item).toMatchObject({
        type: 'post',
        pinned: true,
        section: { id: section, name: '列表测试' },
        url: `/community/post/${ids.pinned}`,
      });
      for (const bad of ['type=video', 'sort=top', 'sectionId=abc', 'limit=51', 'page=0'])
        expectFailure(await call(app, 'GET', `/community/feed?${bad}`), 400, 'VALIDATION_FAILED');
      expect((await feed('sectionId=999999')).items).toEqual([]);
    });

    it('lists a user’s content, drafts and published items', async () => {
      const content = (query: string, token?: string) =>
        call<CommunityPage<ContentListItem>>(app, 'GET', `/user/content?${query}`, token);
      const mine = data((await content(`userId=${lister.userId}`)).body);
      expect(mine.pagination).toEqual({ page: 1, limit: 10, total: 5, totalPages: 1 });
      expect(mine.items.every((i) => i.status === 'published')).toBe(true);
      expect(
        data((await content(`userId=${lister.userId}&contentType=article`)).body).items.map((i) => i.title),
      ).toEqual(['article']);
      expect(data((await content(`userId=${lister.userId}&pageSize=2&page=2`)).body).items).toHaveLength(2);
      expectFailure(await content('userId=999999'), 404, 'NOT_FOUND');
      for (const bad of [
        '',
        'userId=abc',
        `userId=${lister.userId}&pageSize=51`,
        `userId=${lister.userId}&contentType=video`,
      ])
        expectFailure(await content(bad), 400, 'VALIDATION_FAILED');

      const drafts = data((await call<CommunityPage<ContentListItem>>(app, 'GET', '/user/drafts', lister.token)).body);
      expect(drafts.items.map((i) => [i.title, i.status])).toEqual([['draft', 'draft']]);
      expectFailure(await call(app, 'GET', '/user/drafts'), 401, 'UNAUTHORIZED');
      const mineLive = data(
        (await call<CommunityPage<ContentListItem>>(app, 'GET', '/user/published?type=post&limit=2', lister.token))
          .body,
      );
      expect(mineLive.pagination.total).toBe(4);
      expect(mineLive.items[0]).toMatchObject({
        type: 'post',
        section: { id: section },
        url: expect.stringMatching(/^\/community\/post\//),
      });
    });

    it('lists favourite posts and articles, as /favorite/galgames does, leaving out deleted ones', async () => {
      const fan = await account();
      for (const [itemType, itemId] of [
        ['post', ids.old],
        ['post', ids.newest],
        ['article', ids.article],
      ] as const) {
        const added = await call(app, 'POST', '/user/favorites', fan.token, { itemType, itemId });
        expect(added.res.status, JSON.stringify(added.body)).toBe(200);
      }
      const posts = data((await call<CommunityPage<FeedItem>>(app, 'GET', '/favorite/posts', fan.token)).body);
      expect(posts.items.map((i) => i.title)).toEqual(['newest', 'old']);
      expect(posts.items[0]!.favoriteCount).toBe(1);
      const byVisitor = data(
        (await call<CommunityPage<FeedItem>>(app, 'GET', `/favorite/articles?userId=${fan.userId}`)).body,
      );
      expect(byVisitor.items.map((i) => i.title)).toEqual(['article']);
      expect(
        data((await call<CommunityPage<FeedItem>>(app, 'GET', `/favorite/posts?userId=${fan.id}&keyword=NEW`)).body)
          .items,
      ).toHaveLength(1);
      expectFailure(await call(app, 'GET', '/favorite/posts'), 400, 'VALIDATION_FAILED');
      expectFailure(await call(app, 'GET', '/favorite/posts?userId=999999'), 404, 'NOT_FOUND');
      // A favourite of a draft is refused; a deleted post leaves the list.
      const draft = data((await createPost(lister.token, postBody({ publish: false }))).body);
      expectFailure(
        await call(app, 'POST', '/user/favorites', fan.token, { itemType: 'post', itemId: draft.id }),
        404,
        'NOT_FOUND',
      );
      await deletePost(lister.token, ids.old!);
      expect(
        data((await call<CommunityPage<FeedItem>>(app, 'GET', '/favorite/posts', fan.token)).body).items.map(
          (i) => i.title,
        ),
      ).toEqual(['newest']);
      expect(data((await getPost(fan.token, ids.newest!)).body).viewer).toMatchObject({
        isFavorited: true,
        isLiked: false,
      });
    });

    it('removes a user’s posts, articles and follows with their account, recounting what they counted in', async () => {
      await resetLimits();
      const leaving = await account();
      await published(leaving.token, { topics: ['离开的话题'] });
      await createArticle(leaving.token, articleBody({ topics: ['离开的话题'] }));
      await call(app, 'POST', '/community/follow', leaving.token, { targetType: 'section', targetId: sectionA });
      await removeUser({ db: app.ctx.db, targets: app.ctx.targets }, leaving.id);
      await expectExactCounts();
      const topic = await app.ctx.db
        .selectFrom('topic')
        .select('use_count')
        .where('name', '=', '离开的话题')
        .executeTakeFirstOrThrow();
      expect(topic.use_count).toBe(0);
    });
  });

  describe('section moderators and merged topics', () => {
    it('tells a member which sections they moderate, and shows a section’s moderators on its page', async () => {
      const moderator = await account('creator');
      const appoint = await call(app, 'POST', `/creator/sections/${sectionB}/moderators`, editor.token, {
        user: String(moderator.userId),
      });
      expect(appoint.res.status, JSON.stringify(appoint.body)).toBe(200);
      const moderated = async (token?: string) =>
        call<ModeratedSections>(app, 'GET', '/user/moderated-sections', token);
      expect(data((await moderated(moderator.token)).body)).toEqual({ sectionIds: [sectionB] });
      expect(data((await moderated(other.token)).body)).toEqual({ sectionIds: [] });
      expectFailure(await moderated(), 401, 'UNAUTHORIZED');

      // The page's line of moderators, with the tags that drop it when one of them changes name or avatar.
      const shown = await sectionModerators(app.ctx, String(sectionB));
      expect(shown.people.map((person) => person.userId)).toEqual([moderator.userId]);
      expect(shown.tags).toEqual([`user:${moderator.id}`]);
      expect(await sectionModerators(app.ctx, String(sectionA))).toEqual({ people: [], tags: [] });
      for (const raw of ['0', 'abc', '1e3', undefined])
        expect(await sectionModerators(app.ctx, raw)).toEqual({ people: [], tags: [] });

      // The moderator's post page learns they moderate its section from the item's own flag as well.
      const post = await published(author.token, { sectionId: sectionB });
      const seen = data((await call<PostDetail>(app, 'GET', `/community/posts/${post.id}`, moderator.token)).body);
      expect(seen.viewer.canModerate).toBe(true);
      const elsewhere = await published(author.token, { sectionId: sectionA });
      expect(
        data((await call<PostDetail>(app, 'GET', `/community/posts/${elsewhere.id}`, moderator.token)).body).viewer
          .canModerate,
      ).toBe(false);
    });

    it('leads the address of a merged topic to the topic it went into, through later merges', async () => {
      await resetLimits();
      await published(author.token, { topics: ['合并前甲'] });
      await published(author.token, { topics: ['合并前乙'] });
      await published(author.token, { topics: ['合并前丙'] });
      const idOf = async (name: string) =>
        (await app.ctx.db.selectFrom('topic').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
      const [a, b, c] = [await idOf('合并前甲'), await idOf('合并前乙'), await idOf('合并前丙')];
      const merge = async (from: number, into: number) => {
        const answer = await call(app, 'POST', `/creator/topics/${from}/merge`, editor.token, { intoId: into });
        expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
      };
      // Topics that exist, ids never used and malformed ones lead nowhere.
      for (const raw of [String(a), String(b), '999999', '0', '-1', 'abc', undefined])
        expect(await mergedTopicPath(app.ctx.db, raw)).toBeNull();
      await merge(a, b);
      expect(await mergedTopicPath(app.ctx.db, String(a))).toBe(`/community/topic/${b}`);
      expect(await mergedTopicPath(app.ctx.db, String(b))).toBeNull();
      await merge(b, c);
      expect(await mergedTopicPath(app.ctx.db, String(a))).toBe(`/community/topic/${c}`);
      expect(await mergedTopicPath(app.ctx.db, String(b))).toBe(`/community/topic/${c}`);
      expectFailure(await call(app, 'GET', `/community/topics/${a}`), 404, 'NOT_FOUND');
    });
  });
});
