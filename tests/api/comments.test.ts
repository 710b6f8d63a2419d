import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import {
  COMMENT_CONTENT_MAX,
  COMMENT_IMAGES_MAX,
  type CommentPage,
  type CommentReplyPage,
  type CommentView,
} from '../../src/shared/comments/comments.ts';
import type { UploadAddress } from '../../src/shared/media/upload.ts';
import type { TargetType } from '../../src/shared/targets.ts';
import type { PagesChanged } from '../../src/server/http/page-cache-policy.ts';
import { nextId } from '../../src/server/db/ids.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { listComments, listUserComments } from '../../src/server/modules/comments/comments.service.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { removeUser } from '../../src/server/modules/users/users.removal.ts';
import { call, data, type Account, type Answer } from '../support/accounts.ts';
import { startSignedPutServer, type SignedPutServer } from '../support/signed-put.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('comments API', () => {
  let app: TestApp;
  let server: SignedPutServer;
  let author: Account;
  let other: Account;
  let owner: Account;
  let editor: Account;
  let gameId: number;
  let draftId: number;
  let personId: number;
  let characterId: number;
  let accountCount = 0;
  const past = new Date(Date.now() - 60_000);
  const at = past.toISOString();

  /** A member made in the database, with an access token (registration is tested elsewhere). */
  async function account(name: string, group: UserGroup = 'user'): Promise<Account> {
    accountCount += 1;
    const user = await createUser(
      app.ctx.db,
      { name, email: `${name.toLowerCase()}-${accountCount}@example.test`, passwordHash: 'x', group },
      past,
    );
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group });
    return { id: user.id, userId: user.user_id, name: user.name, token };
  }

  async function game(status: 'published' | 'draft', createdBy: string | null): Promise<number> {
    const id = await nextId(app.ctx.db, 'galgame_id');
    await app.ctx.db
      .insertInto('galgame')
      .values({
        id,
        title: `Game ${id}`,
        title_zh: `测试游戏 ${id}`,
        status,
        created_by: createdBy,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  async function entity(table: 'person' | 'character'): Promise<number> {
    const id = await nextId(app.ctx.db, table === 'person' ? 'person_id' : 'character_id');
    await app.ctx.db
      .insertInto(table)
      .values({ id, name: `${table} ${id}`, created_at: at, updated_at: at })
      .execute();
    return id;
  }

  /** Rate limits are tested on their own; elsewhere they would only count the test's own comments. */
  const resetLimits = () => app.ctx.db.deleteFrom('rate_limit').execute();

  const post = (token: string | undefined, body: unknown) => call<CommentView>(app, 'POST', '/comments', token, body);

  async function comment(who: Account, targetType: TargetType, targetId: number, content: string, parentId?: number) {
    await resetLimits();
    const answer = await post(who.token, { targetType, targetId, content, ...(parentId ? { parentId } : {}) });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }

  const list = async (query: string, token?: string) =>
    data((await call<CommentPage>(app, 'GET', `/comments?${query}`, token)).body);

  const expectFailure = (answer: Answer, status: number, code: ApiFailure['code']) => {
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
  };

  /** What the counts should be, counted from the rows. */
  async function recount(type: 'galgame' | 'person', id: number) {
    const db = app.ctx.db;
    const visible = await db
      .selectFrom('comment')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('target_type', '=', type)
      .where('target_id', '=', id)
      .where('status', '=', 'visible')
      .executeTakeFirstOrThrow();
    const roots = await db
      .selectFrom('comment as r')
      .select([
        'r.id',
        'r.reply_count',
        (eb) =>
          eb
            .selectFrom('comment as c')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('c.root_id', '=', 'r.id')
            .where('c.status', '=', 'visible')
            .as('counted'),
      ])
      .where('r.target_type', '=', type)
      .where('r.target_id', '=', id)
      .where('r.root_id', 'is', null)
      .execute();
    return {
      stored: await app.ctx.targets.read(db, { type, id }, 'comment'),
      counted: Number(visible.n),
      roots: roots.map((r) => ({ id: r.id, stored: r.reply_count, counted: Number(r.counted) })),
    };
  }

  async function expectExactCounts(type: 'galgame' | 'person', id: number) {
    const counts = await recount(type, id);
    expect(counts.stored).toBe(counts.counted);
    for (const root of counts.roots) expect(root.stored, `root ${root.id}`).toBe(root.counted);
    return counts;
  }

  beforeAll(async () => {
    app = await createTestApp();
    server = await startSignedPutServer(app);
    author = await account('Commenter');
    other = await account('Passerby');
    owner = await account('GameOwner', 'creator');
    editor = await account('Moderator', 'editor');
    gameId = await game('published', owner.id);
    draftId = await game('draft', owner.id);
    personId = await entity('person');
    characterId = await entity('character');
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('adds a comment and answers it as the thread shows it', async () => {
    const id = await game('published', null);
    const created = await post(author.token, {
      targetType: 'galgame',
      targetId: id,
      content: '  第一次玩就哭了\n真的好看  ',
    });
    expect(created.res.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, code: 'CREATED' });
    const view = data(created.body);
    expect(view).toMatchObject({
      targetType: 'galgame',
      targetId: id,
      rootId: null,
      parentId: null,
      author: { userId: author.userId, name: author.name, avatar: '' },
      replyTo: null,
      content: '第一次玩就哭了\n真的好看',
      deleted: false,
      likeCount: 0,
      replyCount: 0,
      pinned: false,
      viewer: { isLiked: false, canDelete: true, canPin: false },
    });
    const page = await list(`targetType=galgame&targetId=${id}`);
    expect(page.total).toBe(1);
    expect(page.pagination).toMatchObject({ page: 1, limit: 20, total: 1, totalPages: 1 });
    expect(page.items).toHaveLength(1);
    // A visitor sees it, and may do nothing with it.
    expect(page.items[0]).toMatchObject({
      id: view.id,
      replies: [],
      viewer: { isLiked: false, canDelete: false, canPin: false },
    });
    await expectExactCounts('galgame', id);
  });

  it('threads two levels: a reply to a reply joins the root and names whom it answers', async () => {
    const id = await game('published', owner.id);
    const root = await comment(author, 'galgame', id, '楼主');
    const first = await comment(other, 'galgame', id, '一楼', root.id);
    const second = await comment(author, 'galgame', id, '回复一楼', first.id);
    const third = await comment(owner, 'galgame', id, '路过');
    const fourth = await comment(editor, 'galgame', id, '第四条回复', root.id);
    const fifth = await comment(other, 'galgame', id, '第五条回复', second.id);

    expect(first).toMatchObject({ rootId: root.id, parentId: root.id, replyTo: { userId: author.userId } });
    expect(second).toMatchObject({ rootId: root.id, parentId: first.id, replyTo: { userId: other.userId } });
    expect(fifth).toMatchObject({ rootId: root.id, parentId: second.id, replyTo: { userId: author.userId } });
    expect(third.rootId).toBeNull();

    const page = await list(`targetType=galgame&targetId=${id}&sort=new`, author.token);
    expect(page.total).toBe(6);
    expect(page.items.map((t) => t.id)).toEqual([third.id, root.id]);
    const thread = page.items[1]!;
    expect(thread.replyCount).toBe(4);
    // The first three replies, oldest first.
    expect(thread.replies.map((r) => r.id)).toEqual([first.id, second.id, fourth.id]);
    expect(thread.replies.map((r) => r.viewer.canDelete)).toEqual([false, true, false]);

    const replies = data(
      (await call<CommentReplyPage>(app, 'GET', `/comments/${root.id}/replies?page=2&limit=3`, author.token)).body,
    );
    expect(replies.items.map((r) => r.id)).toEqual([fifth.id]);
    expect(replies.pagination).toMatchObject({ page: 2, limit: 3, total: 4, totalPages: 2 });
    // Replies are read through their root.
    expectFailure(await call(app, 'GET', `/comments/${first.id}/replies`), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', '/comments/999999/replies'), 404, 'NOT_FOUND');
    await expectExactCounts('galgame', id);
  });

  it('comments on people and characters too, each with its own count', async () => {
    await comment(author, 'person', personId, '这位声优的演技太好了');
    await comment(other, 'character', characterId, '最喜欢的角色');
    expect((await list(`targetType=person&targetId=${personId}`)).total).toBe(1);
    expect((await list(`targetType=character&targetId=${characterId}`)).total).toBe(1);
    await expectExactCounts('person', personId);
  });

  it('refuses bad input with VALIDATION_FAILED and a readable message', async () => {
    await resetLimits();
    const base = { targetType: 'galgame', targetId: gameId };
    const bad: [string, unknown][] = [
      ['empty', { ...base, content: '' }],
      ['only spaces', { ...base, content: '   \n  ' }],
      ['too long', { ...base, content: 'あ'.repeat(COMMENT_CONTENT_MAX + 1) }],
      ['control character', { ...base, content: 'hi\u0007there' }],
      ['NUL', { ...base, content: 'hi\u0000' }],
      ['bidi override', { ...base, content: 'abc\u202Edef' }],
      ['lone surrogate', { ...base, content: 'bad \uD800 text' }],
      ['content not text', { ...base, content: 12 }],
      ['content missing', { ...base }],
      ['targetId as text', { targetType: 'galgame', targetId: String(gameId), content: 'x' }],
      ['targetId negative', { targetType: 'galgame', targetId: -1, content: 'x' }],
      ['targetId fractional', { targetType: 'galgame', targetId: 1.5, content: 'x' }],
      ['targetId huge', { targetType: 'galgame', targetId: 2 ** 60, content: 'x' }],
      ['unknown type', { targetType: 'spaceship', targetId: 1, content: 'x' }],
      ['type not text', { targetType: ['galgame'], targetId: 1, content: 'x' }],
      ['parentId text', { ...base, content: 'x', parentId: '1' }],
      ['parentId zero', { ...base, content: 'x', parentId: 0 }],
      ['too many images', { ...base, content: '[img]https://example.com/a.png[/img]'.repeat(COMMENT_IMAGES_MAX + 1) }],
      ['body is an array', [base]],
      ['body is null', null],
    ];
    for (const [what, body] of bad) {
      const answer = await post(author.token, body);
      expect(answer.res.status, what).toBe(400);
      expect(answer.body.code, what).toBe('VALIDATION_FAILED');
      expect(answer.body.message, what).not.toMatch(/^(comments|validation|server)\./);
    }
    const tooLong = await post(author.token, { ...base, content: 'x'.repeat(COMMENT_CONTENT_MAX + 1) });
    expect(tooLong.body.message).toContain(String(COMMENT_CONTENT_MAX));

    // Exactly the limit, and line breaks (Windows ones become \n), are fine.
    const longest = await post(author.token, { ...base, content: 'あ'.repeat(COMMENT_CONTENT_MAX) });
    expect(longest.res.status).toBe(201);
    const lines = await post(author.token, { ...base, content: 'a\r\nb\tc' });
    expect(data(lines.body).content).toBe('a\nb\tc');

    // A body past the API's size limit is refused before it is read.
    const huge = await app.request('/api/comments', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${author.token}` },
      body: JSON.stringify({ ...base, content: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);

    // Queries too.
    for (const query of [
      'targetType=galgame',
      `targetType=galgame&targetId=0${gameId}`,
      `targetType=galgame&targetId=${gameId}&sort=best`,
      `targetType=galgame&targetId=${gameId}&page=0`,
      `targetType=galgame&targetId=${gameId}&limit=51`,
      `targetType=galgame&targetId=${gameId}&limit=-1`,
      `targetType=nope&targetId=${gameId}`,
    ]) {
      expectFailure(await call(app, 'GET', `/comments?${query}`), 400, 'VALIDATION_FAILED');
    }
    expectFailure(await call(app, 'GET', '/comments/abc/replies'), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'DELETE', '/comments/1e3', author.token), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'PUT', '/comments/1/pin', owner.token, { pinned: 'yes' }), 400, 'VALIDATION_FAILED');
  });

  it('answers 404 for targets that cannot be commented on or that the caller may not see', async () => {
    await resetLimits();
    // Types without a comment count (users, ratings, comments themselves), missing items, drafts.
    for (const [targetType, targetId] of [
      ['user', author.userId],
      ['comment', 1],
      ['rating', 1],
      ['section', 1],
      ['galgame', 999_999],
      ['person', 999_999],
      ['galgame', draftId],
    ] as const) {
      expectFailure(await post(other.token, { targetType, targetId, content: '看不见' }), 404, 'NOT_FOUND');
      expectFailure(
        await call(app, 'GET', `/comments?targetType=${targetType}&targetId=${targetId}`),
        404,
        'NOT_FOUND',
      );
    }
    // Its creator and the reviewers see the draft, so they may comment on it.
    expect(
      (await post(owner.token, { targetType: 'galgame', targetId: draftId, content: '草稿备注' })).res.status,
    ).toBe(201);
    const page = await list(`targetType=galgame&targetId=${draftId}`, editor.token);
    expect(page.total).toBe(1);
    expectFailure(
      await call(app, 'GET', `/comments?targetType=galgame&targetId=${draftId}`, other.token),
      404,
      'NOT_FOUND',
    );
  });

  it('answers only comments of the same target, and only visible ones', async () => {
    const id = await game('published', null);
    const elsewhere = await comment(author, 'galgame', gameId, '别的游戏下的评论');
    await resetLimits();
    const wrong = await post(other.token, {
      targetType: 'galgame',
      targetId: id,
      content: '串楼',
      parentId: elsewhere.id,
    });
    expectFailure(wrong, 400, 'VALIDATION_FAILED');
    expect(JSON.stringify(wrong.body.data)).toContain('parentId');
    // Same id, another type.
    const person = await post(other.token, {
      targetType: 'person',
      targetId: gameId,
      content: '串楼',
      parentId: elsewhere.id,
    });
    expect([400, 404]).toContain(person.res.status);
    expectFailure(
      await post(other.token, { targetType: 'galgame', targetId: id, content: '不存在', parentId: 999_999 }),
      404,
      'NOT_FOUND',
    );
    const gone = await comment(author, 'galgame', id, '马上删除');
    expect((await call(app, 'DELETE', `/comments/${gone.id}`, author.token)).res.status).toBe(200);
    expectFailure(
      await post(other.token, { targetType: 'galgame', targetId: id, content: '回复已删', parentId: gone.id }),
      404,
      'NOT_FOUND',
    );
    await expectExactCounts('galgame', id);
  });

  it('needs a login to write, and refuses banned members', async () => {
    expectFailure(
      await post(undefined, { targetType: 'galgame', targetId: gameId, content: '游客' }),
      401,
      'UNAUTHORIZED',
    );
    expectFailure(await call(app, 'DELETE', '/comments/1'), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'PUT', '/comments/1/pin', undefined, { pinned: true }), 401, 'UNAUTHORIZED');
    const banned = await account('Troublemaker');
    await app.ctx.db.updateTable('users').set({ status: 'banned' }).where('id', '=', banned.id).execute();
    expectFailure(
      await post(banned.token, { targetType: 'galgame', targetId: gameId, content: '我又来了' }),
      403,
      'ACCOUNT_BANNED',
    );
  });

  it('lets the author or a moderator delete; a root with replies keeps its place and counts stay exact', async () => {
    const id = await game('published', owner.id);
    const root = await comment(author, 'galgame', id, '有回复的楼');
    const reply = await comment(other, 'galgame', id, '回复', root.id);
    const lonely = await comment(author, 'galgame', id, '没有回复的楼');
    const others = await comment(other, 'galgame', id, '别人的评论');

    // Another member, the target's owner (not a moderator) and visitors may not.
    expectFailure(await call(app, 'DELETE', `/comments/${root.id}`, other.token), 403, 'FORBIDDEN');
    expectFailure(await call(app, 'DELETE', `/comments/${others.id}`, owner.token), 403, 'FORBIDDEN');
    expectFailure(await call(app, 'DELETE', `/comments/999999`, author.token), 404, 'NOT_FOUND');

    const removed = await call<{ deleted: true }>(app, 'DELETE', `/comments/${root.id}`, author.token);
    expect(removed.res.status).toBe(200);
    expect(data(removed.body)).toEqual({ deleted: true });
    // Deleting it again: it is gone.
    expectFailure(await call(app, 'DELETE', `/comments/${root.id}`, author.token), 404, 'NOT_FOUND');
    expect((await call(app, 'DELETE', `/comments/${lonely.id}`, author.token)).res.status).toBe(200);
    // A moderator deletes anyone's.
    expect((await call(app, 'DELETE', `/comments/${others.id}`, editor.token)).res.status).toBe(200);

    let page = await list(`targetType=galgame&targetId=${id}`, author.token);
    expect(page.total).toBe(1);
    expect(page.items.map((t) => t.id)).toEqual([root.id]);
    expect(page.items[0]).toMatchObject({
      deleted: true,
      content: '',
      replyCount: 1,
      viewer: { canDelete: false, canPin: false },
      replies: [{ id: reply.id, content: '回复' }],
    });
    await expectExactCounts('galgame', id);

    // Once its last reply goes, the deleted root is left out.
    expect((await call(app, 'DELETE', `/comments/${reply.id}`, other.token)).res.status).toBe(200);
    page = await list(`targetType=galgame&targetId=${id}`);
    expect(page.items).toEqual([]);
    expect(page.total).toBe(0);
    expectFailure(await call(app, 'GET', `/comments/${root.id}/replies`), 404, 'NOT_FOUND');
    await expectExactCounts('galgame', id);
  });

  it('counts exactly when many write and delete at once', async () => {
    const id = await game('published', null);
    const root = await comment(author, 'galgame', id, '热门楼');
    const writers = await Promise.all(Array.from({ length: 12 }, (_, i) => account(`Writer${i}`)));
    const answers = await Promise.all(
      writers.map((w, i) =>
        post(w.token, {
          targetType: 'galgame',
          targetId: id,
          content: `并发 ${i}`,
          ...(i % 2 ? { parentId: root.id } : {}),
        }),
      ),
    );
    expect(answers.map((a) => a.res.status)).toEqual(writers.map(() => 201));
    let counts = await expectExactCounts('galgame', id);
    expect(counts.stored).toBe(13);
    expect(counts.roots.find((r) => r.id === root.id)?.stored).toBe(6);

    // The same delete five times at once counts once.
    const reply = data(answers[1]!.body);
    const deletes = await Promise.all(
      Array.from({ length: 5 }, () => call(app, 'DELETE', `/comments/${reply.id}`, writers[1]!.token)),
    );
    expect(deletes.map((d) => d.res.status).sort()).toEqual([200, 404, 404, 404, 404]);
    counts = await expectExactCounts('galgame', id);
    expect(counts.stored).toBe(12);
    expect(counts.roots.find((r) => r.id === root.id)?.stored).toBe(5);
  });

  it('pins one root per target: the owner or a moderator, shown first on the first page', async () => {
    const id = await game('published', owner.id);
    const a = await comment(author, 'galgame', id, '老评论');
    const b = await comment(other, 'galgame', id, '新评论');
    const reply = await comment(other, 'galgame', id, '回复', a.id);

    expectFailure(await call(app, 'PUT', `/comments/${a.id}/pin`, author.token, { pinned: true }), 403, 'FORBIDDEN');
    expectFailure(
      await call(app, 'PUT', `/comments/${reply.id}/pin`, owner.token, { pinned: true }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await call(app, 'PUT', '/comments/999999/pin', owner.token, { pinned: true }), 404, 'NOT_FOUND');

    const pinned = await call<CommentView>(app, 'PUT', `/comments/${a.id}/pin`, owner.token, { pinned: true });
    expect(pinned.res.status).toBe(200);
    expect(data(pinned.body)).toMatchObject({ id: a.id, pinned: true, viewer: { canPin: true } });
    let page = await list(`targetType=galgame&targetId=${id}&sort=new`, owner.token);
    expect(page.items.map((t) => [t.id, t.pinned, t.viewer.canPin])).toEqual([
      [a.id, true, true],
      [b.id, false, true],
    ]);
    // Only the owner and moderators see they may pin.
    page = await list(`targetType=galgame&targetId=${id}&sort=new`, other.token);
    expect(page.items.every((t) => !t.viewer.canPin)).toBe(true);

    // A moderator pins another: the first is unpinned.
    expect((await call(app, 'PUT', `/comments/${b.id}/pin`, editor.token, { pinned: true })).res.status).toBe(200);
    page = await list(`targetType=galgame&targetId=${id}&sort=new`);
    expect(page.items.map((t) => [t.id, t.pinned])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
    // Pins at once still leave one.
    await Promise.all([
      call(app, 'PUT', `/comments/${a.id}/pin`, owner.token, { pinned: true }),
      call(app, 'PUT', `/comments/${b.id}/pin`, editor.token, { pinned: true }),
      call(app, 'PUT', `/comments/${a.id}/pin`, editor.token, { pinned: true }),
    ]);
    const pins = await app.ctx.db
      .selectFrom('comment')
      .select('id')
      .where('target_type', '=', 'galgame')
      .where('target_id', '=', id)
      .where('pinned', '=', 1)
      .execute();
    expect(pins).toHaveLength(1);

    // Unpinning, and a deleted root loses its pin.
    const pinnedId = pins[0]!.id;
    const unpinned = await call<CommentView>(app, 'PUT', `/comments/${pinnedId}/pin`, owner.token, { pinned: false });
    expect(data(unpinned.body).pinned).toBe(false);
    await call(app, 'PUT', `/comments/${b.id}/pin`, owner.token, { pinned: true });
    await call(app, 'DELETE', `/comments/${b.id}`, other.token);
    expect((await list(`targetType=galgame&targetId=${id}`)).items.some((t) => t.pinned)).toBe(false);
  });

  it('sorts hot (likes, replies, newest) and new, with the pinned root first, page by page', async () => {
    const id = await game('published', owner.id);
    const made: CommentView[] = [];
    for (let i = 0; i < 6; i++) made.push(await comment(author, 'galgame', id, `评论 ${i}`));
    const [c0, c1, c2, c3, c4, c5] = made.map((c) => c.id) as [number, number, number, number, number, number];
    // c2: two likes; c4: one like; c1: one like and a reply; the rest nothing.
    for (const who of [other, editor])
      await call(app, 'POST', '/likes', who.token, { targetType: 'comment', targetId: c2 });
    await call(app, 'POST', '/likes', other.token, { targetType: 'comment', targetId: c4 });
    await call(app, 'POST', '/likes', other.token, { targetType: 'comment', targetId: c1 });
    await comment(other, 'galgame', id, '回复', c1);

    const ids = (page: CommentPage) => page.items.map((t) => t.id);
    const hot = await list(`targetType=galgame&targetId=${id}&limit=50`, other.token);
    expect(ids(hot)).toEqual([c2, c1, c4, c5, c3, c0]);
    expect(hot.items.find((t) => t.id === c2)?.viewer.isLiked).toBe(true);
    expect(hot.items.find((t) => t.id === c5)?.viewer.isLiked).toBe(false);
    expect(hot.total).toBe(7);
    const newest = await list(`targetType=galgame&targetId=${id}&sort=new`);
    expect(ids(newest)).toEqual([c5, c4, c3, c2, c1, c0]);

    await call(app, 'PUT', `/comments/${c0}/pin`, owner.token, { pinned: true });
    const first = await list(`targetType=galgame&targetId=${id}&limit=4`);
    const second = await list(`targetType=galgame&targetId=${id}&limit=4&page=2`);
    expect(ids(first)).toEqual([c0, c2, c1, c4]);
    expect(ids(second)).toEqual([c5, c3]);
    expect(second.pagination).toMatchObject({ page: 2, limit: 4, total: 6, totalPages: 2 });
    const past = await list(`targetType=galgame&targetId=${id}&limit=4&page=3`);
    expect(past.items).toEqual([]);
    expect(ids(await list(`targetType=galgame&targetId=${id}&sort=new&limit=3`))).toEqual([c0, c5, c4]);

    // Pages render the same list without HTTP.
    const direct = await listComments(app.ctx, null, { targetType: 'galgame', targetId: id, page: 1, limit: 4 });
    expect(ids(direct)).toEqual([c0, c2, c1, c4]);
  });

  it('limits each member to 6 comments a minute (429 with Retry-After)', async () => {
    const id = await game('published', null);
    const writer = await account('FastWriter');
    await resetLimits();
    for (let i = 0; i < 6; i++) {
      const answer = await post(writer.token, { targetType: 'galgame', targetId: id, content: `第 ${i + 1} 条` });
      expect(answer.res.status, `comment ${i + 1}`).toBe(201);
    }
    const refused = await post(writer.token, { targetType: 'galgame', targetId: id, content: '第 7 条' });
    expectFailure(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another member is not held back.
    expect((await post(other.token, { targetType: 'galgame', targetId: id, content: '我可以' })).res.status).toBe(201);
    expect((await recount('galgame', id)).stored).toBe(7);
  });

  it('limits each member to 300 comments a day', async () => {
    const writer = await account('DailyWriter');
    await resetLimits();
    const day = 24 * 60 * 60_000;
    await app.ctx.db
      .insertInto('rate_limit')
      .values({ key: `comment:day:${writer.id}`, window_start: Date.now() - (Date.now() % day), count: 300 })
      .execute();
    const refused = await post(writer.token, { targetType: 'galgame', targetId: gameId, content: '今天第 301 条' });
    expectFailure(refused, 429, 'RATE_LIMITED');
    expect(refused.body.message).toContain('300');
  });

  it('takes images uploaded for comments, refuses other addresses of our image bed', async () => {
    const id = await game('published', null);
    await resetLimits();
    const address = data(
      (
        await call<UploadAddress>(app, 'POST', '/upload', author.token, {
          type: 'comment',
          id: author.userId,
          format: 'webp',
        })
      ).body,
    );
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#39c5bb' } })
      .webp()
      .toBuffer();
    const url = new URL(address.url);
    const put = await fetch(`${server.base}${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/webp' },
      body: new Uint8Array(image),
    });
    expect(put.status).toBe(200);
    const storage = app.ctx.storage;
    await resetLimits();
    const ok = await post(author.token, {
      targetType: 'galgame',
      targetId: id,
      content: `截图：[img]${address.publicUrl}[/img] 和外链 [img]https://example.com/a.png[/img]`,
    });
    expect(ok.res.status, JSON.stringify(ok.body)).toBe(201);

    for (const content of [
      `[img]${storage.publicUrl(`comment/${author.userId}/never-uploaded.webp`)}[/img]`,
      `[img]${storage.publicUrl('avatar/1/face.webp')}[/img]`,
      `[img]${storage.publicUrl('emoji/1/smile.webp')}[/img]`,
      `[img]${address.publicUrl}?v=2[/img]`,
    ]) {
      await resetLimits();
      const refused = await post(author.token, { targetType: 'galgame', targetId: id, content });
      expect(refused.res.status, content).toBe(400);
      expect(['VALIDATION_FAILED', 'UPLOAD_INCOMPLETE']).toContain(refused.body.code);
    }
    expect((await recount('galgame', id)).stored).toBe(1);
  });

  it("lists a user's comments with what they are about", async () => {
    const writer = await account('Diarist');
    const hidden = await game('draft', owner.id);
    const shown = await comment(writer, 'galgame', gameId, '公开评论');
    await comment(writer, 'person', personId, '人物评论');
    await app.ctx.db.updateTable('galgame').set({ status: 'published' }).where('id', '=', hidden).execute();
    const later = await comment(writer, 'galgame', hidden, '之后隐藏');
    await app.ctx.db.updateTable('galgame').set({ status: 'draft' }).where('id', '=', hidden).execute();

    const page = await listUserComments(app.ctx, null, writer.id, { page: 1, limit: 10 });
    expect(page.items.map((c) => c.id)).not.toContain(later.id);
    expect(page.items.map((c) => c.target.type)).toEqual(['person', 'galgame']);
    expect(page.items[1]).toMatchObject({
      id: shown.id,
      target: { type: 'galgame', id: gameId, title: `测试游戏 ${gameId}`, url: `/galgame/${gameId}` },
    });
    // The game's owner sees the comment on the draft too.
    const forOwner = await listUserComments(app.ctx, { id: owner.id, group: 'creator' }, writer.id, {
      page: 1,
      limit: 10,
    });
    expect(forOwner.items[0]).toMatchObject({ id: later.id, viewer: { canPin: true } });
  });

  it('registers comments as a target: visible where their target is, linked at their anchor', async () => {
    const root = await comment(
      author,
      'galgame',
      gameId,
      `[emoji:hikari/smile] 这部作品的结局让我想了${'很久'.repeat(20)}`,
    );
    const found = await app.ctx.targets.find(app.ctx.db, 'comment', [root.id, 999_999], null);
    expect(found.get(root.id)).toMatchObject({
      type: 'comment',
      url: `/galgame/${gameId}#comment-${root.id}`,
      ownerId: author.id,
    });
    expect(found.get(root.id)?.title.startsWith('这部作品的结局')).toBe(true);
    expect(found.get(root.id)?.title.endsWith('…')).toBe(true);
    expect(found.has(999_999)).toBe(false);
    const onDraft = await comment(owner, 'galgame', draftId, '草稿下的评论');
    expect((await app.ctx.targets.find(app.ctx.db, 'comment', [onDraft.id], null)).size).toBe(0);
    expect(
      (await app.ctx.targets.find(app.ctx.db, 'comment', [onDraft.id], { id: owner.id, group: 'creator' })).size,
    ).toBe(1);
  });

  it('tells cached pages that the comments and the target changed', async () => {
    const id = await game('published', null);
    const seen: string[][] = [];
    const stop = app.ctx.bus.subscribe('pages.changed', (event: PagesChanged) => {
      seen.push(event.tags);
    });
    try {
      const created = await comment(author, 'galgame', id, '刷新缓存');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen.flat()).toEqual(expect.arrayContaining([`comments:galgame:${id}`, `galgame:${id}`]));
      seen.length = 0;
      await call(app, 'DELETE', `/comments/${created.id}`, author.token);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen.flat()).toEqual(expect.arrayContaining([`comments:galgame:${id}`]));
    } finally {
      stop();
    }
  });

  it('removes a user with their comments and threads, and recounts what they were part of', async () => {
    const id = await game('published', null);
    const leaving = await account('LeavingSoon');
    const stays = await comment(other, 'galgame', id, '留下的楼');
    const theirRoot = await comment(leaving, 'galgame', id, '要走的人的楼');
    await comment(other, 'galgame', id, '回复要走的人', theirRoot.id);
    const theirReply = await comment(leaving, 'galgame', id, '要走的人的回复', stays.id);
    const answer = await comment(author, 'galgame', id, '回复了要走的人', theirReply.id);
    await call(app, 'POST', '/likes', leaving.token, { targetType: 'comment', targetId: stays.id });
    await call(app, 'POST', '/likes', other.token, { targetType: 'comment', targetId: theirReply.id });
    expect((await recount('galgame', id)).stored).toBe(5);

    await removeUser(app.ctx, leaving.id);
    const counts = await expectExactCounts('galgame', id);
    expect(counts.stored).toBe(2);
    const page = await list(`targetType=galgame&targetId=${id}`);
    expect(page.items.map((t) => t.id)).toEqual([stays.id]);
    expect(page.items[0]).toMatchObject({ likeCount: 0, replyCount: 1 });
    expect(page.items[0]?.replies[0]).toMatchObject({ id: answer.id, parentId: null, replyTo: null });
    const orphanLikes = await app.ctx.db
      .selectFrom('reaction_like')
      .select('target_id')
      .where('target_type', '=', 'comment')
      .where('target_id', '=', theirReply.id)
      .execute();
    expect(orphanLikes).toEqual([]);
  });
});
