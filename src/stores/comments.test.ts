import { beforeAll, describe, expect, it } from 'vitest';
import type { CommentPage, CommentThread, CommentView } from '../shared/comments/comments.ts';
import { ApiError } from './api-client.ts';
import {
  createCommentSection,
  draftProblem,
  findComment,
  hasMoreReplies,
  hasMoreRoots,
  loadCommentsContract,
} from './comments.ts';
import { fakeApi } from './fake-api.ts';

// The contracts load with a store's first call; here they are loaded up front, so calls go out at once.
beforeAll(() => loadCommentsContract());

const viewer = { isLiked: false, canDelete: false, canPin: false };

function view(id: number, change: Partial<CommentView> = {}): CommentView {
  return {
    id,
    targetType: 'galgame',
    targetId: 7,
    rootId: null,
    parentId: null,
    author: { userId: 100 + id, name: `用户${id}`, avatar: '' },
    replyTo: null,
    content: `评论 ${id}`,
    deleted: false,
    hidden: false,
    likeCount: 0,
    replyCount: 0,
    pinned: false,
    createdAt: `2026-11-0${Math.min(9, id)}T00:00:00.000Z`,
    viewer,
    ...change,
  };
}

const reply = (id: number, rootId: number, change: Partial<CommentView> = {}) =>
  view(id, {
    rootId,
    parentId: rootId,
    replyTo: { userId: 100 + rootId, name: `用户${rootId}`, avatar: '' },
    ...change,
  });

const thread = (root: CommentView, replies: CommentView[] = []): CommentThread => ({ ...root, replies });

function page(items: CommentThread[], at = 1, totalPages = 1, total = items.length): CommentPage {
  return { items, pagination: { page: at, totalPages, limit: 20, total: items.length }, total };
}

function setup(initial: CommentPage | null, sort: 'hot' | 'new' = 'hot') {
  const fake = fakeApi();
  const section = createCommentSection(fake.client, { targetType: 'galgame', targetId: 7, sort, initial });
  return { fake, section, state: () => section.$state.get() };
}

