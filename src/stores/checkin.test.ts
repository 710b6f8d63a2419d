import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckInStatus, UserCheckInStatus } from '../shared/checkin/checkin-model.ts';
import { translator } from '../shared/i18n/catalogues.ts';
import { ApiError } from './api-client.ts';
import { checkInKey, createCheckIn, loadCheckInContract, parseCachedCheckIn, statusOn } from './checkin.ts';
import { fakeApi } from './fake-api.ts';

// The contract loads with the store's first call; here it is loaded up front, so calls go out at once.
beforeAll(() => loadCheckInContract());

const TODAY = '2026-11-24';
const statusCall = { method: 'GET', path: '/v2/user/status' };
const detailCall = { method: 'GET', path: '/v2/user/check-in/status' };
const recordsCall = { method: 'GET', path: '/v2/user/check-in/records', query: { month: '2026-11' } };

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

function setup(storage = memoryStorage(), answers: { confirm?: boolean } = {}) {
  const fake = fakeApi();
  const toasts: { type: 'success' | 'error'; message: string }[] = [];
  const confirms: string[] = [];
  const deltas: number[] = [];
  const synced: UserCheckInStatus[] = [];
  const store = createCheckIn({
    call: fake.client.call,
    storage,
    today: () => TODAY,
    t: translator('zh-CN'),
    toast: {
      success: (message) => toasts.push({ type: 'success', message }),
      error: (message) => toasts.push({ type: 'error', message }),
    },
    confirm: (message) => {
      confirms.push(message);
      return Promise.resolve(answers.confirm ?? true);
    },
    changeHikariPoint: (delta) => deltas.push(delta),
    syncSession: (status) => synced.push(status),
  });
  return { fake, store, storage, toasts, confirms, deltas, synced };
}

const detail = (patch: Partial<CheckInStatus> = {}): CheckInStatus => ({
  isCheckIn: true,
  checkInStreak: 3,
  longestCheckInStreak: 5,
  hikariPoint: 120,
  today: TODAY,
  makeUpCount: 0,
  makeUpLimit: 3,
  makeUpCost: 30,
  ...patch,
});

describe('the cached status', () => {
  it('reads only well-formed entries', () => {
    const status = { isCheckIn: true, checkInStreak: 2, hikariPoint: 40 };
    expect(parseCachedCheckIn(JSON.stringify({ status, date: TODAY }))).toEqual({ status, date: TODAY });
    expect(parseCachedCheckIn(null)).toBeNull();
    expect(parseCachedCheckIn('{')).toBeNull();
    expect(parseCachedCheckIn(JSON.stringify({ status: { ...status, hikariPoint: -1 }, date: TODAY }))).toBeNull();
    expect(parseCachedCheckIn(JSON.stringify({ status }))).toBeNull();
  });

  it('never shows yesterday’s check-in as today’s', () => {
    const status = { isCheckIn: true, checkInStreak: 2, hikariPoint: 40 };
    expect(statusOn({ status, date: TODAY }, TODAY)).toEqual(status);
    expect(statusOn({ status, date: '2026-11-23' }, TODAY)).toEqual({ ...status, isCheckIn: false });
    // A streak not continued yesterday is broken.
    expect(statusOn({ status, date: '2026-11-20' }, TODAY)).toEqual({ ...status, isCheckIn: false, checkInStreak: 0 });
    expect(statusOn({ status: { ...status, isCheckIn: false }, date: '2026-11-23' }, TODAY)).toMatchObject({
      checkInStreak: 0,
    });
  });

  it('shows the cached status of this user at once, then the server’s, and keeps it per user', async () => {
    const storage = memoryStorage({
      [checkInKey(7)]: JSON.stringify({
        status: { isCheckIn: true, checkInStreak: 4, hikariPoint: 50 },
        date: '2026-11-23',
      }),
      [checkInKey(8)]: JSON.stringify({ status: { isCheckIn: true, checkInStreak: 1, hikariPoint: 9 }, date: TODAY }),
    });
    const { fake, store, synced } = setup(storage);
    const stop = store.start(7, null);
    expect(store.$status.get()).toEqual({ isCheckIn: false, checkInStreak: 4, hikariPoint: 50 });
    await fake.answer({ isCheckIn: false, checkInStreak: 0, hikariPoint: 52 });
    expect(fake.calls).toEqual([statusCall]);
    expect(store.$status.get()).toEqual({ isCheckIn: false, checkInStreak: 0, hikariPoint: 52 });
    expect(synced).toEqual([{ isCheckIn: false, checkInStreak: 0, hikariPoint: 52 }]);
    expect(parseCachedCheckIn(storage.getItem(checkInKey(7)))).toEqual({
      status: { isCheckIn: false, checkInStreak: 0, hikariPoint: 52 },
      date: TODAY,
    });
    stop();
    // Another member logs in on this browser: their own cache, not the previous one's.
    store.start(8, null);
    expect(store.$status.get()).toEqual({ isCheckIn: true, checkInStreak: 1, hikariPoint: 9 });
  });

  it('keeps the cached status when the status fetch fails', async () => {
    const storage = memoryStorage({
      [checkInKey(7)]: JSON.stringify({ status: { isCheckIn: true, checkInStreak: 4, hikariPoint: 50 }, date: TODAY }),
    });
    const { fake, store, toasts } = setup(storage);
    store.start(7, null);
    await fake.fail(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: '网络错误' }));
    expect(store.$status.get()).toEqual({ isCheckIn: true, checkInStreak: 4, hikariPoint: 50 });
    expect(toasts).toEqual([]);
  });
});

