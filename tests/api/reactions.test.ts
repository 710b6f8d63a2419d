import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { CommentView } from '../../src/shared/comments/comments.ts';
import {
  LIKE_CHECK_MAX,
  REPORT_TEXT_MAX,
  REPORTS_PER_DAY,
  type LikeState,
  type ReportCreated,
} from '../../src/shared/reactions/reactions.ts';
import { nextId } from '../../src/server/db/ids.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { listReports } from '../../src/server/modules/reactions/reports.service.ts';
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

describe('likes and reports API', () => {
  let app: TestApp;
  let author: Account;
  let fan: Account;
  let gameId: number;
  let draftId: number;
  let accountCount = 0;
  const past = new Date(Date.now() - 60_000);
  const at = past.toISOString();

  async function account(name: string, group: UserGroup = 'user'): Promise<Account> {
    accountCount += 1;
    const user = await createUser(
      app.ctx.db,
      { name, email: `${name.toLowerCase()}-${accountCount}@example.test`, passwordHash: 'x', group },
      past,
    );
    return {
      id: user.id,
      userId: user.user_id,
      token: await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group }),
    };
  }

  async function game(status: 'published' | 'draft'): Promise<number> {
    const id = await nextId(app.ctx.db, 'galgame_id');
    await app.ctx.db
      .insertInto('galgame')
      .values({ id, title: `Game ${id}`, status, created_at: at, updated_at: at })
      .execute();
    return id;
  }

  async function rating(userId: string, galgameId: number): Promise<number> {
    const id = await nextId(app.ctx.db, 'rating_id');
    await app.ctx.db
      .insertInto('rating')
      .values({
        id,
        user_id: userId,
        galgame_id: galgameId,
        score: 8,
        play_status: 'completed',
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  async function comment(who: Account, content = '值得一玩', targetId = gameId): Promise<CommentView> {
    await app.ctx.db.deleteFrom('rate_limit').where('key', 'like', 'comment:%').execute();
    const answer = await call<CommentView>(app, 'POST', '/comments', who.token, {
      targetType: 'galgame',
      targetId,
      content,
    });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }

  const like = (token: string | undefined, targetType: unknown, targetId: unknown) =>
    call<LikeState>(app, 'POST', '/likes', token, { targetType, targetId });
  const unlike = (token: string | undefined, targetType: string, targetId: number | string) =>
    call<LikeState>(app, 'DELETE', `/likes/${targetType}/${targetId}`, token);
  const check = (token: string | undefined, query: string) =>
    call<{ liked: number[] }>(app, 'GET', `/likes/check?${query}`, token);
  const report = (token: string | undefined, body: unknown) =>
    call<ReportCreated>(app, 'POST', '/reports', token, body);

  const expectFailure = (answer: Answer, status: number, code: ApiFailure['code']) => {
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
  };

  const likeRows = async (type: string, id: number) =>
    Number(
      (
        await app.ctx.db
          .selectFrom('reaction_like')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('target_type', '=', type as 'comment')
          .where('target_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    app = await createTestApp();
    author = await account('LikedAuthor');
    fan = await account('LikeFan');
    gameId = await game('published');
    draftId = await game('draft');
  });
  afterAll(async () => app.close());

  it('likes and unlikes a comment idempotently, answering the count', async () => {
    const c = await comment(author);
    const first = await like(fan.token, 'comment', c.id);
    expect(first.res.status).toBe(200);
    expect(data(first.body)).toEqual({ isLiked: true, likeCount: 1 });
    expect(data((await like(fan.token, 'comment', c.id)).body)).toEqual({ isLiked: true, likeCount: 1 });
    expect(data((await like(author.token, 'comment', c.id)).body)).toEqual({ isLiked: true, likeCount: 2 });

    const comments = data(
      (await call<{ items: CommentView[] }>(app, 'GET', `/comments?targetType=galgame&targetId=${gameId}`, fan.token))
        .body,
    );
    expect(comments.items.find((item) => item.id === c.id)).toMatchObject({ likeCount: 2, viewer: { isLiked: true } });

    const removed = await unlike(fan.token, 'comment', c.id);
    expect(removed.res.status).toBe(200);
    expect(data(removed.body)).toEqual({ isLiked: false, likeCount: 1 });
    expect(data((await unlike(fan.token, 'comment', c.id)).body)).toEqual({ isLiked: false, likeCount: 1 });
    expect(await likeRows('comment', c.id)).toBe(1);
  });

  it('keeps the exact count under 20 likers at once and under double clicks', async () => {
    const c = await comment(author, '大家来点赞');
    const likers = await Promise.all(Array.from({ length: 20 }, (_, i) => account(`Liker${i}`)));
    const answers = await Promise.all(likers.map((l) => like(l.token, 'comment', c.id)));
    expect(answers.map((a) => a.res.status)).toEqual(likers.map(() => 200));
    expect(Math.max(...answers.map((a) => data(a.body).likeCount))).toBe(20);
    expect(await app.ctx.targets.read(app.ctx.db, { type: 'comment', id: c.id }, 'like')).toBe(20);

    // One member clicking five times at once, and taking it back five times at once.
    const clicks = await Promise.all(Array.from({ length: 5 }, () => like(fan.token, 'comment', c.id)));
    expect(clicks.every((a) => a.res.status === 200)).toBe(true);
    expect(await app.ctx.targets.read(app.ctx.db, { type: 'comment', id: c.id }, 'like')).toBe(21);
    const backs = await Promise.all(Array.from({ length: 5 }, () => unlike(fan.token, 'comment', c.id)));
    expect(backs.every((a) => a.res.status === 200)).toBe(true);
    expect(await app.ctx.targets.read(app.ctx.db, { type: 'comment', id: c.id }, 'like')).toBe(20);

    // Half of them take theirs back while the others like again.
    await Promise.all(
      likers.map((l, i) => (i % 2 ? unlike(l.token, 'comment', c.id) : like(l.token, 'comment', c.id))),
    );
    expect(await app.ctx.targets.read(app.ctx.db, { type: 'comment', id: c.id }, 'like')).toBe(10);
    expect(await likeRows('comment', c.id)).toBe(10);
  });

  it('likes ratings whose game the liker may see', async () => {
    const id = await rating(author.id, gameId);
    expect(data((await like(fan.token, 'rating', id)).body)).toEqual({ isLiked: true, likeCount: 1 });
    const stored = await app.ctx.db
      .selectFrom('rating')
      .select('like_count')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.like_count).toBe(1);
    const found = await app.ctx.targets.find(app.ctx.db, 'rating', [id], null);
    expect(found.get(id)).toMatchObject({
      url: `/galgame/${gameId}#rating-${id}`,
      ownerId: author.id,
      title: `Game ${gameId}`,
    });

    const hidden = await rating(author.id, draftId);
    expectFailure(await like(fan.token, 'rating', hidden), 404, 'NOT_FOUND');
    // A reviewer sees the draft's rating.
    const editor = await account('RatingEditor', 'editor');
    expect((await like(editor.token, 'rating', hidden)).res.status).toBe(200);

    // Removing the author takes the rating's likes with it.
    const leaving = await account('LeavingRater');
    const theirs = await rating(leaving.id, gameId);
    await like(fan.token, 'rating', theirs);
    await removeUser(app.ctx, leaving.id);
    expect(await likeRows('rating', theirs)).toBe(0);
  });

  it('refuses what cannot be liked, missing or hidden items, bad input and visitors', async () => {
    const c = await comment(author, '将被删除');
    await call(app, 'DELETE', `/comments/${c.id}`, author.token);
    expectFailure(await like(fan.token, 'comment', c.id), 404, 'NOT_FOUND');
    expectFailure(await like(fan.token, 'comment', 999_999), 404, 'NOT_FOUND');
    expectFailure(await like(fan.token, 'post', 999_999), 404, 'NOT_FOUND');
    expectFailure(await like(fan.token, 'article', 999_999), 404, 'NOT_FOUND');
    const onDraft = await comment(await account('DraftOwner', 'editor'), '草稿评论', draftId);
    expectFailure(await like(fan.token, 'comment', onDraft.id), 404, 'NOT_FOUND');

    for (const [type, id] of [
      ['galgame', gameId],
      ['user', author.userId],
      ['comment', '1'],
      ['comment', 0],
      ['comment', 2.5],
      [null, 1],
      [['comment'], 1],
    ] as const) {
      expectFailure(await like(fan.token, type, id), 400, 'VALIDATION_FAILED');
    }
    expectFailure(await unlike(fan.token, 'galgame', gameId), 400, 'VALIDATION_FAILED');
    expectFailure(await unlike(fan.token, 'comment', '01'), 400, 'VALIDATION_FAILED');
    expectFailure(await like(undefined, 'comment', 1), 401, 'UNAUTHORIZED');
    expectFailure(await unlike(undefined, 'comment', 1), 401, 'UNAUTHORIZED');
    expectFailure(await check(undefined, 'targetType=comment&ids=1'), 401, 'UNAUTHORIZED');
  });

  it('checks which of up to 100 items the caller has liked', async () => {
    const a = await comment(author, '一');
    const b = await comment(author, '二');
    await like(fan.token, 'comment', a.id);
    await like(fan.token, 'comment', b.id);
    await unlike(fan.token, 'comment', b.id);
    const answer = await check(fan.token, `targetType=comment&ids=${b.id},${a.id},${a.id},999999`);
    expect(data(answer.body)).toEqual({ liked: [a.id] });
    expect(data((await check(author.token, `targetType=comment&ids=${a.id}`)).body)).toEqual({ liked: [] });
    const many = Array.from({ length: LIKE_CHECK_MAX }, (_, i) => i + 1).join(',');
    expect((await check(fan.token, `targetType=comment&ids=${many}`)).res.status).toBe(200);
    for (const query of [
      `targetType=comment&ids=${many},101`,
      'targetType=comment&ids=',
      'targetType=comment&ids=1,,2',
      'targetType=comment&ids=1,x',
      'targetType=comment&ids=-1',
      'targetType=comment',
      'targetType=galgame&ids=1',
      'ids=1',
    ]) {
      expectFailure(await check(fan.token, query), 400, 'VALIDATION_FAILED');
    }
  });

  it('files one open report per member and item', async () => {
    const c = await comment(author, '广告内容');
    const first = await report(fan.token, {
      targetType: 'comment',
      targetId: c.id,
      reason: 'spam',
      text: '  刷屏广告  ',
    });
    expect(first.res.status).toBe(201);
    expect(first.body.code).toBe('CREATED');
    expect(data(first.body)).toMatchObject({ status: 'open' });
    expectFailure(
      await report(fan.token, { targetType: 'comment', targetId: c.id, reason: 'abuse' }),
      409,
      'ALREADY_REPORTED',
    );
    // Someone else may report it too (its author may not: they edit or delete it).
    const bystander = await account('ReportBystander');
    expect((await report(bystander.token, { targetType: 'comment', targetId: c.id, reason: 'other' })).res.status).toBe(
      201,
    );

    // The same report sent at once: one is filed.
    const d = await comment(author, '另一条');
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => report(fan.token, { targetType: 'comment', targetId: d.id, reason: 'nsfw' })),
    );
    expect(burst.map((a) => a.res.status).sort()).toEqual([201, 409, 409, 409, 409]);

    // Once handled, it may be reported again.
    await app.ctx.db
      .updateTable('report')
      .set({ status: 'resolved', resolved_by: author.id, resolved_at: at })
      .where('id', '=', data(first.body).id)
      .execute();
    expect((await report(fan.token, { targetType: 'comment', targetId: c.id, reason: 'spam' })).res.status).toBe(201);

    const open = await listReports(app.ctx.db, { status: 'open', page: 1, limit: 50 });
    expect(open.items.every((r) => r.status === 'open')).toBe(true);
    const here = open.items.filter((r) => r.targetId === c.id || r.targetId === d.id);
    expect(here.map((r) => [r.targetId, r.reporter.userId])).toEqual([
      [c.id, fan.userId],
      [d.id, fan.userId],
      [c.id, bystander.userId],
    ]);
    const resolved = await listReports(app.ctx.db, { status: 'resolved', page: 1, limit: 10 });
    expect(resolved.items).toHaveLength(1);
    expect(resolved.items[0]).toMatchObject({
      targetType: 'comment',
      targetId: c.id,
      reason: 'spam',
      text: '刷屏广告',
      reporter: { userId: fan.userId },
      resolvedBy: { userId: author.userId },
    });
  });

  it('refuses reports of what cannot be reported, bad reasons and long texts', async () => {
    const c = await comment(author, '正常评论');
    for (const body of [
      { targetType: 'galgame', targetId: gameId, reason: 'spam' },
      { targetType: 'rating', targetId: 1, reason: 'spam' },
      { targetType: 'comment', targetId: c.id, reason: 'boring' },
      { targetType: 'comment', targetId: c.id },
      { targetType: 'comment', targetId: c.id, reason: 'other', text: 'x'.repeat(REPORT_TEXT_MAX + 1) },
      { targetType: 'comment', targetId: c.id, reason: 'other', text: 'bad\u0000text' },
      { targetType: 'comment', targetId: c.id, reason: 'other', text: 5 },
      { targetType: 'comment', targetId: String(c.id), reason: 'other' },
    ]) {
      expectFailure(await report(fan.token, body), 400, 'VALIDATION_FAILED');
    }
    expectFailure(
      await report(fan.token, { targetType: 'comment', targetId: 999_999, reason: 'spam' }),
      404,
      'NOT_FOUND',
    );
    expectFailure(await report(fan.token, { targetType: 'post', targetId: 999_999, reason: 'spam' }), 404, 'NOT_FOUND');
    expectFailure(
      await report(undefined, { targetType: 'comment', targetId: c.id, reason: 'spam' }),
      401,
      'UNAUTHORIZED',
    );
    const longest = await report(fan.token, {
      targetType: 'comment',
      targetId: c.id,
      reason: 'other',
      text: '长'.repeat(REPORT_TEXT_MAX),
    });
    expect(longest.res.status).toBe(201);
  });

  it(`allows ${REPORTS_PER_DAY} reports a day per member`, async () => {
    const reporter = await account('BusyReporter');
    const targets: number[] = [];
    for (let i = 0; i <= REPORTS_PER_DAY; i++) targets.push((await comment(author, `第 ${i} 条`)).id);
    for (const id of targets.slice(0, REPORTS_PER_DAY)) {
      expect((await report(reporter.token, { targetType: 'comment', targetId: id, reason: 'spam' })).res.status).toBe(
        201,
      );
    }
    // A repeat is refused as a repeat, and does not use up the allowance.
    expectFailure(
      await report(reporter.token, { targetType: 'comment', targetId: targets[0], reason: 'spam' }),
      409,
      'ALREADY_REPORTED',
    );
    const refused = await report(reporter.token, { targetType: 'comment', targetId: targets.at(-1), reason: 'spam' });
    expectFailure(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