describe('a comment section', () => {
  it('starts from the page the server rendered, without the viewer flags', () => {
    const { state } = setup(page([thread(view(1, { likeCount: 3 }), [reply(2, 1, { likeCount: 1 })])], 1, 2, 5));
    expect(state()).toMatchObject({ sort: 'hot', page: 1, totalPages: 2, total: 5, viewerKnown: false, loading: null });
    expect(state().threads.map((item) => [item.comment.id, item.replies.map((r) => r.id)])).toEqual([[1, [2]]]);
    expect(hasMoreRoots(state())).toBe(true);
  });

  it("reads page 1 again with the login and takes the viewer's likes and rights", async () => {
    const { fake, section, state } = setup(page([thread(view(1, { likeCount: 3 }))]));
    const loading = section.load({ viewer: true });
    expect(state().loading).toBe('replace');
    expect(fake.calls[0]).toEqual({
      method: 'GET',
      path: '/comments',
      query: { targetType: 'galgame', targetId: 7, sort: 'hot', page: 1, limit: 20 },
    });
    const mine = { isLiked: true, canDelete: true, canPin: true };
    await fake.answer(page([thread(view(1, { likeCount: 4, viewer: mine }), [reply(2, 1, { viewer })])]));
    expect(await loading).toEqual({ ok: true });
    expect(state()).toMatchObject({ viewerKnown: true, loading: null, total: 1 });
    expect(state().threads[0]?.comment).toMatchObject({ likeCount: 4, viewer: mine });
    expect(state().threads[0]?.replies[0]?.viewer).toEqual(viewer);
  });

  it('reads the first page itself when the server did not, and shows a failure', async () => {
    const { fake, section, state } = setup(null);
    expect(state()).toMatchObject({ page: 0, threads: [], total: 0 });
    const failing = section.load();
    await fake.fail(new ApiError({ status: 500, code: 'INTERNAL_ERROR', message: '服务器开小差了' }));
    expect(await failing).toEqual({ ok: false, message: '服务器开小差了' });
    expect(state()).toMatchObject({ loading: null, error: '服务器开小差了' });
    const retry = section.load();
    expect(state().error).toBeNull();
    await fake.answer(page([]));
    await retry;
    expect(state()).toMatchObject({ page: 1, totalPages: 1, threads: [], error: null });
  });

  it('switches the sort; an answer to an older read is dropped', async () => {
    const { fake, section, state } = setup(page([thread(view(1))]));
    const toNew = section.load({ sort: 'new' });
    const backToHot = section.load({ sort: 'hot' });
    expect(state().sort).toBe('hot');
    expect(fake.calls.map((call) => (call.query as { sort: string }).sort)).toEqual(['new', 'hot']);
    await fake.answer(page([thread(view(5))]));
    await toNew;
    // The newer read is still out: the list waits for it.
    expect(state().threads.map((item) => item.comment.id)).toEqual([1]);
    await fake.answer(page([thread(view(3)), thread(view(1))]));
    await backToHot;
    expect(state().threads.map((item) => item.comment.id)).toEqual([3, 1]);
    expect(state().loading).toBeNull();
  });

  it('loads more roots below, without repeating roots already shown', async () => {
    const { fake, section, state } = setup(page([thread(view(9)), thread(view(8))], 1, 2, 4), 'new');
    const more = section.loadMore();
    expect(await section.loadMore()).toEqual({ ok: false, busy: true });
    expect(fake.calls[0]).toMatchObject({ query: { sort: 'new', page: 2 } });
    // A comment posted meanwhile pushed root 8 onto page 2.
    await fake.answer(page([thread(view(8)), thread(view(7))], 2, 2, 5));
    await more;
    expect(state().threads.map((item) => item.comment.id)).toEqual([9, 8, 7]);
    expect(state()).toMatchObject({ page: 2, totalPages: 2, total: 5 });
    expect(hasMoreRoots(state())).toBe(false);
    expect(await section.loadMore()).toEqual({ ok: true });
    expect(fake.calls).toHaveLength(1);
  });

  it("reads a root's replies page by page, oldest first, replacing the preview", async () => {
    const preview = [reply(2, 1), reply(3, 1), reply(4, 1)];
    const { fake, section, state } = setup(page([thread(view(1, { replyCount: 12 }), preview)]));
    const first = () => state().threads[0]!;
    expect(hasMoreReplies(first())).toBe(true);
    const loading = section.loadReplies(1);
    expect(first().loadingReplies).toBe(true);
    expect(fake.calls[0]).toEqual({ method: 'GET', path: '/comments/1/replies', query: { page: 1, limit: 10 } });
    const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    await fake.answer({
      items: ids(2, 11).map((id) => reply(id, 1)),
      pagination: { page: 1, totalPages: 2, limit: 10, total: 12 },
    });
    await loading;
    expect(first().replies.map((item) => item.id)).toEqual(ids(2, 11));
    expect(first()).toMatchObject({ repliesPage: 1, repliesTotalPages: 2, loadingReplies: false });
    expect(hasMoreReplies(first())).toBe(true);

    const next = section.loadReplies(1);
    expect(fake.calls[1]).toMatchObject({ query: { page: 2, limit: 10 } });
    await fake.answer({
      items: ids(12, 13).map((id) => reply(id, 1)),
      pagination: { page: 2, totalPages: 2, limit: 10, total: 12 },
    });
    await next;
    expect(first().replies.map((item) => item.id)).toEqual(ids(2, 13));
    expect(hasMoreReplies(first())).toBe(false);
  });

  it('posts a root at the top, below the pinned one, and counts it', async () => {
    const { fake, section, state } = setup(page([thread(view(1, { pinned: true })), thread(view(2))], 1, 1, 2));
    expect(await section.post('   ')).toEqual({ ok: false, problem: 'discussion.composer.empty' });
    expect(fake.calls).toHaveLength(0);
    const posting = section.post('  你好 [emoji:hikari/smile]  ');
    expect(state().posting).toBe(true);
    expect(await section.post('再来一条')).toEqual({ ok: false, busy: true });
    expect(fake.calls[0]).toEqual({
      method: 'POST',
      path: '/comments',
      body: { targetType: 'galgame', targetId: 7, content: '你好 [emoji:hikari/smile]' },
    });
    const created = view(9, { content: '你好 [emoji:hikari/smile]', viewer: { ...viewer, canDelete: true } });
    await fake.answer(created);
    expect(await posting).toEqual({ ok: true, comment: created, message: 'ok' });
    expect(state().threads.map((item) => item.comment.id)).toEqual([1, 9, 2]);
    expect(state()).toMatchObject({ total: 3, posting: false, justPosted: 9 });
  });

  it('posts a reply at the end of its thread, naming the reply it answers', async () => {
    const { fake, section, state } = setup(page([thread(view(1, { replyCount: 1 }), [reply(2, 1)])], 1, 1, 2));
    const parent = findComment(state(), 2)!;
    const posting = section.post('同意', parent);
    expect(fake.calls[0]?.body).toEqual({ targetType: 'galgame', targetId: 7, content: '同意', parentId: 2 });
    const created = reply(3, 1, { parentId: 2, replyTo: parent.author, createdAt: '2026-11-09T00:00:00.000Z' });
    await fake.answer(created);
    await posting;
    expect(state().threads[0]?.replies.map((item) => item.id)).toEqual([2, 3]);
    expect(state().threads[0]?.comment.replyCount).toBe(2);
    expect(state().total).toBe(3);
  });

  it('keeps the draft state when posting fails', async () => {
    const { fake, section, state } = setup(page([]));
    const posting = section.post('太快了');
    await fake.fail(new ApiError({ status: 429, code: 'RATE_LIMITED', message: '评论太频繁，请一分钟后再试' }));
    expect(await posting).toEqual({ ok: false, message: '评论太频繁，请一分钟后再试' });
    expect(state()).toMatchObject({ posting: false, total: 0, threads: [] });
  });

  it('gives a section that had nothing its first page with the first comment', async () => {
    const { fake, section, state } = setup(page([], 1, 0, 0));
    const posting = section.post('沙发');
    await fake.answer(view(1));
    await posting;
    expect(state().threads).toHaveLength(1);
    const empty = setup(null);
    const first = empty.section.post('沙发');
    await empty.fake.answer(view(1));
    await first;
    expect(empty.state()).toMatchObject({ page: 1, totalPages: 1, total: 1 });
  });

  it('deletes: a root with replies stays as deleted, a reply and a lone root go', async () => {
    const { fake, section, state } = setup(
      page([thread(view(1, { replyCount: 1 }), [reply(2, 1)]), thread(view(3))], 1, 1, 3),
    );
    const removing = section.remove(1);
    expect(state().busy).toEqual({ 1: true });
    expect(await section.remove(1)).toEqual({ ok: false, busy: true });
    expect(fake.calls[0]).toEqual({ method: 'DELETE', path: '/comments/1' });
    await fake.answer({ deleted: true });
    expect(await removing).toEqual({ ok: true, message: 'ok' });
    expect(state().threads[0]?.comment).toMatchObject({ id: 1, deleted: true, content: '', replyCount: 1 });
    expect(state().threads[0]?.replies.map((item) => item.id)).toEqual([2]);
    expect(state()).toMatchObject({ total: 2, busy: {} });

    // Its last reply gone, the deleted root goes too.
    const replyGone = section.remove(2);
    await fake.answer({ deleted: true });
    await replyGone;
    expect(state().threads.map((item) => item.comment.id)).toEqual([3]);

    const loneGone = section.remove(3);
    await fake.answer({ deleted: true });
    await loneGone;
    expect(state()).toMatchObject({ threads: [], total: 0 });
  });

  it('keeps a comment whose delete was refused', async () => {
    const { fake, section, state } = setup(page([thread(view(1))]));
    const removing = section.remove(1);
    await fake.fail(new ApiError({ status: 403, code: 'FORBIDDEN', message: '只能删除自己的评论' }));
    expect(await removing).toEqual({ ok: false, message: '只能删除自己的评论' });
    expect(state().threads).toHaveLength(1);
    expect(state().busy).toEqual({});
  });

  it('pins a root first (the one pinned before loses it) and unpins in place', async () => {
    const { fake, section, state } = setup(page([thread(view(1, { pinned: true })), thread(view(2)), thread(view(3))]));
    const pinning = section.pin(3, true);
    expect(fake.calls[0]).toEqual({ method: 'PUT', path: '/comments/3/pin', body: { pinned: true } });
    await fake.answer(view(3, { pinned: true }));
    expect(await pinning).toEqual({ ok: true, message: 'ok' });
    expect(state().threads.map((item) => [item.comment.id, item.comment.pinned])).toEqual([
      [3, true],
      [1, false],
      [2, false],
    ]);
    const unpinning = section.pin(3, false);
    await fake.answer(view(3, { pinned: false }));
    await unpinning;
    expect(state().threads.map((item) => [item.comment.id, item.comment.pinned])).toEqual([
      [3, false],
      [1, false],
      [2, false],
    ]);
  });
});

describe('drafts', () => {
  it('must have text and at most 1000 characters after trimming', () => {
    expect(draftProblem('')).toBe('discussion.composer.empty');
    expect(draftProblem(' \n ')).toBe('discussion.composer.empty');
    // What the server refuses as showing nothing: blank braille, lone accents, one zero-width space.
    for (const blank of ['\u2800\u2800', '\u0301\u0308', '\u200B', '\u3164']) {
      expect(draftProblem(blank)).toBe('discussion.composer.empty');
    }
    expect(draftProblem(` ${'字'.repeat(1000)} `)).toBeNull();
    expect(draftProblem('字'.repeat(1001))).toBe('discussion.composer.tooLong');
  });
});