describe('checking in', () => {
  it('earns the points: toast, balance and button, with one request for a double click', async () => {
    const { fake, store, toasts, deltas, storage } = setup();
    store.start(7, null);
    await fake.answer({ isCheckIn: false, checkInStreak: 2, hikariPoint: 100 });
    const first = store.checkIn();
    const second = store.checkIn();
    expect(await second).toEqual({ ok: false, busy: true });
    expect(store.$busy.get()).toBe(true);
    await fake.answer({ points: 7 });
    expect(await first).toEqual({ ok: true, points: 7 });
    expect(fake.calls[1]).toEqual({ method: 'POST', path: '/v2/user/check-in', body: {} });
    expect(toasts).toEqual([{ type: 'success', message: '签到成功，获得 7 HikariPoint' }]);
    expect(deltas).toEqual([7]);
    expect(store.$status.get()).toEqual({ isCheckIn: true, checkInStreak: 3, hikariPoint: 107 });
    expect(parseCachedCheckIn(storage.getItem(checkInKey(7)))?.status.isCheckIn).toBe(true);
    expect(store.$busy.get()).toBe(false);
    // Then the server's count, asked after the check-in.
    await fake.answer({ isCheckIn: true, checkInStreak: 3, hikariPoint: 107 });
    expect(fake.calls.slice(2)).toEqual([statusCall]);
  });

  it('says why it failed and follows the server when already checked in elsewhere', async () => {
    const { fake, store, toasts, deltas } = setup();
    store.start(7, null);
    await fake.answer({ isCheckIn: false, checkInStreak: 2, hikariPoint: 100 });
    const pressing = store.checkIn();
    await fake.fail(new ApiError({ status: 409, code: 'ALREADY_CHECKED_IN', message: '今天已经签到过了' }));
    expect(await pressing).toEqual({ ok: false, message: '今天已经签到过了' });
    expect(toasts).toEqual([{ type: 'error', message: '签到失败: 今天已经签到过了' }]);
    expect(deltas).toEqual([]);
    await fake.answer({ isCheckIn: true, checkInStreak: 3, hikariPoint: 105 });
    expect(store.$status.get()).toEqual({ isCheckIn: true, checkInStreak: 3, hikariPoint: 105 });
  });

  it('drops a status answer asked before the check-in', async () => {
    const { fake, store } = setup();
    store.start(7, null);
    await fake.sent(1);
    const pressing = store.checkIn();
    await fake.sent(2);
    // The check-in is answered first, then the status asked before it.
    const [statusAsk, checkInAsk] = [0, 1];
    expect(fake.calls[statusAsk]).toEqual(statusCall);
    expect(fake.calls[checkInAsk]?.path).toBe('/v2/user/check-in');
    await fake.answer({ isCheckIn: false, checkInStreak: 0, hikariPoint: 10 });
    await fake.answer({ points: 4 });
    await pressing;
    expect(store.$status.get()).toEqual({ isCheckIn: true, checkInStreak: 1, hikariPoint: 14 });
  });
});

