import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiResponse } from '../../src/shared/api.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import { parseMarkers } from '../../src/shared/comment-markers.ts';
import type { CommentPage, CommentView } from '../../src/shared/comments/comments.ts';
import {
  COMMUNITY_RATE_LIMITS,
  type ArticleDetail,
  type CommunityPage,
  type ContentListItem,
  type FeedItem,
  type FollowState,
  type PostDetail,
} from '../../src/shared/community/community.ts';
import { REPORTS_PER_DAY, type LikeState } from '../../src/shared/reactions/reactions.ts';
import { createHttpServer, type AstroHandler, type HttpServer } from '../../src/server/http/server.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { peekRateLimit } from '../../src/server/platform/rate-limit.ts';
import { call, data, type Answer } from '../support/accounts.ts';
import { createTestApp, insertSection, type TestApp } from '../support/test-app.ts';

/**
 * The community, comments, likes and reports under attack: other users' ids, wrong types, hidden and
 * oversized text, markers pointing where they should not, floods, races, and bodies sent slowly or cut
 * off. Each refusal is a 4xx with a stable code and a translated message, and leaves the database as it
 * was; counts stay exact however many clients write at once.
 */

interface Account {
  id: string;
  userId: number;
  token: string;
}

/** One past the largest id an `integer` column holds on PostgreSQL. */
const PAST_INT = 2 ** 31;
/** The longest id a decimal id may be written with. */
const FIFTEEN_DIGITS = 999_999_999_999_999;

