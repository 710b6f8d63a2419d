import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { FollowPage, FollowStatus } from '../../src/shared/users/follow-model.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { removeUser } from '../../src/server/modules/users/users.removal.ts';
import { call, data } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

type Answer = Awaited<ReturnType<typeof call>>;

interface Account {
  id: string;
  userId: number;
  token: string;
}

// Members following members (spec §7 /user/follow, /user/follow/status, /v2/user/{id}/following and
// /followers): the toggle, its texts, the lists, and counts that always equal the rows, also under
// parallel toggles and when an account goes.
describe('follow API', () => {
  let app: TestApp;
  let count = 0;

  async function account(): Promise<Account> {
    count += 1;
    const name = `fl_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    return { id: user.id, userId: user.user_id, token };
  }

  const expectFailure = (answer: Answer, status: number, code: ApiFailure['code']) => {
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.success).toBe(false);
    expect((answer.body as ApiFailure).code).toBe(code);
    return answer.body as ApiFailure;
  };
  const toggle = (who: Account, userId: unknown) =>
    call<FollowStatus>(app, 'POST', '/user/follow', who.token, { userId });
  const status = (who: Account, userId: number) =>
    call<FollowStatus>(app, 'POST', '/user/follow/status', who.token, { userId });
  const list = async (userId: number, side: 'following' | 'followers', query = '') =>
    data((await call<FollowPage>(app, 'GET', `/v2/user/${userId}/${side}${query}`)).body);

  /** The stored counts of an account, and what its rows say they should be. */
  async function counts(who: Account) {
    const row = await app.ctx.db
      .selectFrom('users')
      .select(['follower_count', 'following_count'])
      .where('id', '=', who.id)
      .executeTakeFirstOrThrow();
    const rows = async (column: 'follower_id' | 'followee_id') =>
      Number(
        (
          await app.ctx.db
            .selectFrom('user_follow')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(column, '=', who.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      followers: row.follower_count,
      following: row.following_count,
      followerRows: await rows('followee_id'),
      followingRows: await rows('follower_id'),
    };
  }

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());
  afterEach(() => vi.useRealTimers());

  it('toggles a follow, says so in the spec’s words, and moves both counts', async () => {
    const [a, b] = [await account(), await account()];
    expect(data((await status(a, b.userId)).body)).toEqual({ isFollowing: false, followerCount: 0 });
    const followed = await toggle(a, b.userId);
    expect(followed.res.status).toBe(200);
    expect(followed.body).toMatchObject({ success: true, message: '关注成功' });
    expect(data(followed.body)).toEqual({ isFollowing: true, followerCount: 1 });
    expect(data((await status(a, b.userId)).body).isFollowing).toBe(true);
    expect(await counts(a)).toMatchObject({ following: 1, followers: 0 });
    expect(await counts(b)).toMatchObject({ following: 0, followers: 1 });
    const unfollowed = await toggle(a, b.userId);
    expect(unfollowed.body).toMatchObject({ success: true, message: '已取消关注' });
    expect(data(unfollowed.body)).toEqual({ isFollowing: false, followerCount: 0 });
    expect(await counts(a)).toMatchObject({ following: 0, followers: 0 });
  });

  it('refuses visitors, oneself, unknown members and malformed ids, and changes nothing', async () => {
    const [a, b] = [await account(), await account()];
    const visitor = await call(app, 'POST', '/user/follow', undefined, { userId: b.userId });
    expectFailure(visitor, 401, 'UNAUTHORIZED');
    expect(expectFailure(await toggle(a, a.userId), 400, 'FOLLOW_SELF').message).toBe('不能关注自己');
    expectFailure(await toggle(a, 2_000_000_000), 404, 'NOT_FOUND');
    for (const bad of ['12', true, [b.userId], 0, -1, 1.5, 2 ** 31, null, { id: 1 }])
      expectFailure(await toggle(a, bad), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'POST', '/user/follow', a.token, {}), 400, 'VALIDATION_FAILED');
    expectFailure(
      await call(app, 'POST', '/user/follow', a.token, { userId: b.userId, extra: 1 }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await call(app, 'POST', '/user/follow/status', undefined, { userId: b.userId }), 401, 'UNAUTHORIZED');
    expect(await counts(a)).toMatchObject({ following: 0, followers: 0 });
    expect(await counts(b)).toMatchObject({ following: 0, followers: 0 });
  });

  it('lists whom a member follows and who follows them, newest first, in pages', async () => {
    const star = await account();
    const fans = [await account(), await account(), await account()];
    for (const fan of fans) {
      expect(data((await toggle(fan, star.userId)).body).isFollowing).toBe(true);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(data((await toggle(star, fans[0]!.userId)).body).isFollowing).toBe(true);
    const followers = await list(star.userId, 'followers');
    expect(followers.items.map((i) => i.userId)).toEqual(fans.map((f) => f.userId).reverse());
    expect(followers.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
    expect(followers.items[0]).toMatchObject({ followerCount: 0, followingCount: 1, signature: '' });
    const second = await list(star.userId, 'followers', '?page=2&limit=2');
    expect(second.items.map((i) => i.userId)).toEqual([fans[0]!.userId]);
    expect((await list(star.userId, 'following')).items.map((i) => i.userId)).toEqual([fans[0]!.userId]);
    expect((await list(fans[1]!.userId, 'followers')).items).toEqual([]);
    expectFailure(await call(app, 'GET', '/v2/user/2000000000/followers'), 404, 'NOT_FOUND');
    for (const bad of ['/v2/user/abc/followers', '/v2/user/0/following', `/v2/user/${star.userId}/followers?limit=51`])
      expectFailure(await call(app, 'GET', bad), 400, 'VALIDATION_FAILED');
  });

  it('keeps the counts equal to the rows under 20 parallel toggles, and two members following each other at once', async () => {
    const [a, b] = [await account(), await account()];
    const answers = await Promise.all(Array.from({ length: 20 }, () => toggle(a, b.userId)));
    expect(answers.every((answer) => answer.res.status === 200)).toBe(true);
    const after = await counts(b);
    expect(after.followers).toBe(after.followerRows);
    expect((await counts(a)).following).toBe((await counts(a)).followingRows);
    // The last answer agrees with the state it left.
    expect(data((await status(a, b.userId)).body).isFollowing).toBe(after.followerRows === 1);
    await Promise.all([toggle(a, b.userId), toggle(b, a.userId), toggle(a, b.userId), toggle(b, a.userId)]);
    for (const who of [a, b]) {
      const c = await counts(who);
      expect(c.followers).toBe(c.followerRows);
      expect(c.following).toBe(c.followingRows);
    }
  });

  it('takes a removed account’s follows out of the other members’ counts', async () => {
    const [gone, x, y] = [await account(), await account(), await account()];
    await toggle(gone, x.userId);
    await toggle(y, gone.userId);
    await toggle(x, y.userId);
    await removeUser({ db: app.ctx.db, targets: app.ctx.targets }, gone.id);
    expect(await counts(x)).toEqual({ followers: 0, following: 1, followerRows: 0, followingRows: 1 });
    expect(await counts(y)).toEqual({ followers: 1, following: 0, followerRows: 1, followingRows: 0 });
  });

  it('allows 30 toggles a minute per member, then answers 429 with Retry-After and changes nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T09:00:10Z'));
    const [fast, b, c] = [await account(), await account(), await account()];
    // Refused calls do not count: following oneself or nobody.
    for (let i = 0; i < 5; i++) {
      expectFailure(await toggle(fast, fast.userId), 400, 'FOLLOW_SELF');
      expectFailure(await toggle(fast, 2_000_000_000), 404, 'NOT_FOUND');
    }
    for (let i = 0; i < 30; i++) expect((await toggle(fast, b.userId)).res.status, `toggle ${i + 1}`).toBe(200);
    const refused = await toggle(fast, c.userId);
    expect(expectFailure(refused, 429, 'RATE_LIMITED').message).toBe('关注操作太频繁，请一分钟后再试');
    expect(refused.res.headers.get('retry-after')).toBe('50');
    expect(await counts(c)).toMatchObject({ followers: 0, followerRows: 0 });
    expect(await counts(fast)).toMatchObject({ following: 0, followingRows: 0 });
    // Another member is not held back, and the next minute the member may go on.
    expect(data((await toggle(b, c.userId)).body).isFollowing).toBe(true);
    vi.setSystemTime(new Date('2026-11-24T09:01:00Z'));
    expect(data((await toggle(fast, c.userId)).body)).toEqual({ isFollowing: true, followerCount: 2 });
  });
});