describe('the calendar and making up a day', () => {
  async function opened(options: { confirm?: boolean } = {}) {
    const context = setup(memoryStorage(), options);
    context.store.start(7, null);
    await context.fake.answer({ isCheckIn: true, checkInStreak: 3, hikariPoint: 120 });
    const loading = context.store.loadCalendar();
    expect(context.store.$calendarLoading.get()).toBe(true);
    await context.fake.answer(detail());
    await context.fake.answer([
      { date: '2026-11-22', isMakeUp: false },
      { date: '2026-11-24', isMakeUp: false },
    ]);
    await loading;
    return context;
  }

  it('loads the month of the server’s today with the detailed status', async () => {
    const { fake, store } = await opened();
    expect(fake.calls.slice(1)).toEqual([detailCall, recordsCall]);
    expect(store.$calendar.get()).toMatchObject({ month: '2026-11', detail: { makeUpCost: 30 } });
    expect(store.$calendar.get()?.records).toHaveLength(2);
    expect(store.$calendarLoading.get()).toBe(false);
  });

  it('asks to confirm the cost, charges it, then reloads records and status', async () => {
    const { fake, store, toasts, confirms, deltas } = await opened();
    const making = store.makeUp('2026-11-20');
    await fake.answer({ points: 30 });
    await fake.answer(detail({ hikariPoint: 90, makeUpCount: 1, makeUpCost: 60 }));
    await fake.answer([
      { date: '2026-11-20', isMakeUp: true },
      { date: '2026-11-22', isMakeUp: false },
      { date: '2026-11-24', isMakeUp: false },
    ]);
    expect(await making).toEqual({ ok: true, points: 30 });
    expect(confirms).toEqual(['确定要补签 2026-11-20 吗？ 此操作需要消耗 30 HikariPoint']);
    expect(fake.calls.slice(3)).toEqual([
      { method: 'POST', path: '/v2/user/check-in/make-up', body: { date: '2026-11-20', cost: 30 } },
      detailCall,
      recordsCall,
    ]);
    expect(toasts).toEqual([{ type: 'success', message: '补签成功，消耗 30 HikariPoint' }]);
    expect(deltas).toEqual([-30]);
    expect(store.$calendar.get()?.records[0]).toEqual({ date: '2026-11-20', isMakeUp: true });
    expect(store.$calendar.get()?.detail.makeUpCost).toBe(60);
    expect(store.$status.get()?.hikariPoint).toBe(90);
  });

  it('does nothing for a day with a record, today, a later day or another month, or when not confirmed', async () => {
    const { fake, store, confirms } = await opened({ confirm: false });
    for (const date of ['2026-11-22', '2026-11-24', '2026-11-25', '2026-10-31']) {
      expect(await store.makeUp(date)).toEqual({ ok: false });
    }
    expect(confirms).toEqual([]);
    expect(await store.makeUp('2026-11-01')).toEqual({ ok: false });
    expect(confirms).toHaveLength(1);
    expect(fake.calls).toHaveLength(3);
  });

  it('shows the server’s refusal and charges nothing', async () => {
    const { fake, store, toasts, deltas } = await opened();
    const making = store.makeUp('2026-11-21');
    const again = store.makeUp('2026-11-21');
    expect(await again).toEqual({ ok: false, busy: true });
    await fake.fail(
      new ApiError({ status: 409, code: 'INSUFFICIENT_POINTS', message: 'HikariPoint 不足：需要 30，当前只有 10' }),
    );
    expect(await making).toEqual({ ok: false, message: 'HikariPoint 不足：需要 30，当前只有 10' });
    expect(toasts).toEqual([{ type: 'error', message: '补签失败: HikariPoint 不足：需要 30，当前只有 10' }]);
    expect(deltas).toEqual([]);
    // The month and the status are read again, as the server has them now.
    expect(fake.calls.slice(4)).toEqual([detailCall]);
  });

  it('offers to check in when there is no cached status and the server cannot be asked', async () => {
    const { fake, store } = setup();
    store.start(7, null);
    expect(store.$status.get()).toBeNull();
    await fake.fail(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: '网络错误' }));
    await vi.waitFor(() => expect(store.$status.get()).toMatchObject({ isCheckIn: false, checkInStreak: 0 }));
  });

  it('tells when the calendar could not be loaded', async () => {
    const { fake, store } = setup();
    store.start(7, null);
    await fake.answer({ isCheckIn: true, checkInStreak: 3, hikariPoint: 120 });
    const loading = store.loadCalendar();
    await fake.fail(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: '网络错误' }));
    await loading;
    expect(store.$calendarError.get()).toBe('网络错误');
    expect(store.$calendar.get()).toBeNull();
  });
});
