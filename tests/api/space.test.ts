import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { SessionData } from '../../src/shared/auth.ts';
import type { UserCommentPage } from '../../src/shared/comments/comments.ts';
import type { ArticleDetail, PostDetail } from '../../src/shared/community/community.ts';
import type { DynamicPage, SessionList, SpaceRatingPage, UserStatistics } from '../../src/shared/users/space-model.ts';
import { nextId } from '../../src/server/db/ids.ts';
import { hashPassword } from '../../src/server/modules/auth/password.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser, setUserStatus } from '../../src/server/modules/users/users.service.ts';
import { busSessionEvents } from '../../src/server/modules/auth/auth.events.ts';
import { call, data, expectFailure as expectRefused, post, type Account, type Answer } from '../support/accounts.ts';
import { createTestApp, insertSection, type TestApp } from '../support/test-app.ts';

// A member's space (issue 13, decision 022): statistics, comments with their targets, the activity feed,
// ratings by play status, and the owner's logins; privacy and bad input.
describe('space API', () => {
  let app: TestApp;
  let count = 0;
  let sectionId: number;
  const password = 'space horse battery';

  async function account(): Promise<Account> {
    count += 1;
    const name = `sp_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, {
      name,
      email: `${name}@example.test`,
      passwordHash: await hashPassword(password),
    });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    return { id: user.id, userId: user.user_id, name, token };
  }

  async function game(status: 'published' | 'draft' = 'published'): Promise<number> {
    const id = await nextId(app.ctx.db, 'galgame_id');
    const at = new Date().toISOString();
    await app.ctx.db
      .insertInto('galgame')
      .values({
        id,
        title: `Game ${id}`,
        title_zh: `游戏 ${id}`,
        status,
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  const expectFailure = (answer: Answer, status: number, code: ApiFailure['code']) => {
    expectRefused(answer, status, code);
    expect((answer.body as ApiFailure).message.length).toBeGreaterThan(0);
  };
  const ok = <T>(answer: { res: Response; body: Parameters<typeof data<T>>[0] }, status = 200): T => {
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
    return data(answer.body);
  };
  const resetLimits = () => app.ctx.db.deleteFrom('rate_limit').execute();

  const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
  async function publishPost(who: Account, title: string) {
    await resetLimits();
    return ok<PostDetail>(
      await call(app, 'POST', '/community/posts', who.token, {
        title,
        content: `${title} 的正文`,
        images: [],
        sectionId,
        topics: [],
        works: [],
        publish: true,
      }),
      201,
    );
  }
  async function publishArticle(who: Account, title: string) {
    await resetLimits();
    return ok<ArticleDetail>(
      await call(app, 'POST', '/community/articles', who.token, {
        title,
        slug: null,
        cover: '',
        summary: '',
        body: doc(`${title} 的正文，足够长的一段文字。`),
        sectionId,
        topics: [],
        works: [],
        isReview: false,
        reviewWork: null,
        publish: true,
      }),
      201,
    );
  }
  async function comment(who: Account, targetType: string, targetId: number, content: string) {
    await resetLimits();
    return ok<{ id: number }>(await call(app, 'POST', '/comments', who.token, { targetType, targetId, content }), 201);
  }
  const rate = async (who: Account, galgameId: number, score: number, status: string) =>
    ok(await call(app, 'PUT', `/galgame/${galgameId}/rating`, who.token, { score, status }));
  const favorite = async (who: Account, itemType: string, itemId: number) =>
    ok(await call(app, 'POST', '/user/favorites', who.token, { itemType, itemId }));
  const follow = async (who: Account, target: Account) =>
    ok(await call(app, 'POST', '/user/follow', who.token, { userId: target.userId }));
  const statistics = async (who: Account) =>
    ok<UserStatistics>(await call(app, 'GET', `/user/statistics/${who.userId}`));
  const dynamic = async (who: Account, query = '') =>
    ok<DynamicPage>(await call(app, 'GET', `/v2/user/${who.userId}/dynamic${query}`));

  /** A small pause so rows written one after another get distinct times. */
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  beforeAll(async () => {
    app = await createTestApp();
    sectionId = 4200;
    await insertSection(app, sectionId, '空间测试');
  });
  afterAll(async () => app.close());

  it('counts a member’s follows, posts, articles, ratings, favourites and comments exactly', async () => {
    const [me, friend, fan] = [await account(), await account(), await account()];
    const [g1, g2, hidden] = [await game(), await game(), await game('draft')];
    const p = await publishPost(me, '第一帖');
    await publishPost(me, '第二帖');
    const a = await publishArticle(me, '长评一篇');
    await rate(me, g1, 8, 'completed');
    await rate(me, g2, 6, 'playing');
    await rate(me, g2, 7, 'playing'); // a second rating of one game replaces the first
    await favorite(me, 'galgame', g1);
    await favorite(me, 'post', p.id);
    await favorite(me, 'article', a.id);
    await comment(me, 'galgame', g1, '好玩');
    const removed = await comment(me, 'post', p.id, '自己顶一下');
    await comment(friend, 'post', p.id, '别人的评论不算');
    ok(await call(app, 'DELETE', `/comments/${removed.id}`, me.token));
    await follow(me, friend);
    await follow(fan, me);
    // A rating of a game that is not published is not shown, so not counted.
    await app.ctx.db
      .insertInto('rating')
      .values({
        id: await nextId(app.ctx.db, 'rating_id'),
        user_id: me.id,
        galgame_id: hidden,
        score: 5,
        play_status: 'plan',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();

    expect(await statistics(me)).toEqual({
      userId: me.userId,
      following: 1,
      followers: 1,
      posts: 2,
      articles: 1,
      ratings: 2,
      favorites: 3,
      comments: 1,
    });
    // Statistics are public; unknown members and bad ids are refused with a stable code.
    expectFailure(await call(app, 'GET', '/user/statistics/999999'), 404, 'NOT_FOUND');
    for (const bad of ['abc', '0', '01', '1e3', '-1', '99999999999']) {
      expectFailure(await call(app, 'GET', `/user/statistics/${bad}`), 400, 'VALIDATION_FAILED');
    }
  });

  it('lists a member’s comments with the title and link of what each is on, newest first', async () => {
    const [me, other] = [await account(), await account()];
    const g = await game();
    const p = await publishPost(other, '被评论的帖子');
    await comment(me, 'galgame', g, '游戏评论');
    await tick();
    await comment(me, 'post', p.id, '帖子评论');
    const page = ok<UserCommentPage>(await call(app, 'GET', `/v2/user/${me.userId}/comments?limit=10`));
    expect(page.pagination.total).toBe(2);
    expect(page.items.map((item) => [item.content, item.target.type, item.target.url])).toEqual([
      ['帖子评论', 'post', `/community/post/${p.id}`],
      ['游戏评论', 'galgame', `/galgame/${g}`],
    ]);
    expect(page.items[0]!.target.title).toBe('被评论的帖子');
    const second = ok<UserCommentPage>(await call(app, 'GET', `/v2/user/${me.userId}/comments?limit=1&page=2`));
    expect(second.items.map((item) => item.content)).toEqual(['游戏评论']);
    expectFailure(await call(app, 'GET', `/v2/user/${me.userId}/comments?limit=51`), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', `/v2/user/${me.userId}/comments?page=0`), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', '/v2/user/999999/comments'), 404, 'NOT_FOUND');
  });

  it('merges posts, articles, ratings, favourites and follows newest first, page by page', async () => {
    const [me, friend] = [await account(), await account()];
    const g = await game();
    const p = await publishPost(me, '动态帖子');
    await tick();
    await rate(me, g, 9, 'completed');
    await tick();
    const a = await publishArticle(me, '动态文章');
    await tick();
    await favorite(me, 'galgame', g);
    await tick();
    await follow(me, friend);

    const whole = await dynamic(me, '?limit=50');
    expect(whole.pagination.total).toBe(5);
    expect(whole.items.map((item) => item.kind)).toEqual(['follow', 'favorite', 'article', 'rating', 'post']);
    const [followed, favourite, article, rating, postItem] = whole.items;
    expect(followed).toMatchObject({ kind: 'follow', user: { userId: friend.userId, name: friend.name } });
    expect(favourite).toMatchObject({ kind: 'favorite', item: { type: 'galgame', id: g, url: `/galgame/${g}` } });
    expect(article).toMatchObject({ kind: 'article', content: { id: a.id, title: '动态文章' } });
    expect(rating).toMatchObject({ kind: 'rating', rating: { score: 9, status: 'completed', galgame: { id: g } } });
    expect(postItem).toMatchObject({ kind: 'post', content: { id: p.id } });

    // Pages of two cut the same order without gaps or repeats.
    const paged = [];
    for (let page = 1; page <= 3; page += 1) paged.push(...(await dynamic(me, `?limit=2&page=${page}`)).items);
    expect(paged.map((item) => item.kind)).toEqual(whole.items.map((item) => item.kind));

    // A rating changed later moves to the top; a deleted post leaves the feed.
    await tick();
    await rate(me, g, 10, 'completed');
    ok(await call(app, 'DELETE', `/community/posts/${p.id}`, me.token));
    const after = await dynamic(me, '?limit=50');
    expect(after.items.map((item) => item.kind)).toEqual(['rating', 'follow', 'favorite', 'article']);
    expect(after.pagination.total).toBe(4);
    expectFailure(await call(app, 'GET', `/v2/user/${me.userId}/dynamic?limit=abc`), 400, 'VALIDATION_FAILED');
  });

  it('lists ratings of published games with a play-status filter', async () => {
    const me = await account();
    const [g1, g2, g3] = [await game(), await game(), await game()];
    await rate(me, g1, 8, 'completed');
    await tick();
    await rate(me, g2, 5, 'dropped');
    await tick();
    await rate(me, g3, 9, 'completed');
    const all = ok<SpaceRatingPage>(await call(app, 'GET', `/v2/user/${me.userId}/ratings`));
    expect(all.items.map((item) => item.galgame.id)).toEqual([g3, g2, g1]);
    const completed = ok<SpaceRatingPage>(await call(app, 'GET', `/v2/user/${me.userId}/ratings?status=completed`));
    expect(completed.items.map((item) => item.galgame.id)).toEqual([g3, g1]);
    expect(completed.pagination.total).toBe(2);
    const dropped = ok<SpaceRatingPage>(await call(app, 'GET', `/v2/user/${me.userId}/ratings?status=dropped`));
    expect(dropped.items.map((item) => [item.galgame.id, item.score, item.status])).toEqual([[g2, 5, 'dropped']]);
    expectFailure(await call(app, 'GET', `/v2/user/${me.userId}/ratings?status=finished`), 400, 'VALIDATION_FAILED');
  });

  it('closes a banned member’s lists with a notice code, but keeps the counts readable', async () => {
    const [me, banned] = [await account(), await account()];
    await comment(banned, 'galgame', await game(), '封禁前的评论');
    await setUserStatus({ db: app.ctx.db, events: busSessionEvents(app.ctx) }, banned.id, 'banned');
    for (const path of ['comments', 'dynamic', 'ratings']) {
      expectFailure(await call(app, 'GET', `/v2/user/${banned.userId}/${path}`, me.token), 403, 'USER_BANNED');
    }
    expect((await statistics(banned)).comments).toBe(1);
  });

  describe('logins', () => {
    const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
    async function login(who: Account, userAgent?: string): Promise<SessionData> {
      const headers: Record<string, string> = userAgent ? { 'user-agent': userAgent } : {};
      return data((await post<SessionData>(app, '/v2/user/login', { account: who.name, password }, headers)).body);
    }

    it('lists only the caller’s own open logins, the current one marked, and ends the others', async () => {
      const [me, other] = [await account(), await account()];
      const first = await login(me);
      const second = await login(me);
      const third = await login(me, FIREFOX_ON_LINUX);
      const mine = await login(other);
      ok(
        await call(app, 'POST', '/user/logout', second.hikariAccessToken, {
          hikariRefreshToken: second.hikariRefreshToken,
        }),
      );

      const list = ok<SessionList>(await call(app, 'GET', '/user/sessions', third.hikariAccessToken));
      expect(list.items).toHaveLength(2);
      expect(list.items[0]!.current).toBe(true);
      // Each login names what it began in.
      expect(list.items[0]!.device).toEqual({ browser: 'Firefox', os: 'Linux', type: 'desktop' });
      expect(list.items.filter((item) => item.current)).toHaveLength(1);
      const otherList = ok<SessionList>(await call(app, 'GET', '/user/sessions', mine.hikariAccessToken));
      expect(otherList.items).toHaveLength(1);
      expect(list.items.map((item) => item.id)).not.toContain(otherList.items[0]!.id);

      // Visitors get 401; there is no way to name another member.
      expectFailure(await call(app, 'GET', '/user/sessions'), 401, 'UNAUTHORIZED');
      expectFailure(await call(app, 'POST', '/user/sessions/logout-others'), 401, 'UNAUTHORIZED');

      // Anything in the body is refused.
      expectFailure(
        await call(app, 'POST', '/user/sessions/logout-others', third.hikariAccessToken, { keep: 'all' }),
        400,
        'VALIDATION_FAILED',
      );
      const ended = await call<{ loggedOut: number }>(
        app,
        'POST',
        '/user/sessions/logout-others',
        third.hikariAccessToken,
        {},
      );
      expect(ok(ended)).toEqual({ loggedOut: 1 });
      // The current login goes on; the first one's access and refresh tokens are dead at once.
      ok(await call(app, 'GET', '/v2/user/profile', third.hikariAccessToken));
      expectFailure(await call(app, 'GET', '/v2/user/profile', first.hikariAccessToken), 401, 'TOKEN_INVALID');
      expectFailure(
        await call(app, 'POST', '/user/refresh-token', undefined, { token: first.hikariRefreshToken }),
        401,
        'REFRESH_TOKEN_INVALID',
      );
      expect(ok<SessionList>(await call(app, 'GET', '/user/sessions', third.hikariAccessToken)).items).toHaveLength(1);
      // A double click ends nothing more; the other member's login is untouched.
      expect(ok(await call(app, 'POST', '/user/sessions/logout-others', third.hikariAccessToken, {}))).toEqual({
        loggedOut: 0,
      });
      ok(await call(app, 'GET', '/v2/user/profile', mine.hikariAccessToken));
    });
  });
});
