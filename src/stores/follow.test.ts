import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { fakeApi } from './fake-api.ts';
import { createUserFollows, FOLLOW_STATE_FRESH_MS, loadUsersContract } from './follow.ts';
import { createProfiles } from './user-profiles.ts';
import { createUserCard, USER_CARD_CLOSE_GRACE_MS, USER_CARD_OPEN_DELAY_MS, userCardId } from './user-card.ts';

// The contract loads with a store's first call; here it is loaded up front, so calls go out at once.
beforeAll(() => loadUsersContract());
afterEach(() => vi.useRealTimers());

const follow = (userId: number) => ({ method: 'POST', path: '/user/follow', body: { userId } });
const status = (userId: number) => ({ method: 'POST', path: '/user/follow/status', body: { userId } });

describe('following members', () => {
  it('asks the state once for every button of the member, then toggles optimistically', async () => {
    const fake = fakeApi();
    const follows = createUserFollows(fake.client);
    follows.seed(7, { count: 3 });
    // Two buttons of the same member (a comment and the open card) ask at once: one request.
    const first = follows.check(7);
    const second = follows.check(7);
    await fake.answer({ isFollowing: false, followerCount: 4 });
    expect(await Promise.all([first, second])).toEqual([{ ok: true }, { ok: true }]);
    expect(fake.calls).toEqual([status(7)]);
    expect(follows.entry(7)).toEqual({ following: false, count: 4, pending: false });

    const toggling = follows.toggle(7);
    expect(follows.entry(7)).toMatchObject({ following: true, pending: true });
    await fake.sent(2);
    expect(follows.entry(7)).toEqual({ following: true, count: 5, pending: true });
    await fake.answer({ isFollowing: true, followerCount: 9 });
    expect(await toggling).toEqual({ ok: true });
    expect(fake.calls[1]).toEqual(follow(7));
    expect(follows.entry(7)).toEqual({ following: true, count: 9, pending: false });
    // A later seed (a card's profile read before the toggle) does not undo what the server said.
    follows.seed(7, { count: 3, following: false });
    expect(follows.entry(7)).toEqual({ following: true, count: 9, pending: false });
  });

  it('sends one toggle for a double click, and the second press says it is busy', async () => {
    const fake = fakeApi();
    const follows = createUserFollows(fake.client);
    follows.seed(8, { following: true, count: 2 });
    const once = follows.toggle(8);
    const twice = follows.toggle(8);
    expect(await twice).toEqual({ ok: false, busy: true });
    await fake.answer({ isFollowing: false, followerCount: 1 });
    expect(await once).toEqual({ ok: true });
    expect(fake.calls).toEqual([follow(8)]);
    expect(follows.entry(8)).toEqual({ following: false, count: 1, pending: false });
  });

  it('asks again before acting on a state not heard for a while: another tab may have changed it', async () => {
    const fake = fakeApi();
    let clock = 1_000_000;
    const follows = createUserFollows(fake.client, () => clock);
    follows.seed(10, { following: true, count: 4 });
    // Another tab unfollowed meanwhile; this one still shows "followed" and its member presses it.
    clock += FOLLOW_STATE_FRESH_MS + 1;
    const pressing = follows.toggle(10);
    expect(follows.entry(10)).toMatchObject({ following: false, pending: true });
    await fake.answer({ isFollowing: false, followerCount: 3 });
    expect(await pressing).toEqual({ ok: true });
    // Already where the press wanted to go: shown, not toggled back to following.
    expect(fake.calls).toEqual([status(10)]);
    expect(follows.entry(10)).toEqual({ following: false, count: 3, pending: false });
  });

  it('asks first when the state is unknown, so "follow" never unfollows a member already followed', async () => {
    const fake = fakeApi();
    const follows = createUserFollows(fake.client);
    follows.seed(9, { count: 5 });
    const pressing = follows.toggle(9);
    await fake.answer({ isFollowing: true, followerCount: 5 });
    expect(await pressing).toEqual({ ok: true });
    expect(fake.calls).toEqual([status(9)]);
    expect(follows.entry(9)).toEqual({ following: true, count: 5, pending: false });
  });

  it('goes back on failure and ignores a state answered after a toggle started', async () => {
    const fake = fakeApi();
    const follows = createUserFollows(fake.client);
    follows.seed(10, { following: false, count: 1 });
    const checking = follows.check(10);
    const toggling = follows.toggle(10);
    await fake.answer({ isFollowing: false, followerCount: 1 });
    await checking;
    // The stale "not following" did not overwrite the toggle in flight.
    expect(follows.entry(10)).toMatchObject({ following: true, pending: true });
    await fake.fail(new ApiError({ status: 429, code: 'RATE_LIMITED', message: '关注操作太频繁，请一分钟后再试' }));
    expect(await toggling).toEqual({ ok: false, message: '关注操作太频繁，请一分钟后再试' });
    expect(follows.entry(10)).toEqual({ following: false, count: 1, pending: false });
  });

  it('tells a visitor’s toggle the server’s refusal and changes nothing', async () => {
    const fake = fakeApi();
    const follows = createUserFollows(fake.client);
    follows.seed(11, { following: false, count: 0 });
    const toggling = follows.toggle(11);
    await fake.fail(new ApiError({ status: 401, code: 'UNAUTHORIZED', message: '请先登录' }));
    expect(await toggling).toEqual({ ok: false, message: '请先登录' });
    expect(follows.entry(11)).toEqual({ following: false, count: 0, pending: false });
  });
});

