import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { fakeApi } from './fake-api.ts';
import { createLikes, createReports, loadReactionsContract, reportProblem } from './reactions.ts';

// The contract loads with a store's first call; here it is loaded up front, so calls go out at once.
beforeAll(() => loadReactionsContract());

const apiError = (status: number, code: ConstructorParameters<typeof ApiError>[0]['code'], message: string) =>
  new ApiError({ status, code, message });

/** Checks run when the test says (instead of a few milliseconds later). */
function manualSchedule() {
  const queue: (() => void)[] = [];
  return { schedule: (run: () => void) => void queue.push(run), flush: () => queue.splice(0).forEach((run) => run()) };
}

describe('likes', () => {
  it('toggles optimistically and settles on the server count', async () => {
    const fake = fakeApi();
    const likes = createLikes(fake.client);
    likes.seed('comment', 3, 10, false);
    const liking = likes.toggle('comment', 3);
    // Shown at once, and pending while the request is out.
    expect(likes.entry('comment', 3)).toEqual({ liked: true, count: 11, pending: true });
    expect(fake.calls[0]).toEqual({ method: 'POST', path: '/likes', body: { targetType: 'comment', targetId: 3 } });
    await fake.answer({ isLiked: true, likeCount: 12 });
    expect(await liking).toEqual({ ok: true });
    expect(likes.entry('comment', 3)).toEqual({ liked: true, count: 12, pending: false });

    const unliking = likes.toggle('comment', 3);
    expect(likes.entry('comment', 3)).toMatchObject({ liked: false, count: 11, pending: true });
    expect(fake.calls[1]).toEqual({ method: 'DELETE', path: '/likes/comment/3' });
    await fake.answer({ isLiked: false, likeCount: 11 });
    await unliking;
    expect(likes.entry('comment', 3)).toEqual({ liked: false, count: 11, pending: false });
  });

  it('sends one request for a double click', async () => {
    const fake = fakeApi();
    const likes = createLikes(fake.client);
    likes.seed('rating', 5, 0, false);
    const first = likes.toggle('rating', 5);
    expect(await likes.toggle('rating', 5)).toEqual({ ok: false, busy: true });
    expect(fake.calls).toHaveLength(1);
    await fake.answer({ isLiked: true, likeCount: 1 });
    await first;
    expect(likes.entry('rating', 5)).toEqual({ liked: true, count: 1, pending: false });
  });

  it('rolls back and gives the server message when refused', async () => {
    const fake = fakeApi();
    const likes = createLikes(fake.client);
    likes.seed('post', 8, 4);
    const liking = likes.toggle('post', 8);
    expect(likes.entry('post', 8).count).toBe(5);
    await fake.fail(apiError(404, 'NOT_FOUND', '要点赞的内容不存在'));
    expect(await liking).toEqual({ ok: false, message: '要点赞的内容不存在' });
    expect(likes.entry('post', 8)).toEqual({ liked: null, count: 4, pending: false });
  });

  it('asks about the items of one type in one request, and keeps what a toggle already knows', async () => {
    const fake = fakeApi();
    const timing = manualSchedule();
    const likes = createLikes(fake.client, { schedule: timing.schedule });
    for (const id of [1, 2, 3]) likes.seed('rating', id, id);
    const checks = [
      likes.check('rating', 1),
      likes.check('rating', 2),
      likes.check('rating', 3),
      likes.check('rating', 2),
    ];
    const toggling = likes.toggle('rating', 3);
    timing.flush();
    await fake.sent(2);
    expect(fake.calls.map((call) => call.method)).toEqual(['POST', 'GET']);
    expect(fake.calls[1]).toEqual({
      method: 'GET',
      path: '/likes/check',
      query: { targetType: 'rating', ids: '1,2,3' },
    });
    await fake.answer({ isLiked: true, likeCount: 4 });
    await fake.answer({ liked: [2] });
    expect(await Promise.all(checks)).toEqual([{ ok: true }, { ok: true }, { ok: true }, { ok: true }]);
    await toggling;
    expect(likes.entry('rating', 1)).toEqual({ liked: false, count: 1, pending: false });
    expect(likes.entry('rating', 2)).toEqual({ liked: true, count: 2, pending: false });
    // The toggle's answer, not the check sent while it was out.
    expect(likes.entry('rating', 3)).toEqual({ liked: true, count: 4, pending: false });
  });

  it('splits a long check into requests of at most 100 ids, one type per request', async () => {
    const fake = fakeApi();
    const timing = manualSchedule();
    const likes = createLikes(fake.client, { schedule: timing.schedule });
    const all = Array.from({ length: 150 }, (_, i) => likes.check('comment', i + 1));
    const post = likes.check('post', 9);
    timing.flush();
    await fake.sent(3);
    const asked = fake.calls.map((call) => call.query as { targetType: string; ids: string });
    expect(asked.map((query) => [query.targetType, query.ids.split(',').length])).toEqual([
      ['comment', 100],
      ['comment', 50],
      ['post', 1],
    ]);
    await fake.answer({ liked: [1, 100] });
    await fake.fail(apiError(500, 'INTERNAL_ERROR', '服务器开小差了'));
    await fake.answer({ liked: [] });
    const outcomes = await Promise.all([...all, post]);
    expect(outcomes[0]).toEqual({ ok: true });
    expect(outcomes[120]).toEqual({ ok: false, message: '服务器开小差了' });
    expect(outcomes[150]).toEqual({ ok: true });
    expect(likes.entry('comment', 100).liked).toBe(true);
    expect(likes.entry('comment', 120).liked).toBeNull();
  });

  it('takes a newer count from a page without forgetting the viewer like, unless a toggle is out', async () => {
    const fake = fakeApi();
    const likes = createLikes(fake.client);
    likes.seed('comment', 1, 2, true);
    likes.seed('comment', 1, 5);
    expect(likes.entry('comment', 1)).toEqual({ liked: true, count: 5, pending: false });
    const unliking = likes.toggle('comment', 1);
    likes.seed('comment', 1, 9, true);
    expect(likes.entry('comment', 1)).toEqual({ liked: false, count: 4, pending: true });
    await fake.answer({ isLiked: false, likeCount: 4 });
    await unliking;
  });
});

describe('reports', () => {
  it('checks the form before sending', () => {
    expect(reportProblem({ reason: '', text: '' })).toBe('discussion.report.pickReason');
    expect(reportProblem({ reason: 'spam', text: 'x'.repeat(501) })).toBe('discussion.report.tooLong');
    expect(reportProblem({ reason: 'spam', text: ` ${'x'.repeat(500)} ` })).toBeNull();
  });

  it('sends a report once at a time and passes on the server message and code', async () => {
    const fake = fakeApi();
    const reports = createReports(fake.client);
    const sending = reports.send('comment', 4, { reason: 'abuse', text: '  骂人  ' });
    expect(await reports.send('comment', 4, { reason: 'abuse', text: '' })).toEqual({ ok: false, busy: true });
    await fake.sent(1);
    expect(fake.calls[0]).toEqual({
      method: 'POST',
      path: '/reports',
      body: { targetType: 'comment', targetId: 4, reason: 'abuse', text: '骂人' },
    });
    await fake.answer({ id: 1, status: 'open' });
    expect(await sending).toEqual({ ok: true, message: 'ok' });

    const again = reports.send('comment', 4, { reason: 'spam', text: '' });
    await fake.fail(apiError(409, 'ALREADY_REPORTED', '你已经举报过这条内容'));
    expect(await again).toEqual({ ok: false, message: '你已经举报过这条内容', code: 'ALREADY_REPORTED' });
  });
});