describe('community, comments, likes and reports under attack', () => {
  let app: TestApp;
  let author: Account;
  let other: Account;
  let editor: Account;
  let creator: Account;
  let section: number;
  let game: number;
  let accountCount = 0;

  async function account(group: UserGroup = 'user'): Promise<Account> {
    accountCount += 1;
    const name = `atk_${accountCount}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x', group });
    return {
      id: user.id,
      userId: user.user_id,
      token: await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group }),
    };
  }

  /** An image stored as POST /api/upload would have it stored for `kind`; answers its public address. */
  async function image(kind: 'post' | 'article' | 'comment' | 'avatar'): Promise<string> {
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#39c5bb' } })
      .webp()
      .toBuffer();
    const key = `${kind}/${Math.random().toString(36).slice(2, 8)}/${Math.random().toString(36).slice(2, 10)}.webp`;
    await app.ctx.storage.put(key, bytes, 'image/webp');
    return app.ctx.storage.publicUrl(key);
  }

  const resetLimits = () => app.ctx.db.deleteFrom('rate_limit').execute();

  /** A refusal: the status, the stable code, and a message a person can read (translated, not a key). */
  function expectRefused(answer: Answer, status: number, code: ApiFailure['code']) {
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message.length).toBeGreaterThan(0);
    expect(answer.body.message).not.toMatch(/^(server|validation|comments)\.[\w.]+(\?|$)/);
  }

  const postBody = (over: Record<string, unknown> = {}) => ({
    title: '攻击测试',
    content: '正文',
    images: [],
    sectionId: section,
    topics: [],
    works: [],
    publish: true,
    ...over,
  });
  const doc = (...paragraphs: string[]) => ({
    type: 'doc',
    content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  });
  const articleBody = (over: Record<string, unknown> = {}) => ({
    title: '攻击测试文章',
    slug: null,
    cover: '',
    summary: '',
    body: doc('正文'),
    sectionId: section,
    topics: [],
    works: [],
    isReview: false,
    reviewWork: null,
    publish: true,
    ...over,
  });

  async function newPost(who: Account, over: Record<string, unknown> = {}): Promise<PostDetail> {
    const answer = await call<PostDetail>(app, 'POST', '/community/posts', who.token, postBody(over));
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }
  async function newArticle(who: Account, over: Record<string, unknown> = {}): Promise<ArticleDetail> {
    const answer = await call<ArticleDetail>(app, 'POST', '/community/articles', who.token, articleBody(over));
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }
  async function newComment(who: Account, targetType: string, targetId: number, content = '评论', parentId?: number) {
    await app.ctx.db.deleteFrom('rate_limit').where('key', 'like', 'comment:%').execute();
    const answer = await call<CommentView>(app, 'POST', '/comments', who.token, {
      targetType,
      targetId,
      content,
      ...(parentId === undefined ? {} : { parentId }),
    });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }

  /** What the attacks must not change: every row and count of the community, comments and reactions. */
  async function snapshot() {
    const db = app.ctx.db;
    return {
      posts: await db
        .selectFrom('post')
        .select([
          'id',
          'status',
          'version',
          'title',
          'content',
          'section_id',
          'like_count',
          'comment_count',
          'favorite_count',
          'pinned',
          'featured',
        ])
        .orderBy('id')
        .execute(),
      articles: await db
        .selectFrom('article')
        .select(['id', 'status', 'version', 'title', 'slug', 'body_html', 'like_count', 'comment_count', 'pinned'])
        .orderBy('id')
        .execute(),
      comments: await db
        .selectFrom('comment')
        .select(['id', 'status', 'content', 'pinned', 'like_count', 'reply_count'])
        .orderBy('id')
        .execute(),
      likes: await db
        .selectFrom('reaction_like')
        .select(['user_id', 'target_type', 'target_id'])
        .orderBy('user_id')
        .orderBy('target_type')
        .orderBy('target_id')
        .execute(),
      reports: await db.selectFrom('report').select(['id', 'target_type', 'target_id']).orderBy('id').execute(),
      follows: await db
        .selectFrom('community_follow')
        .select(['user_id', 'target_type', 'target_id'])
        .orderBy('user_id')
        .orderBy('target_type')
        .orderBy('target_id')
        .execute(),
      favorites: await db.selectFrom('favorite').select(['user_id', 'item_type', 'item_id']).orderBy('id').execute(),
      topics: await db
        .selectFrom('topic')
        .select(['id', 'name', 'use_count', 'follower_count'])
        .orderBy('id')
        .execute(),
      sections: await db
        .selectFrom('section')
        .select(['id', 'post_count', 'article_count', 'follower_count'])
        .orderBy('id')
        .execute(),
      users: await db.selectFrom('users').select(['id', 'post_count', 'article_count']).orderBy('id').execute(),
    };
  }

  /** Every stored count equals a count of the rows it counts. */
  async function expectExactCounts() {
    const db = app.ctx.db;
    const posts = await db.selectFrom('post').selectAll().execute();
    const articles = await db.selectFrom('article').selectAll().execute();
    const comments = await db.selectFrom('comment').selectAll().execute();
    const likes = await db.selectFrom('reaction_like').selectAll().execute();
    const favorites = await db.selectFrom('favorite').selectAll().execute();
    const follows = await db.selectFrom('community_follow').selectAll().execute();
    const links = await db.selectFrom('content_topic').selectAll().execute();
    const live = <T extends { status: string }>(rows: T[]) => rows.filter((row) => row.status === 'published');
    const liked = (type: string, id: number) =>
      likes.filter((like) => like.target_type === type && like.target_id === id).length;
    const commented = (type: string, id: number) =>
      comments.filter((c) => c.target_type === type && c.target_id === id && c.status === 'visible').length;
    const favorited = (type: string, id: number) =>
      favorites.filter((f) => f.item_type === type && f.item_id === id).length;
    for (const [type, rows] of [
      ['post', posts],
      ['article', articles],
    ] as const) {
      for (const row of rows) {
        expect([type, row.id, row.like_count, row.comment_count, row.favorite_count]).toEqual([
          type,
          row.id,
          liked(type, row.id),
          commented(type, row.id),
          favorited(type, row.id),
        ]);
      }
    }
    for (const c of comments) {
      const replies = comments.filter((r) => r.root_id === c.id && r.status === 'visible').length;
      expect(['comment', c.id, c.like_count, c.root_id === null ? c.reply_count : 0]).toEqual([
        'comment',
        c.id,
        liked('comment', c.id),
        c.root_id === null ? replies : 0,
      ]);
    }
    for (const s of await db.selectFrom('section').selectAll().execute()) {
      expect(['section', s.id, s.post_count, s.article_count, s.follower_count]).toEqual([
        'section',
        s.id,
        live(posts).filter((p) => p.section_id === s.id).length,
        live(articles).filter((a) => a.section_id === s.id).length,
        follows.filter((f) => f.target_type === 'section' && f.target_id === s.id).length,
      ]);
    }
    const published = new Set([
      ...live(posts).map((p) => `post:${p.id}`),
      ...live(articles).map((a) => `article:${a.id}`),
    ]);
    for (const t of await db.selectFrom('topic').selectAll().execute()) {
      expect(['topic', t.id, t.use_count, t.follower_count]).toEqual([
        'topic',
        t.id,
        links.filter((l) => l.topic_id === t.id && published.has(`${l.content_type}:${l.content_id}`)).length,
        follows.filter((f) => f.target_type === 'topic' && f.target_id === t.id).length,
      ]);
    }
    for (const u of await db.selectFrom('users').selectAll().execute()) {
      expect(['user', u.id, u.post_count, u.article_count]).toEqual([
        'user',
        u.id,
        live(posts).filter((p) => p.user_id === u.id).length,
        live(articles).filter((a) => a.user_id === u.id).length,
      ]);
    }
  }

  /** Runs the attacks, each of which must be refused with `status` and `code`, and checks nothing changed. */
  async function expectAllRefused(
    attacks: readonly (readonly [string, () => Promise<Answer>])[],
    status: number,
    code: ApiFailure['code'],
  ) {
    const before = await snapshot();
    for (const [name, attack] of attacks) {
      const answer = await attack();
      expect(`${name}: ${answer.res.status} ${answer.body.code}`, JSON.stringify(answer.body)).toBe(
        `${name}: ${status} ${code}`,
      );
      expectRefused(answer, status, code);
      if (status === 429) expect(Number(answer.res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await snapshot()).toEqual(before);
  }

  beforeAll(async () => {
    app = await createTestApp();
    author = await account();
    other = await account();
    editor = await account('editor');
    creator = await account('creator');
    section = 4001;
    await insertSection(app, section, '攻防');
    game = await saveGalgame(app.ctx.db, { title: 'Attack Echo', releaseDate: '2024-07-01', status: 'published' });
  });
  afterAll(async () => app.close());

  describe('ids', () => {
    it('refuses ids larger than a database id, on every route that takes one, before any query', async () => {
      const post = await newPost(author);
      const comment = await newComment(author, 'post', post.id);
      for (const huge of [PAST_INT, FIFTEEN_DIGITS]) {
        const h = String(huge);
        const get = (p: string) => () => call(app, 'GET', p, author.token);
        await expectAllRefused(
          [
            ['post', get(`/community/posts/${h}`)],
            ['article', get(`/community/articles/${h}`)],
            ['section', get(`/community/sections/${h}`)],
            ['topic', get(`/community/topics/${h}`)],
            ['feed by section', get(`/community/feed?sectionId=${h}`)],
            ['feed by topic', get(`/community/feed?topicId=${h}`)],
            ['user content', get(`/user/content?userId=${h}`)],
            ['favourite posts', get(`/favorite/posts?userId=${h}`)],
            ['favourite articles', get(`/favorite/articles?userId=${h}`)],
            ['comments', get(`/comments?targetType=post&targetId=${h}`)],
            ['replies', get(`/comments/${h}/replies`)],
            ['like check', get(`/likes/check?targetType=post&ids=${post.id},${h}`)],
            [
              'follow',
              () => call(app, 'POST', '/community/follow', author.token, { targetType: 'section', targetId: huge }),
            ],
            ['unfollow', () => call(app, 'DELETE', `/community/follow/topic/${h}`, author.token)],
            ['save post', () => call(app, 'PUT', `/community/posts/${h}`, author.token, { ...postBody(), version: 1 })],
            ['delete post', () => call(app, 'DELETE', `/community/posts/${h}`, author.token)],
            [
              'moderate post',
              () => call(app, 'PUT', `/community/posts/${h}/moderation`, editor.token, { pinned: true }),
            ],
            [
              'save article',
              () => call(app, 'PUT', `/community/articles/${h}`, author.token, { ...articleBody(), version: 1 }),
            ],
            ['delete article', () => call(app, 'DELETE', `/community/articles/${h}`, author.token)],
            [
              'moderate article',
              () => call(app, 'PUT', `/community/articles/${h}/moderation`, editor.token, { featured: true }),
            ],
            [
              'post in section',
              () => call(app, 'POST', '/community/posts', author.token, postBody({ sectionId: huge })),
            ],
            [
              'post about a work',
              () =>
                call(
                  app,
                  'POST',
                  '/community/posts',
                  author.token,
                  postBody({ works: [{ type: 'galgame', id: huge }] }),
                ),
            ],
            [
              'review of a work',
              () =>
                call(
                  app,
                  'POST',
                  '/community/articles',
                  author.token,
                  articleBody({ isReview: true, reviewWork: { type: 'galgame', id: huge } }),
                ),
            ],
            [
              'comment',
              () => call(app, 'POST', '/comments', author.token, { targetType: 'post', targetId: huge, content: '大' }),
            ],
            [
              'reply',
              () =>
                call(app, 'POST', '/comments', author.token, {
                  targetType: 'post',
                  targetId: post.id,
                  content: '大',
                  parentId: huge,
                }),
            ],
            ['delete comment', () => call(app, 'DELETE', `/comments/${h}`, author.token)],
            ['pin comment', () => call(app, 'PUT', `/comments/${h}/pin`, author.token, { pinned: true })],
            ['like', () => call(app, 'POST', '/likes', author.token, { targetType: 'comment', targetId: huge })],
            ['unlike', () => call(app, 'DELETE', `/likes/comment/${h}`, author.token)],
            [
              'report',
              () =>
                call(app, 'POST', '/reports', author.token, { targetType: 'comment', targetId: huge, reason: 'spam' }),
            ],
          ],
          400,
          'VALIDATION_FAILED',
        );
      }
      // The largest id a row can have is still an id: nothing has it.
      const top = String(PAST_INT - 1);
      for (const p of [`/community/posts/${top}`, `/comments/${top}/replies`, `/community/sections/${top}`])
        expectRefused(await call(app, 'GET', p), 404, 'NOT_FOUND');
      expect((await call(app, 'GET', `/community/feed?sectionId=${top}`)).res.status).toBe(200);
      expect(
        data((await call(app, 'GET', `/likes/check?targetType=comment&ids=${comment.id},${top}`, author.token)).body),
      ).toEqual({ liked: [] });
    });

    it('refuses ids written as anything but a positive whole JSON number', async () => {
      const post = await newPost(author);
      const bad = [0, -1, 1.5, '1', `${post.id}`, [post.id], { id: post.id }, true, null, 1e400, '0x10'];
      const attacks: [string, () => Promise<Answer>][] = [];
      for (const id of bad) {
        const label = JSON.stringify(id) ?? String(id);
        attacks.push(
          [`like ${label}`, () => call(app, 'POST', '/likes', other.token, { targetType: 'post', targetId: id })],
          [
            `report ${label}`,
            () => call(app, 'POST', '/reports', other.token, { targetType: 'post', targetId: id, reason: 'spam' }),
          ],
          [
            `comment ${label}`,
            () => call(app, 'POST', '/comments', other.token, { targetType: 'post', targetId: id, content: 'x' }),
          ],
          [
            `follow ${label}`,
            () => call(app, 'POST', '/community/follow', other.token, { targetType: 'section', targetId: id }),
          ],
          [
            `section ${label}`,
            () => call(app, 'POST', '/community/posts', other.token, postBody({ sectionId: id ?? 'x' })),
          ],
          [
            `version ${label}`,
            () => call(app, 'PUT', `/community/posts/${post.id}`, author.token, { ...postBody(), version: id }),
          ],
        );
      }
      for (const id of ['0', '-1', '1.5', '1e3', '0x10', '01', '+1', ' 1', '1 ', 'NaN', '%31'])
        attacks.push(
          [`path ${id}`, () => call(app, 'DELETE', `/community/posts/${encodeURIComponent(id)}`, author.token)],
          [`unlike ${id}`, () => call(app, 'DELETE', `/likes/post/${encodeURIComponent(id)}`, author.token)],
          [`replies ${id}`, () => call(app, 'GET', `/comments/${encodeURIComponent(id)}/replies`)],
        );
      await expectAllRefused(attacks, 400, 'VALIDATION_FAILED');
    });
  });

  describe('other members’ things', () => {
    it('keeps members away from others’ drafts, deleted items and moderation', async () => {
      await resetLimits();
      const draft = await newPost(author, { publish: false, title: '私密草稿' });
      const draftArticle = await newArticle(author, { publish: false, title: '私密文章草稿' });
      const live = await newPost(author, { title: '公开帖子' });
      const gone = await newPost(author, { title: '将被删除' });
      const goneComment = await newComment(other, 'post', live.id, '将被删除的评论');
      const root = await newComment(other, 'post', live.id, '一楼');
      const reply = await newComment(author, 'post', live.id, '回复一楼', root.id);
      const elsewhere = await newComment(other, 'galgame', game, '别处的评论');
      expect((await call(app, 'DELETE', `/community/posts/${gone.id}`, author.token)).res.status).toBe(200);
      expect((await call(app, 'DELETE', `/comments/${goneComment.id}`, other.token)).res.status).toBe(200);
      await app.ctx.db.deleteFrom('rate_limit').execute();

      const as = (who: Account) => ({
        get: (p: string) => () => call(app, 'GET', p, who.token),
        send: (method: string, p: string, body?: unknown) => () => call(app, method, p, who.token, body),
      });
      const them = as(other);
      const maker = as(creator);
      await expectAllRefused(
        [
          ['read a draft', them.get(`/community/posts/${draft.id}`)],
          ['read a draft article', them.get(`/community/articles/${draftArticle.id}`)],
          ['read a deleted post', them.get(`/community/posts/${gone.id}`)],
          ['comments of a draft', them.get(`/comments?targetType=post&targetId=${draft.id}`)],
          ['save a draft', them.send('PUT', `/community/posts/${draft.id}`, { ...postBody(), version: 1 })],
          ['delete a draft', them.send('DELETE', `/community/posts/${draft.id}`)],
          ['delete a draft article', them.send('DELETE', `/community/articles/${draftArticle.id}`)],
          ['like a draft', them.send('POST', '/likes', { targetType: 'post', targetId: draft.id })],
          ['like a deleted post', them.send('POST', '/likes', { targetType: 'post', targetId: gone.id })],
          ['like a deleted comment', them.send('POST', '/likes', { targetType: 'comment', targetId: goneComment.id })],
          ['favourite a draft', them.send('POST', '/user/favorites', { itemType: 'post', itemId: draft.id })],
          ['favourite a deleted post', them.send('POST', '/user/favorites', { itemType: 'post', itemId: gone.id })],
          [
            'comment on a draft',
            them.send('POST', '/comments', { targetType: 'post', targetId: draft.id, content: 'x' }),
          ],
          [
            'comment on a deleted post',
            them.send('POST', '/comments', { targetType: 'post', targetId: gone.id, content: 'x' }),
          ],
          [
            'reply to a deleted comment',
            them.send('POST', '/comments', {
              targetType: 'post',
              targetId: live.id,
              content: 'x',
              parentId: goneComment.id,
            }),
          ],
          ['report a draft', them.send('POST', '/reports', { targetType: 'post', targetId: draft.id, reason: 'spam' })],
          [
            'report a deleted post',
            them.send('POST', '/reports', { targetType: 'post', targetId: gone.id, reason: 'spam' }),
          ],
          [
            'report a deleted comment',
            them.send('POST', '/reports', { targetType: 'comment', targetId: goneComment.id, reason: 'abuse' }),
          ],
          ['delete a deleted post', as(author).send('DELETE', `/community/posts/${gone.id}`)],
          [
            'moderate a deleted post',
            as(editor).send('PUT', `/community/posts/${gone.id}/moderation`, { pinned: true }),
          ],
        ],
        404,
        'NOT_FOUND',
      );
      await expectAllRefused(
        [
          [
            'save another’s post',
            them.send('PUT', `/community/posts/${live.id}`, { ...postBody(), version: live.version }),
          ],
          ['delete another’s post', them.send('DELETE', `/community/posts/${live.id}`)],
          ['moderate as a member', them.send('PUT', `/community/posts/${live.id}/moderation`, { pinned: true })],
          [
            'moderate as the author',
            as(author).send('PUT', `/community/posts/${live.id}/moderation`, { featured: true }),
          ],
          // The creator group publishes like everyone else; moderating is the editors'.
          ['moderate as a creator', maker.send('PUT', `/community/posts/${live.id}/moderation`, { pinned: true })],
          ['delete as a creator', maker.send('DELETE', `/community/posts/${live.id}`)],
          ['delete another’s comment', maker.send('DELETE', `/comments/${root.id}`)],
          ['pin on another’s post', maker.send('PUT', `/comments/${root.id}/pin`, { pinned: true })],
          ['pin as the commenter', them.send('PUT', `/comments/${root.id}/pin`, { pinned: true })],
          ['save as an editor', as(editor).send('PUT', `/community/posts/${live.id}`, { ...postBody(), version: 1 })],
        ],
        403,
        'FORBIDDEN',
      );
      await expectAllRefused(
        [
          ['pin a reply', as(author).send('PUT', `/comments/${reply.id}/pin`, { pinned: true })],
          [
            'reply across targets',
            them.send('POST', '/comments', {
              targetType: 'post',
              targetId: live.id,
              content: 'x',
              parentId: elsewhere.id,
            }),
          ],
          [
            'reply with another target’s type',
            them.send('POST', '/comments', { targetType: 'galgame', targetId: game, content: 'x', parentId: root.id }),
          ],
          ['moderate a draft', as(editor).send('PUT', `/community/posts/${draft.id}/moderation`, { pinned: true })],
          [
            'report one’s own post',
            as(author).send('POST', '/reports', { targetType: 'post', targetId: live.id, reason: 'spam' }),
          ],
          [
            'report one’s own comment',
            them.send('POST', '/reports', { targetType: 'comment', targetId: root.id, reason: 'other' }),
          ],
          [
            'report one’s own draft',
            as(author).send('POST', '/reports', { targetType: 'post', targetId: draft.id, reason: 'spam' }),
          ],
        ],
        400,
        'VALIDATION_FAILED',
      );
      // A member's drafts list is their own, and the API has no way to ask for someone else's.
      const theirDrafts = data(
        (await call<CommunityPage<ContentListItem>>(app, 'GET', `/user/drafts?userId=${author.userId}`, other.token))
          .body,
      );
      expect(theirDrafts.items).toEqual([]);
      const publicList = data(
        (await call<CommunityPage<ContentListItem>>(app, 'GET', `/user/content?userId=${author.userId}&limit=50`)).body,
      );
      expect(publicList.items.every((item) => item.status === 'published')).toBe(true);
      expect(publicList.items.some((item) => item.id === draft.id && item.type === 'post')).toBe(false);
      await expectExactCounts();
    });
  });

  describe('type confusion', () => {
    it('answers 400 to bodies of the wrong shape on every write, and ignores prototype keys', async () => {
      await resetLimits();
      const post = await newPost(author);
      const writes: [string, string][] = [
        ['POST', '/community/posts'],
        ['PUT', `/community/posts/${post.id}`],
        ['POST', '/community/articles'],
        ['POST', '/community/follow'],
        ['PUT', `/community/posts/${post.id}/moderation`],
        ['POST', '/comments'],
        ['PUT', '/comments/1/pin'],
        ['POST', '/likes'],
        ['POST', '/reports'],
      ];
      const attacks: [string, () => Promise<Answer>][] = [];
      for (const [method, p] of writes) {
        const token = p.endsWith('/moderation') ? editor.token : author.token;
        for (const body of [null, [], 'text', 42, true, [{ targetType: 'post' }]])
          attacks.push([`${method} ${p} ${JSON.stringify(body)}`, () => call(app, method, p, token, body)]);
        attacks.push([
          `${method} ${p} malformed`,
          async () => {
            const res = await app.request(`/api${p}`, {
              method,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: '{"title": "unterminated',
            });
            return { res, body: (await res.json()) as ApiResponse<unknown> };
          },
        ]);
      }
      for (const [field, value] of [
        ['title', ['标题']],
        ['title', { toString: '标题' }],
        ['title', 12],
        ['content', { length: 1 }],
        ['topics', { 0: 'a', length: 1 }],
        ['topics', [['嵌套']]],
        ['topics', [{ name: 'x' }]],
        ['images', [{ url: 'https://example.com/a.webp' }]],
        ['works', [['galgame', 1]]],
        ['works', { type: 'galgame', id: 1 }],
        ['publish', 'true'],
        ['publish', 1],
        ['sectionId', [4001]],
      ] as const)
        attacks.push([
          `post ${field}=${JSON.stringify(value)}`,
          () => call(app, 'POST', '/community/posts', author.token, postBody({ [field]: value })),
        ]);
      for (const body of [
        { targetType: ['post'], targetId: post.id },
        { targetType: 'POST', targetId: post.id },
        { targetType: '__proto__', targetId: post.id },
        { targetType: 'constructor', targetId: post.id },
        { targetType: 'toString', targetId: post.id },
      ])
        attacks.push([`like ${JSON.stringify(body)}`, () => call(app, 'POST', '/likes', other.token, body)]);
      await expectAllRefused(attacks, 400, 'VALIDATION_FAILED');

      // `__proto__` and `constructor` are plain keys of the JSON, never the object's prototype: a draft
      // stays a draft, and nothing but the fields of the schema is read.
      const before = await snapshot();
      const proto = await app.request('/api/community/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${author.token}` },
        body: `{"__proto__":{"publish":true,"sectionId":${section}},"constructor":{"prototype":{"publish":true}},"title":"原型"}`,
      });
      expect(proto.status).toBe(201);
      const made = data((await proto.json()) as ApiResponse<PostDetail>);
      expect(made).toMatchObject({ status: 'draft', section: null, title: '原型' });
      expect(({} as Record<string, unknown>).publish).toBeUndefined();
      const after = await snapshot();
      expect(after.posts.length).toBe(before.posts.length + 1);
      expect(after.users).toEqual(before.users);
      expect(after.sections).toEqual(before.sections);
    });

    it('reads each query parameter once, whatever is repeated or added', async () => {
      const before = await snapshot();
      const feed = (query: string) => call<CommunityPage<FeedItem>>(app, 'GET', `/community/feed?${query}`);
      for (const query of ['limit=5&limit=999999', 'limit=999999&limit=5', 'page=1&page=0', 'sort=new&sort=top']) {
        const answer = await feed(query);
        if (answer.res.status === 200) expect(data(answer.body).pagination.limit).toBeLessThanOrEqual(50);
        else expectRefused(answer, 400, 'VALIDATION_FAILED');
      }
      for (const query of ['__proto__=x', 'constructor=1&toString=2', 'hasOwnProperty=1', 'sectionId[]=1', 'x=%00'])
        expect((await feed(query)).res.status).toBe(200);
      expectRefused(await feed('sectionId=%00'), 400, 'VALIDATION_FAILED');
      expectRefused(await call(app, 'GET', `/comments?targetType=__proto__&targetId=1`), 400, 'VALIDATION_FAILED');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('text that hides what it says', () => {
    const HIDDEN = [
      ['NUL', 'a\u0000b'],
      ['a bell', 'a\u0007b'],
      ['a C1 control', 'a\u0085b'],
      ['a right-to-left override', 'a\u202Eb'],
      ['an isolate', 'a\u2067b'],
      ['a lone high surrogate', 'a\uD800b'],
      ['a lone low surrogate', 'a\uDC00b'],
    ] as const;

    it.each(HIDDEN)('refuses %s in titles, topics, comments, reports and keywords', async (_name, bad) => {
      await resetLimits();
      const post = await newPost(author, { title: `目标 ${_name}` });
      await expectAllRefused(
        [
          ['post title', () => call(app, 'POST', '/community/posts', author.token, postBody({ title: bad }))],
          ['post text', () => call(app, 'POST', '/community/posts', author.token, postBody({ content: bad }))],
          ['topic', () => call(app, 'POST', '/community/posts', author.token, postBody({ topics: [bad] }))],
          ['article title', () => call(app, 'POST', '/community/articles', author.token, articleBody({ title: bad }))],
          ['summary', () => call(app, 'POST', '/community/articles', author.token, articleBody({ summary: bad }))],
          [
            'comment',
            () => call(app, 'POST', '/comments', other.token, { targetType: 'post', targetId: post.id, content: bad }),
          ],
          [
            'report',
            () =>
              call(app, 'POST', '/reports', other.token, {
                targetType: 'post',
                targetId: post.id,
                reason: 'other',
                text: bad,
              }),
          ],
          ...(bad.isWellFormed()
            ? ([
                ['topic keyword', () => call(app, 'GET', `/community/topics?keyword=${encodeURIComponent(bad)}`)],
                [
                  'favourite keyword',
                  () => call(app, 'GET', `/favorite/posts?userId=${author.userId}&keyword=${encodeURIComponent(bad)}`),
                ],
                ['game lookup', () => call(app, 'GET', `/galgame/lookup?keyword=${encodeURIComponent(bad)}`)],
              ] as const)
            : []),
        ],
        400,
        'VALIDATION_FAILED',
      );
    });

    it('refuses titles, topics and comments that show nothing, and treats invisible look-alike topics as one', async () => {
      await resetLimits();
      const post = await newPost(author);
      const invisible = [
        '\u200B',
        '\u200B\u2060\uFEFF',
        ' \u3164 ',
        '\u00AD',
        '\u200D\u200C',
        '\u2800\u2800',
        '\u0301\u0308\u0323',
        '\uFFA0\u115F\u1160',
        '\uFE0F\u{E0041}\u{E007F}',
        '\u180E\u{1D159}',
      ];
      const attacks: [string, () => Promise<Answer>][] = [];
      for (const text of invisible) {
        const label = [...text].map((c) => c.codePointAt(0)!.toString(16)).join(' ');
        attacks.push(
          [
            `publish titled ${label}`,
            () => call(app, 'POST', '/community/posts', author.token, postBody({ title: text })),
          ],
          [
            `article titled ${label}`,
            () => call(app, 'POST', '/community/articles', author.token, articleBody({ title: text })),
          ],
          [`topic ${label}`, () => call(app, 'POST', '/community/posts', author.token, postBody({ topics: [text] }))],
          [
            `comment ${label}`,
            () => call(app, 'POST', '/comments', other.token, { targetType: 'post', targetId: post.id, content: text }),
          ],
        );
      }
      for (const text of invisible) {
        attacks.push([
          `draft titled ${text}`,
          () => call(app, 'POST', '/community/posts', author.token, postBody({ title: text, publish: false })),
        ]);
        attacks.push([
          `draft with content ${text}`,
          () => call(app, 'POST', '/community/posts', author.token, postBody({ content: text, publish: false })),
        ]);
      }
      await expectAllRefused(attacks, 400, 'VALIDATION_FAILED');
      // A draft may still be saved without a title, but not with one nobody can see.
      expect(
        (await call(app, 'POST', '/community/posts', author.token, postBody({ title: '', publish: false }))).res.status,
      ).toBe(201);

      const first = await newPost(author, { topics: ['隐形话题'] });
      const again = await newPost(other, { topics: ['隐\u200B形话题', '隐形\u2060话题'] });
      expect(again.topics.map((t) => t.id)).toEqual([first.topics[0]!.id]);
      const topics = await app.ctx.db.selectFrom('topic').select('name').where('name', 'like', '隐%').execute();
      expect(topics).toEqual([{ name: '隐形话题' }]);
      await expectExactCounts();
    });

    it('refuses 10 000 combining marks where text is limited, and keeps them only as the text they are', async () => {
      await resetLimits();
      const post = await newPost(author);
      const zalgo = `a${'\u0301'.repeat(10_000)}`;
      await expectAllRefused(
        [
          ['title', () => call(app, 'POST', '/community/posts', author.token, postBody({ title: zalgo }))],
          ['text', () => call(app, 'POST', '/community/posts', author.token, postBody({ content: zalgo }))],
          ['topic', () => call(app, 'POST', '/community/posts', author.token, postBody({ topics: [zalgo] }))],
          [
            'comment',
            () =>
              call(app, 'POST', '/comments', other.token, { targetType: 'post', targetId: post.id, content: zalgo }),
          ],
          [
            'report',
            () =>
              call(app, 'POST', '/reports', other.token, {
                targetType: 'post',
                targetId: post.id,
                reason: 'other',
                text: zalgo,
              }),
          ],
          ['keyword', () => call(app, 'GET', `/community/topics?keyword=${encodeURIComponent(zalgo)}`)],
        ],
        400,
        'VALIDATION_FAILED',
      );
    });

    it('drops hidden characters from article bodies, on both databases alike', async () => {
      await resetLimits();
      const hidden = 'x\u202Ey\u2066z\uD800w\u0000v\u0085u\uDC00t';
      const article = await newArticle(author, {
        body: {
          type: 'doc',
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: hidden }] },
            { type: 'image', attrs: { src: 'https://images.example/a.png', alt: hidden, title: hidden } },
          ],
        },
      });
      const row = await app.ctx.db
        .selectFrom('article')
        .select(['body', 'body_html', 'body_text', 'excerpt'])
        .where('id', '=', article.id)
        .executeTakeFirstOrThrow();
      expect(row.body_text).toBe('xyzwvut');
      for (const stored of [row.body, row.body_html, row.excerpt, JSON.stringify(article.body), article.bodyHtml]) {
        expect(stored).not.toMatch(/[\u0000\u0085\u202E\u2066\uFFFD]|\\u(?:0000|0085|202e|2066|d800|dc00)/i);
        expect(stored.isWellFormed()).toBe(true);
      }
      expect(article.bodyHtml).toContain('alt="xyzwvut"');
    });
  });

  describe('size', () => {
    it('refuses oversized fields, bodies, arrays and nesting quickly and without writing', async () => {
      await resetLimits();
      const post = await newPost(author);
      const raw = (p: string, body: string) => async () => {
        const res = await app.request(`/api${p}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${author.token}` },
          body,
        });
        return { res, body: (await res.json()) as ApiResponse<unknown> };
      };
      await expectAllRefused(
        [
          [
            '1 MB title',
            () => call(app, 'POST', '/community/posts', author.token, postBody({ title: 'x'.repeat(1 << 20) })),
          ],
          [
            '1 MB comment',
            () =>
              call(app, 'POST', '/comments', author.token, {
                targetType: 'post',
                targetId: post.id,
                content: '字'.repeat(400_000),
              }),
          ],
          [
            '1 MB report',
            () =>
              call(app, 'POST', '/reports', other.token, {
                targetType: 'post',
                targetId: post.id,
                reason: 'spam',
                text: 'x'.repeat(1 << 20),
              }),
          ],
          ['deep array', raw('/community/posts', `{"works":${'['.repeat(600_000)}${']'.repeat(600_000)}}`)],
        ],
        413,
        'PAYLOAD_TOO_LARGE',
      );
      // An article body over 300 KB of JSON, inside the 1 MB a request may carry.
      const big = doc(...Array.from({ length: 40 }, () => 'x'.repeat(7_600)));
      expect(JSON.stringify(big).length).toBeGreaterThan(300_000);
      await expectAllRefused(
        [['300 KB body', () => call(app, 'POST', '/community/articles', author.token, articleBody({ body: big }))]],
        413,
        'PAYLOAD_TOO_LARGE',
      );

      const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const deepDoc = (depth: number) => {
        let node = '{"type":"paragraph"}';
        for (let i = 0; i < depth; i++) node = `{"type":"blockquote","content":[${node}]}`;
        return node;
      };
      const started = Date.now();
      await expectAllRefused(
        [
          [
            '100 000 topics',
            () =>
              call(app, 'POST', '/community/posts', author.token, postBody({ topics: Array(100_000).fill('话题') })),
          ],
          [
            '10 000 topics',
            () =>
              call(
                app,
                'POST',
                '/community/posts',
                author.token,
                postBody({ topics: Array.from({ length: 10_000 }, (_, i) => `t${i}`) }),
              ),
          ],
          [
            '40 000 images',
            () =>
              call(
                app,
                'POST',
                '/community/posts',
                author.token,
                postBody({ images: Array(40_000).fill('https://e.x/a.png') }),
              ),
          ],
          [
            '30 000 works',
            () =>
              call(
                app,
                'POST',
                '/community/posts',
                author.token,
                postBody({ works: Array(30_000).fill({ type: 'galgame', id: game }) }),
              ),
          ],
          [
            '100 000 ids',
            () =>
              call(app, 'GET', `/likes/check?targetType=post&ids=${Array(100_000).fill(1).join(',')}`, author.token),
          ],
          [
            'nested article body',
            raw(
              '/community/articles',
              JSON.stringify(articleBody({ body: null })).replace('null', `{"type":"doc","content":${deep(200_000)}}`),
            ),
          ],
          [
            'deep article nodes',
            raw(
              '/community/articles',
              JSON.stringify(articleBody({ body: null })).replace(
                'null',
                `{"type":"doc","content":[${deepDoc(5_000)}]}`,
              ),
            ),
          ],
          [
            'nested comment',
            raw('/comments', `{"targetType":"post","targetId":${post.id},"content":${deep(200_000)}}`),
          ],
          ['nested topics', raw('/community/posts', `{"title":"t","topics":${deep(200_000)}}`)],
          ['nested report', raw('/reports', `{"targetType":"post","targetId":${post.id},"reason":${deep(200_000)}}`)],
          [
            '10 000 markers',
            () =>
              call(app, 'POST', '/comments', author.token, {
                targetType: 'post',
                targetId: post.id,
                content: '[img]'.repeat(10_000),
              }),
          ],
        ],
        400,
        'VALIDATION_FAILED',
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });

  describe('markers', () => {
    it('keeps unsafe markers as text and refuses images of our image bed that are not this kind’s uploads', async () => {
      await resetLimits();
      const post = await newPost(author);
      const bed = app.ctx.storage.publicUrl('x').slice(0, -1);
      const bedUrl = new URL(bed);
      const avatar = await image('avatar');
      const postImage = await image('post');
      const commentImage = await image('comment');
      const articleImage = await image('article');
      // Our image bed's address spelled another way is still our image bed.
      const respelled = (url: string) => url.replace(bedUrl.origin, `${bedUrl.protocol}//${bedUrl.host.toUpperCase()}`);
      const dotted = (url: string) => url.replace(bed, `${bed}post/../`);
      const never = (kind: string) => app.ctx.storage.publicUrl(`${kind}/someone/never-uploaded.webp`);
      const imageDoc = (src: string) => ({
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: '图' }] },
          { type: 'image', attrs: { src } },
        ],
      });

      await expectAllRefused(
        [
          [
            'post text: an avatar',
            () => call(app, 'POST', '/community/posts', author.token, postBody({ content: `[img]${avatar}[/img]` })),
          ],
          [
            'post text: a respelled avatar',
            () =>
              call(
                app,
                'POST',
                '/community/posts',
                author.token,
                postBody({ content: `[img]${respelled(avatar)}[/img]` }),
              ),
          ],
          [
            'post text: a dotted avatar',
            () =>
              call(
                app,
                'POST',
                '/community/posts',
                author.token,
                postBody({ content: `[img]${dotted(avatar)}[/img]` }),
              ),
          ],
          [
            'post text: a comment image',
            () =>
              call(
                app,
                'POST',
                '/community/posts',
                author.token,
                postBody({ content: `[img]${respelled(commentImage)}[/img]` }),
              ),
          ],
          [
            'post image: respelled',
            () => call(app, 'POST', '/community/posts', author.token, postBody({ images: [respelled(postImage)] })),
          ],
          [
            'post image: a comment image',
            () => call(app, 'POST', '/community/posts', author.token, postBody({ images: [commentImage] })),
          ],
          [
            'article body: an avatar',
            () => call(app, 'POST', '/community/articles', author.token, articleBody({ body: imageDoc(avatar) })),
          ],
          [
            'article body: a respelled post image',
            () =>
              call(
                app,
                'POST',
                '/community/articles',
                author.token,
                articleBody({ body: imageDoc(respelled(postImage)) }),
              ),
          ],
          [
            'article cover: respelled',
            () =>
              call(app, 'POST', '/community/articles', author.token, articleBody({ cover: respelled(articleImage) })),
          ],
          [
            'comment: a post image',
            () =>
              call(app, 'POST', '/comments', other.token, {
                targetType: 'post',
                targetId: post.id,
                content: `[img]${postImage}[/img]`,
              }),
          ],
          [
            'comment: a respelled avatar',
            () =>
              call(app, 'POST', '/comments', other.token, {
                targetType: 'post',
                targetId: post.id,
                content: `[img]${respelled(avatar)}[/img]`,
              }),
          ],
        ],
        400,
        'VALIDATION_FAILED',
      );
      await expectAllRefused(
        [
          [
            'post text: never uploaded',
            () =>
              call(app, 'POST', '/community/posts', author.token, postBody({ content: `[img]${never('post')}[/img]` })),
          ],
          [
            'post image: never uploaded',
            () => call(app, 'POST', '/community/posts', author.token, postBody({ images: [never('post')] })),
          ],
          [
            'article body: never uploaded',
            () =>
              call(app, 'POST', '/community/articles', author.token, articleBody({ body: imageDoc(never('article')) })),
          ],
          [
            'comment: never uploaded',
            () =>
              call(app, 'POST', '/comments', other.token, {
                targetType: 'post',
                targetId: post.id,
                content: `[img]${never('comment')}[/img]`,
              }),
          ],
        ],
        400,
        'UPLOAD_INCOMPLETE',
      );

      // Markers that are not safe markers stay text: no image or emoji comes out of them.
      const hostile = [
        '[img]javascript:alert(1)[/img]',
        '[img]data:image/png;base64,AAAA[/img]',
        '[img]//evil.example/a.png[/img]',
        '[img]https://a.example/"onerror="x.png[/img]',
        '[emoji:../../etc/passwd]',
        '[emoji:../x]',
        '[emoji:a/../../b]',
      ].join(' ');
      const comment = await newComment(other, 'post', post.id, hostile);
      expect(comment.content).toBe(hostile);
      expect(parseMarkers(comment.content).filter((t) => t.type !== 'text')).toEqual([]);
      const text = await newPost(author, { content: hostile });
      expect(parseMarkers(text.content).filter((t) => t.type !== 'text')).toEqual([]);

      // In an article body, such images and emoji are dropped and the rest is kept.
      const article = await newArticle(author, {
        body: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: '表情' },
                { type: 'emoji', attrs: { code: '../../etc', src: '/media/emoji/a.webp' } },
                { type: 'emoji', attrs: { code: 'set/../x', src: '/media/emoji/a.webp' } },
                { type: 'emoji', attrs: { code: 'set/ok', src: 'javascript:alert(1)' } },
                { type: 'emoji', attrs: { code: 'set/ok', src: '//evil.example/a.webp' } },
                { type: 'text', text: '链接', marks: [{ type: 'link', attrs: { href: ' JaVaScRiPt:alert(1)' } }] },
              ],
            },
            { type: 'image', attrs: { src: 'javascript:alert(1)' } },
            { type: 'image', attrs: { src: 'data:image/png;base64,AAAA' } },
          ],
        },
      });
      expect(article.bodyHtml).toBe('<p>表情链接</p>');
      expect(article.bodyHtml).not.toMatch(/javascript|data:|evil|<img/i);
    });
  });

  describe('game lookup', () => {
    it('finds games by what their names say, never by how their aliases are stored', async () => {
      const quoted = await saveGalgame(app.ctx.db, {
        title: 'Lookup Quoted',
        aliases: ['他说"好"', 'back\\slash', '逗号,别名'],
        releaseDate: '2024-07-01',
        status: 'published',
      });
      await saveGalgame(app.ctx.db, { title: 'Lookup Plain', releaseDate: '2024-07-01', status: 'published' });
      await saveGalgame(app.ctx.db, {
        title: 'Lookup Hidden',
        aliases: ['藏起来'],
        releaseDate: '2024-07-01',
        status: 'draft',
      });
      const lookup = async (keyword: string) => {
        const answer = await call<{ id: number }[]>(
          app,
          'GET',
          `/galgame/lookup?keyword=${encodeURIComponent(keyword)}`,
        );
        expect(answer.res.status, keyword).toBe(200);
        return data(answer.body).map((game) => game.id);
      };
      // Punctuation alone finds nothing: the search index reads names as letters and digits.
      for (const keyword of ['[', ']', '[]', ',', '","', '"]', '["', '%', '_', '!', '\\', '藏起来', 'Hidden'])
        expect(await lookup(keyword), keyword).toEqual([]);
      for (const keyword of ['"好"', '他说"', 'back\\slash', '逗号,别', ',别名', 'lookup quoted'])
        expect(await lookup(keyword), keyword).toEqual([quoted]);
      for (const query of ['', `keyword=${'x'.repeat(101)}`, 'keyword[]=a'])
        expectRefused(await call(app, 'GET', `/galgame/lookup?${query}`), 400, 'VALIDATION_FAILED');
    });
  });

  describe('slugs', () => {
    it('takes plain lower-case slugs only, each once', async () => {
      await resetLimits();
      const admin = await newArticle(author, { slug: 'admin' });
      expect(admin.slug).toBe('admin');
      const attacks: [string, () => Promise<Answer>][] = [];
      for (const slug of [
        '2024',
        '0123',
        'аdmin',
        'ａｄｍｉｎ',
        'Admin',
        'admin/../x',
        '..',
        'a%2fb',
        'ad min',
        'ad\u200Bmin',
        '-admin',
        'admin_1',
        'x'.repeat(81),
        42,
        ['admin'],
      ])
        attacks.push([
          `slug ${JSON.stringify(slug)}`,
          () => call(app, 'POST', '/community/articles', other.token, articleBody({ slug })),
        ]);
      await expectAllRefused(attacks, 400, 'VALIDATION_FAILED');
      await expectAllRefused(
        [
          [
            'the same slug',
            () => call(app, 'POST', '/community/articles', other.token, articleBody({ slug: 'admin' })),
          ],
          [
            'the same slug, padded',
            () => call(app, 'POST', '/community/articles', other.token, articleBody({ slug: '  admin ' })),
          ],
          [
            'the same slug, with a line break',
            () => call(app, 'POST', '/community/articles', other.token, articleBody({ slug: 'admin\n' })),
          ],
        ],
        409,
        'SLUG_TAKEN',
      );
      for (const key of ['admin', String(admin.id)])
        expect(data((await call<ArticleDetail>(app, 'GET', `/community/articles/${key}`)).body).id).toBe(admin.id);
      for (const key of ['ADMIN', 'аdmin', 'admin%20', '-admin'])
        expectRefused(
          await call(app, 'GET', `/community/articles/${encodeURIComponent(key)}`),
          400,
          'VALIDATION_FAILED',
        );
    });
  });

  describe('pages', () => {
    it('refuses page numbers and sizes out of range on every list, and answers far pages empty', async () => {
      await resetLimits();
      const post = await newPost(author);
      const root = await newComment(other, 'post', post.id);
      const lists = [
        '/community/feed?',
        '/community/topics?',
        `/comments?targetType=post&targetId=${post.id}&`,
        `/comments/${root.id}/replies?`,
        `/user/content?userId=${author.userId}&`,
        '/user/drafts?',
        '/user/published?',
        `/favorite/posts?userId=${author.userId}&`,
      ];
      const attacks: [string, () => Promise<Answer>][] = [];
      for (const list of lists) {
        const sizeName = list.startsWith('/user/content') ? 'pageSize' : 'limit';
        for (const query of [
          'page=0',
          'page=-1',
          'page=1.5',
          'page=1e3',
          'page=1000000000',
          'page=x',
          'page=',
          `${sizeName}=0`,
          `${sizeName}=1000000`,
          `${sizeName}=-5`,
        ])
          attacks.push([`${list}${query}`, () => call(app, 'GET', `${list}${query}`, author.token)]);
      }
      await expectAllRefused(attacks, 400, 'VALIDATION_FAILED');
      for (const list of lists) {
        const far = await call<{ items: unknown[] }>(app, 'GET', `${list}page=10000`, author.token);
        expect(far.res.status, list).toBe(200);
        expect(data(far.body).items).toEqual([]);
      }
    });

    it('answers the feed for every combination of filters with only what matches them', async () => {
      await resetLimits();
      const featured = await newPost(author, { topics: ['组合'] });
      await call(app, 'PUT', `/community/posts/${featured.id}/moderation`, editor.token, {
        featured: true,
        pinned: true,
      });
      const article = await newArticle(author, { topics: ['组合'] });
      await newPost(author, { publish: false, topics: ['组合'] });
      const topic = (
        await app.ctx.db.selectFrom('topic').select('id').where('name', '=', '组合').executeTakeFirstOrThrow()
      ).id;
      let answered = 0;
      for (const bySection of [undefined, section, 999])
        for (const byTopic of [undefined, topic, 999])
          for (const type of [undefined, 'all', 'post', 'article'])
            for (const sort of [undefined, 'new', 'hot', 'featured'])
              for (const paging of ['', 'page=2&limit=1']) {
                const query = [
                  bySection === undefined ? '' : `sectionId=${bySection}`,
                  byTopic === undefined ? '' : `topicId=${byTopic}`,
                  type === undefined ? '' : `type=${type}`,
                  sort === undefined ? '' : `sort=${sort}`,
                  paging,
                ]
                  .filter(Boolean)
                  .join('&');
                const answer = await call<CommunityPage<FeedItem>>(app, 'GET', `/community/feed?${query}`);
                expect(answer.res.status, query).toBe(200);
                const page = data(answer.body);
                for (const item of page.items) {
                  if (bySection !== undefined) expect(item.section?.id, query).toBe(bySection);
                  if (byTopic !== undefined)
                    expect(
                      item.topics.map((t) => t.id),
                      query,
                    ).toContain(byTopic);
                  if (type === 'post' || type === 'article') expect(item.type, query).toBe(type);
                  if (sort === 'featured') expect(item.featured, query).toBe(true);
                }
                if (!paging && bySection === section && byTopic === topic && type === 'article' && sort !== 'featured')
                  expect(page.items.map((i) => i.id)).toEqual([article.id]);
                answered += 1;
              }
      expect(answered).toBe(3 * 3 * 4 * 4 * 2);
    });
  });

  describe('concurrency', () => {
    it('publishes a draft once when 20 requests publish it at once, and counts the publish once', async () => {
      const writer = await account();
      const body = postBody({ publish: false, topics: ['齐发'] });
      const draft = data((await call<PostDetail>(app, 'POST', '/community/posts', writer.token, body)).body);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call<PostDetail>(app, 'PUT', `/community/posts/${draft.id}`, writer.token, {
            ...body,
            publish: true,
            version: draft.version,
          }),
        ),
      );
      expect(answers.filter((a) => a.res.status === 200)).toHaveLength(1);
      for (const lost of answers.filter((a) => a.res.status !== 200))
        expect(['409 CONTENT_CONFLICT', '429 RATE_LIMITED']).toContain(`${lost.res.status} ${lost.body.code}`);
      const row = await app.ctx.db
        .selectFrom('post')
        .select(['status', 'version'])
        .where('id', '=', draft.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'published', version: draft.version + 1 });
      await expectExactCounts();
      // Saves that lost the race wrote nothing, so they do not use up the writer's allowance.
      const now = Date.now();
      for (const name of ['publish', 'save'] as const) {
        const used = await peekRateLimit(
          app.ctx.db,
          `community:${name}:${writer.id}`,
          COMMUNITY_RATE_LIMITS[name],
          now,
        );
        expect(used.count, name).toBe(name === 'save' ? 2 : 1);
      }
      for (let i = 1; i < COMMUNITY_RATE_LIMITS.publish.limit; i++) await newPost(writer, { title: `之后 ${i}` });
    });

    it('counts a slug race once: the articles that lost it did not use up their writers’ allowance', async () => {
      const writer = await account();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(app, 'POST', '/community/articles', writer.token, articleBody({ slug: 'one-slug-race' })),
        ),
      );
      expect(answers.filter((a) => a.res.status === 201)).toHaveLength(1);
      for (const lost of answers.filter((a) => a.res.status !== 201))
        expect(['409 SLUG_TAKEN', '429 RATE_LIMITED']).toContain(`${lost.res.status} ${lost.body.code}`);
      const used = await peekRateLimit(
        app.ctx.db,
        `community:create:${writer.id}`,
        COMMUNITY_RATE_LIMITS.create,
        Date.now(),
      );
      // Refusals by the early slug check never counted; those that lost at the unique index gave theirs back.
      expect(used.count).toBe(1);
      await expectExactCounts();
    });

    it('keeps like, follow and favourite counts exact under storms of clicks', async () => {
      await resetLimits();
      const post = await newPost(author, { topics: ['风暴'] });
      const topic = post.topics[0]!.id;
      const crowd = await Promise.all(Array.from({ length: 20 }, () => account()));
      const like = (who: Account) =>
        call<LikeState>(app, 'POST', '/likes', who.token, { targetType: 'post', targetId: post.id });
      const unlike = (who: Account) => call<LikeState>(app, 'DELETE', `/likes/post/${post.id}`, who.token);
      const follow = (who: Account) =>
        call<FollowState>(app, 'POST', '/community/follow', who.token, { targetType: 'topic', targetId: topic });
      const unfollow = (who: Account) =>
        call<FollowState>(app, 'DELETE', `/community/follow/topic/${topic}`, who.token);
      const favorite = (who: Account) =>
        call(app, 'POST', '/user/favorites', who.token, { itemType: 'post', itemId: post.id });
      const unfavorite = (who: Account) => call(app, 'DELETE', `/user/favorites/post/${post.id}`, who.token);

      const storm = await Promise.all(
        crowd.flatMap((who, i) => [
          like(who),
          unlike(who),
          like(who),
          follow(who),
          unfollow(who),
          follow(who),
          favorite(who),
          favorite(who),
          ...(i % 2 ? [unlike(who), unfollow(who), unfavorite(who)] : []),
        ]),
      );
      for (const answer of storm) expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
      await expectExactCounts();
      // One member double-clicking 20 times each way ends where the last click says.
      const one = crowd[0]!;
      await Promise.all(Array.from({ length: 20 }, () => like(one)));
      expect(data((await like(one)).body).isLiked).toBe(true);
      await Promise.all(Array.from({ length: 20 }, () => unlike(one)));
      expect(data((await unlike(one)).body).isLiked).toBe(false);
      await expectExactCounts();
    });

    it('counts 20 comments and replies written at once, then deleted at once while others reply', async () => {
      const post = await newPost(author);
      const crowd = await Promise.all(Array.from({ length: 20 }, () => account()));
      const roots = await Promise.all(
        crowd.map((who, i) =>
          call<CommentView>(app, 'POST', '/comments', who.token, {
            targetType: 'post',
            targetId: post.id,
            content: `楼 ${i}`,
          }),
        ),
      );
      for (const answer of roots) expect(answer.res.status).toBe(201);
      const first = data(roots[0]!.body);
      const replies = await Promise.all(
        crowd.map((who, i) =>
          call<CommentView>(app, 'POST', '/comments', who.token, {
            targetType: 'post',
            targetId: post.id,
            content: `回复 ${i}`,
            parentId: first.id,
          }),
        ),
      );
      for (const answer of replies) expect(answer.res.status).toBe(201);
      await expectExactCounts();
      await resetLimits();
      // Every author deletes their comments (each twice), while the crowd keeps replying to the first root.
      const mixed = await Promise.all([
        ...roots.flatMap((answer, i) => [
          call(app, 'DELETE', `/comments/${data(answer.body).id}`, crowd[i]!.token),
          call(app, 'DELETE', `/comments/${data(answer.body).id}`, crowd[i]!.token),
        ]),
        ...replies.map((answer, i) => call(app, 'DELETE', `/comments/${data(answer.body).id}`, crowd[i]!.token)),
        ...crowd.slice(0, 5).map((who) =>
          call(app, 'POST', '/comments', who.token, {
            targetType: 'post',
            targetId: post.id,
            content: '晚到的回复',
            parentId: first.id,
          }),
        ),
      ]);
      for (const answer of mixed) expect([200, 201, 404], JSON.stringify(answer.body)).toContain(answer.res.status);
      await expectExactCounts();
      const page = data((await call<CommentPage>(app, 'GET', `/comments?targetType=post&targetId=${post.id}`)).body);
      expect(page.total).toBe(await app.ctx.targets.read(app.ctx.db, { type: 'post', id: post.id }, 'comment'));
    });

    it('keeps one pinned root when the owner and moderators pin different roots at once', async () => {
      await resetLimits();
      const post = await newPost(author);
      const crowd = await Promise.all(Array.from({ length: 10 }, () => account()));
      const roots: CommentView[] = [];
      for (const who of crowd) roots.push(await newComment(who, 'post', post.id, '置顶我'));
      const pins = await Promise.all(
        roots.flatMap((root, i) => [
          call(app, 'PUT', `/comments/${root.id}/pin`, author.token, { pinned: true }),
          call(app, 'PUT', `/comments/${root.id}/pin`, (i % 2 ? editor : author).token, { pinned: true }),
        ]),
      );
      for (const answer of pins) expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
      const pinned = await app.ctx.db
        .selectFrom('comment')
        .select('id')
        .where('target_type', '=', 'post')
        .where('target_id', '=', post.id)
        .where('pinned', '=', 1)
        .execute();
      expect(pinned).toHaveLength(1);
      // Pinning and deleting the same root at once leaves no pinned deleted root.
      const target = roots[3]!;
      await Promise.all([
        call(app, 'PUT', `/comments/${target.id}/pin`, author.token, { pinned: true }),
        call(app, 'DELETE', `/comments/${target.id}`, crowd[3]!.token),
        call(app, 'PUT', `/comments/${target.id}/pin`, editor.token, { pinned: true }),
      ]);
      const left = await app.ctx.db
        .selectFrom('comment')
        .select(['id', 'status'])
        .where('target_type', '=', 'post')
        .where('target_id', '=', post.id)
        .where('pinned', '=', 1)
        .execute();
      expect(left.length).toBeLessThanOrEqual(1);
      expect(left.every((row) => row.status === 'visible')).toBe(true);
    });

    it('never fails when a root is pinned, answered and deleted at the same moment', async () => {
      const post = await newPost(author);
      const crowd = await Promise.all(Array.from({ length: 12 }, () => account()));
      for (const who of crowd) {
        const root = await newComment(who, 'post', post.id, '马上就没了');
        const reply = await newComment(other, 'post', post.id, '先回一句', root.id);
        await resetLimits();
        const answers = await Promise.all([
          call(app, 'PUT', `/comments/${root.id}/pin`, author.token, { pinned: true }),
          call(app, 'DELETE', `/comments/${root.id}`, who.token),
          call(app, 'POST', '/comments', editor.token, {
            targetType: 'post',
            targetId: post.id,
            content: '又一句',
            parentId: root.id,
          }),
          call(app, 'DELETE', `/comments/${reply.id}`, other.token),
          call(app, 'PUT', `/comments/${root.id}/pin`, editor.token, { pinned: true }),
        ]);
        for (const answer of answers)
          expect(['200 OK', '201 CREATED', '404 NOT_FOUND'], JSON.stringify(answer.body)).toContain(
            `${answer.res.status} ${answer.body.code}`,
          );
        expect(answers[1]!.res.status).toBe(200);
      }
      const pinned = await app.ctx.db
        .selectFrom('comment')
        .select(['id', 'status'])
        .where('target_type', '=', 'post')
        .where('target_id', '=', post.id)
        .where('pinned', '=', 1)
        .execute();
      expect(pinned.every((row) => row.status === 'visible')).toBe(true);
      await expectExactCounts();
    });

    it('lets one of ten tabs save, and a delete racing them leaves no count behind', async () => {
      await resetLimits();
      const post = await newPost(author, { topics: ['十个标签页'] });
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) =>
          call(app, 'PUT', `/community/posts/${post.id}`, author.token, {
            ...postBody({ title: `标签页 ${i}`, topics: [`标签 ${i}`] }),
            version: post.version,
          }),
        ),
        call(app, 'DELETE', `/community/posts/${post.id}`, author.token),
      ]);
      const deleted = answers.at(-1)!;
      expect(deleted.res.status).toBe(200);
      const saved = answers.slice(0, -1).filter((a) => a.res.status === 200);
      expect(saved.length).toBeLessThanOrEqual(1);
      for (const answer of answers.slice(0, -1).filter((a) => a.res.status !== 200))
        expect(['409 CONTENT_CONFLICT', '404 NOT_FOUND']).toContain(`${answer.res.status} ${answer.body.code}`);
      await expectExactCounts();
      expect(
        (await app.ctx.db.selectFrom('post').select('status').where('id', '=', post.id).executeTakeFirstOrThrow())
          .status,
      ).toBe('deleted');
    });
  });

  describe('floods', () => {
    it('answers a flood of comments with 429 and Retry-After past 6 a minute, writing only those allowed', async () => {
      await resetLimits();
      const post = await newPost(author);
      const flooder = await account();
      const before = await app.ctx.db.selectFrom('comment').select('id').execute();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(app, 'POST', '/comments', flooder.token, {
            targetType: 'post',
            targetId: post.id,
            content: `刷屏 ${i}`,
          }),
        ),
      );
      expect(answers.filter((a) => a.res.status === 201)).toHaveLength(6);
      for (const refused of answers.filter((a) => a.res.status !== 201)) {
        expectRefused(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      const after = await app.ctx.db.selectFrom('comment').select('id').execute();
      expect(after.length - before.length).toBe(6);
      await expectExactCounts();
    });

    it('answers a flood of reports and of new posts with 429 past their limits', async () => {
      const post = await newPost(author);
      const flooder = await account();
      const comments: CommentView[] = [];
      for (let i = 0; i < REPORTS_PER_DAY + 5; i++)
        comments.push(await newComment(other, 'post', post.id, `被举报 ${i}`));
      const reports = await Promise.all(
        comments.map((c) =>
          call(app, 'POST', '/reports', flooder.token, { targetType: 'comment', targetId: c.id, reason: 'spam' }),
        ),
      );
      expect(reports.filter((a) => a.res.status === 201)).toHaveLength(REPORTS_PER_DAY);
      for (const refused of reports.filter((a) => a.res.status !== 201)) {
        expectRefused(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(
        await app.ctx.db.selectFrom('report').select('id').where('user_id', '=', flooder.id).execute(),
      ).toHaveLength(REPORTS_PER_DAY);

      const writer = await account();
      const drafts = await Promise.all(
        Array.from({ length: COMMUNITY_RATE_LIMITS.create.limit + 5 }, (_, i) =>
          call(app, 'POST', '/community/posts', writer.token, postBody({ publish: false, title: `草稿 ${i}` })),
        ),
      );
      expect(drafts.filter((a) => a.res.status === 201)).toHaveLength(COMMUNITY_RATE_LIMITS.create.limit);
      for (const refused of drafts.filter((a) => a.res.status !== 201)) {
        expectRefused(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(await app.ctx.db.selectFrom('post').select('id').where('user_id', '=', writer.id).execute()).toHaveLength(
        COMMUNITY_RATE_LIMITS.create.limit,
      );
    });

    it('refuses an article from a writer over the limit before its body is rendered', async () => {
      const writer = await account();
      for (let i = 0; i < COMMUNITY_RATE_LIMITS.create.limit; i++)
        await newPost(writer, { publish: false, title: `占位 ${i}` });
      // Neither an invalid body nor the heaviest valid one is worked on: the answer is 429 at once.
      const heavy = { type: 'doc', content: Array.from({ length: 14_000 }, () => ({ type: 'paragraph' })) };
      await expectAllRefused(
        [
          [
            'invalid body',
            () =>
              call(
                app,
                'POST',
                '/community/articles',
                writer.token,
                articleBody({ body: { type: 'doc', content: [{ type: 'script' }] } }),
              ),
          ],
          ['heavy body', () => call(app, 'POST', '/community/articles', writer.token, articleBody({ body: heavy }))],
        ],
        429,
        'RATE_LIMITED',
      );
    });
  });

  describe('cross-site', () => {
    it('refuses likes, comments, follows, reports and posts from another site without writing', async () => {
      const post = await newPost(author);
      const send = (method: string, p: string, body: unknown, headers: Record<string, string>) => async () => {
        const res = await app.request(`/api${p}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${other.token}`, ...headers },
          body: JSON.stringify(body),
        });
        return { res, body: (await res.json()) as ApiResponse<unknown> };
      };
      const attacks: [string, () => Promise<Answer>][] = [];
      for (const headers of [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
      ] as Record<string, string>[])
        attacks.push(
          ['like', send('POST', '/likes', { targetType: 'post', targetId: post.id }, headers)],
          ['comment', send('POST', '/comments', { targetType: 'post', targetId: post.id, content: '跨站' }, headers)],
          ['follow', send('POST', '/community/follow', { targetType: 'section', targetId: section }, headers)],
          ['report', send('POST', '/reports', { targetType: 'post', targetId: post.id, reason: 'spam' }, headers)],
          ['post', send('POST', '/community/posts', postBody(), headers)],
          ['delete', send('DELETE', `/community/posts/${post.id}`, {}, headers)],
        );
      await expectAllRefused(attacks, 403, 'CROSS_SITE_REQUEST');
    });
  });

  describe('over a real connection', () => {
    let http: HttpServer;
    let port: number;
    let clientDir: string;
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);

    beforeAll(async () => {
      process.on('uncaughtException', record);
      process.on('unhandledRejection', record);
      clientDir = mkdtempSync(path.join(tmpdir(), 'hikari-attacks-'));
      const astro: AstroHandler = (_req, res) => {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('page');
      };
      http = createHttpServer(app.ctx, {
        clientDir,
        astro,
        limits: { headersTimeout: 600, requestTimeout: 1500, keepAliveTimeout: 500, connectionsCheckingInterval: 100 },
      });
      await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
      port = (http.server.address() as AddressInfo).port;
    });
    afterEach(() => expect(uncaught).toEqual([]));
    afterAll(async () => {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
      await http.shutdown(1000);
      rmSync(clientDir, { recursive: true, force: true });
    });

    /** Sends `chunks` on a new connection, `gapMs` apart, then resets it, closes it or waits for the server to. */
    function send(chunks: string[], options: { gapMs?: number; end: 'reset' | 'close' | 'wait'; timeoutMs?: number }) {
      return new Promise<{ text: string; closedByServer: boolean }>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        let done = false;
        const finish = (closedByServer: boolean) => {
          if (done) return;
          done = true;
          clearTimeout(limit);
          socket.destroy();
          resolve({ text, closedByServer });
        };
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('error', () => finish(true));
        socket.on('close', () => finish(true));
        const limit = setTimeout(() => finish(false), options.timeoutMs ?? 4000);
        void (async () => {
          for (const chunk of chunks) {
            if (!socket.writable) return;
            socket.write(chunk);
            await new Promise((r) => setTimeout(r, options.gapMs ?? 0));
          }
          if (options.end === 'reset') {
            socket.resetAndDestroy();
            finish(false);
          } else if (options.end === 'close') socket.end();
        })();
      });
    }

    const head = (method: string, p: string, length: number) =>
      `${method} /api${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${author.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

    async function healthy() {
      const answer = await send(['GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'], {
        end: 'wait',
      });
      expect(answer.text).toMatch(/^HTTP\/1\.1 200/);
    }

    it('writes nothing for bodies cut off or sent too slowly, and keeps answering', async () => {
      await resetLimits();
      const post = await newPost(author);
      const before = await snapshot();
      const writes = [
        ['POST', '/community/posts', JSON.stringify(postBody({ title: '半截' }))],
        ['POST', '/community/articles', JSON.stringify(articleBody({ title: '半截文章' }))],
        ['POST', '/comments', JSON.stringify({ targetType: 'post', targetId: post.id, content: '半截评论' })],
        ['POST', '/likes', JSON.stringify({ targetType: 'post', targetId: post.id })],
        ['POST', '/reports', JSON.stringify({ targetType: 'post', targetId: post.id, reason: 'spam' })],
        [
          'PUT',
          `/community/posts/${post.id}`,
          JSON.stringify({ ...postBody({ title: '半截修改' }), version: post.version }),
        ],
      ] as const;
      for (const [method, p, body] of writes) {
        const cut = body.slice(0, Math.floor(body.length / 2));
        const length = Buffer.byteLength(body);
        // Cut off by a reset, at once or after a pause.
        await send([head(method, p, length) + cut], { end: 'reset' });
        await send([head(method, p, length), cut], { gapMs: 30, end: 'reset' });
        // Half sent, then the client stops sending: the server gives up after its request timeout.
        const halfClosed = await send([head(method, p, length) + cut], { end: 'close', timeoutMs: 4000 });
        expect(halfClosed.closedByServer).toBe(true);
        expect(halfClosed.text).not.toMatch(/^HTTP\/1\.1 2/);
      }
      // A trickle slower than the request timeout allows is answered 408 and closed, not waited on forever.
      const [method, p, body] = writes[0];
      const started = Date.now();
      const trickle = await send([head(method, p, Buffer.byteLength(body)), ...body.split('')], {
        gapMs: 100,
        end: 'wait',
        timeoutMs: 5000,
      });
      expect(trickle.closedByServer).toBe(true);
      expect(Date.now() - started).toBeLessThan(4500);
      expect(trickle.text).toMatch(/^HTTP\/1\.1 408|^$/);
      expect(await snapshot()).toEqual(before);
      await healthy();
    });

    it('survives clients that send a whole write and hang up before the answer', async () => {
      await resetLimits();
      const post = await newPost(author);
      const crowd = await Promise.all(Array.from({ length: 10 }, () => account()));
      await Promise.all(
        crowd.map((who) => {
          const body = JSON.stringify({ targetType: 'post', targetId: post.id });
          return send(
            [
              `POST /api/likes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${who.token}\r\n` +
                `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
            ],
            { end: 'reset' },
          );
        }),
      );
      // The server finishes what it was sent (or never started it); either way the counts agree.
      await new Promise((r) => setTimeout(r, 500));
      await expectExactCounts();
      await healthy();
    });
  });
});