describe('the user card', () => {
  const manual = () => {
    vi.useFakeTimers();
    const prepared: number[] = [];
    const card = createUserCard<object>({ prepare: (id) => prepared.push(id) });
    return { card, prepared };
  };

  it('opens after 500 ms over a name, not before, and starts loading at once', () => {
    const { card, prepared } = manual();
    const name = {};
    card.enter(name, 3, 'pointer');
    expect(prepared).toEqual([3]);
    vi.advanceTimersByTime(USER_CARD_OPEN_DELAY_MS - 1);
    expect(card.$card.get()).toMatchObject({ userId: 3, open: false });
    vi.advanceTimersByTime(1);
    expect(card.$card.get()).toMatchObject({ userId: 3, open: true, via: 'pointer' });
  });

  it('does not open when the pointer passes by, and stays open while the pointer moves into the card', () => {
    const { card } = manual();
    const [a, b] = [{}, {}];
    card.enter(a, 3, 'pointer');
    vi.advanceTimersByTime(200);
    card.leave(a);
    vi.advanceTimersByTime(USER_CARD_OPEN_DELAY_MS);
    expect(card.$card.get()).toBeNull();

    card.enter(b, 4, 'pointer');
    vi.advanceTimersByTime(USER_CARD_OPEN_DELAY_MS);
    card.leave(b);
    vi.advanceTimersByTime(USER_CARD_CLOSE_GRACE_MS - 50);
    card.enterCard();
    vi.advanceTimersByTime(USER_CARD_CLOSE_GRACE_MS);
    expect(card.$card.get()).toMatchObject({ userId: 4, open: true });
    card.leaveCard();
    vi.advanceTimersByTime(USER_CARD_CLOSE_GRACE_MS);
    expect(card.$card.get()).toBeNull();
  });

  it('moves to another name, and closes at once on Escape', () => {
    const { card } = manual();
    const [a, b] = [{}, {}];
    card.enter(a, 3, 'focus');
    vi.advanceTimersByTime(USER_CARD_OPEN_DELAY_MS);
    card.enter(b, 5, 'pointer');
    expect(card.$card.get()).toMatchObject({ userId: 5, open: false });
    // The first name's leaving after the second was entered changes nothing.
    card.leave(a);
    vi.advanceTimersByTime(USER_CARD_OPEN_DELAY_MS);
    expect(card.$card.get()).toMatchObject({ userId: 5, open: true });
    card.close();
    expect(card.$card.get()).toBeNull();
  });

  it('reads only positive ids from the page', () => {
    expect(userCardId('42')).toBe(42);
    for (const bad of [null, '', '0', '-1', '1.5', '042', 'x', '2147483648']) expect(userCardId(bad)).toBeNull();
  });

  it('asks for a profile once while it is out, keeps it, and asks again after a failure', async () => {
    const fake = fakeApi();
    const profiles = createProfiles(fake.client);
    const first = profiles.load(12);
    const second = profiles.load(12);
    expect(profiles.$profiles.get()['12']).toEqual({ status: 'loading' });
    await fake.fail(new ApiError({ status: 500, code: 'INTERNAL_ERROR', message: '服务器开小差了' }));
    await Promise.all([first, second]);
    expect(fake.calls).toEqual([{ method: 'GET', path: '/user/profile/12' }]);
    expect(profiles.$profiles.get()['12']).toEqual({ status: 'error', message: '服务器开小差了' });
    const again = profiles.load(12);
    await fake.answer({ user: { userId: 12, name: 'x' } });
    await again;
    expect(profiles.$profiles.get()['12']).toMatchObject({ status: 'ready', user: { userId: 12 } });
    await profiles.load(12);
    expect(fake.calls).toHaveLength(2);
  });
});
