import { afterEach, describe, expect, it } from 'vitest';
import type { ResponseOf } from '../shared/contract.ts';
// Loaded up front, as the badge's first refresh has loaded it by the time the later ones run.
import '../shared/notifications/notifications.contract.ts';
import { $unreadCount, createUnread, parseCachedCount, unreadKey, UNREAD_POLL_MS, type UnreadDeps } from './unread.ts';

/** A fake page: local storage, window and document events, a manual timer and a server count. */
function fakePage(server: { count: number; fail?: boolean }) {
  const stored = new Map<string, string>();
  const windowEvents = new EventTarget();
  const documentEvents = new EventTarget();
  const timers: { fn: () => void; ms: number }[] = [];
  let visible = true;
  let calls = 0;
  const deps: UnreadDeps = {
    call: (async (endpoint: { path: string }) => {
      calls += 1;
      expect(endpoint.path).toBe('/v2/user/unread');
      if (server.fail) throw new Error('offline');
      return { success: true, code: 'OK', message: '', data: { unreadCount: server.count } as ResponseOf<never> };
    }) as unknown as UnreadDeps['call'],
    storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
    window: windowEvents,
    document: documentEvents,
    isVisible: () => visible,
    setInterval: (fn, ms) => {
      const timer = { fn, ms };
      timers.push(timer);
      return () => timers.splice(timers.indexOf(timer), 1);
    },
  };
  return {
    deps,
    stored,
    windowEvents,
    documentEvents,
    timers,
    calls: () => calls,
    hide: (hidden: boolean) => void (visible = !hidden),
  };
}

/** Lets the refreshes started so far finish (their contract import and the fake call). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('the unread badge store', () => {
  afterEach(() => $unreadCount.set(0));

  it('shows the cached count of this user at once, then the server’s, and caches it per user', async () => {
    const server = { count: 7 };
    const page = fakePage(server);
    page.stored.set(unreadKey(42), '3');
    page.stored.set(unreadKey(43), '50');
    const unread = createUnread(page.deps);
    const stop = unread.start(42);
    expect($unreadCount.get()).toBe(3);
    await settle();
    await settle();
    expect($unreadCount.get()).toBe(7);
    expect(page.stored.get(unreadKey(42))).toBe('7');
    expect(page.stored.get(unreadKey(43))).toBe('50');
    stop();
    expect($unreadCount.get()).toBe(0);
  });

  it('decrements by one (never below 0) and clears to 0, caching each change', async () => {
    const page = fakePage({ count: 2 });
    const unread = createUnread(page.deps);
    const stop = unread.start(1);
    await settle();
    await settle();
    unread.decrement();
    expect($unreadCount.get()).toBe(1);
    unread.decrement();
    unread.decrement();
    expect($unreadCount.get()).toBe(0);
    unread.set(5);
    unread.clear();
    expect([$unreadCount.get(), page.stored.get(unreadKey(1))]).toEqual([0, '0']);
    stop();
  });

  it('drops a poll answer that left before a change made on the page', async () => {
    const server = { count: 5 };
    const page = fakePage(server);
    const unread = createUnread(page.deps);
    const stop = unread.start(9);
    await settle();
    await settle();
    // A poll leaves with 5 unread; meanwhile the member opens one and the read answers 4.
    void unread.refresh();
    unread.set(4);
    await settle();
    await settle();
    expect([$unreadCount.get(), page.stored.get(unreadKey(9))]).toEqual([4, '4']);
    stop();
  });

  it('refreshes on focus, when the tab becomes visible, and every minute only while visible', async () => {
    const server = { count: 1 };
    const page = fakePage(server);
    const stop = createUnread(page.deps).start(9);
    await settle();
    expect(page.calls()).toBe(1);
    expect(page.timers.map((t) => t.ms)).toEqual([UNREAD_POLL_MS]);
    server.count = 4;
    page.timers[0]!.fn();
    await settle();
    await settle();
    expect($unreadCount.get()).toBe(4);
    page.hide(true);
    page.timers[0]!.fn();
    page.documentEvents.dispatchEvent(new Event('visibilitychange'));
    expect(page.calls()).toBe(2);
    page.hide(false);
    server.count = 6;
    page.documentEvents.dispatchEvent(new Event('visibilitychange'));
    page.windowEvents.dispatchEvent(new Event('focus'));
    await settle();
    await settle();
    expect(page.calls()).toBe(4);
    expect($unreadCount.get()).toBe(6);
    stop();
    expect(page.timers).toEqual([]);
  });

  it('follows another tab’s change of the same user’s cached count', async () => {
    const page = fakePage({ count: 2 });
    const stop = createUnread(page.deps).start(5);
    await settle();
    await settle();
    const storage = (key: string, newValue: string | null) =>
      page.windowEvents.dispatchEvent(Object.assign(new Event('storage'), { key, newValue }));
    storage(unreadKey(5), '0');
    expect($unreadCount.get()).toBe(0);
    storage(unreadKey(6), '9');
    storage(unreadKey(5), 'junk');
    expect($unreadCount.get()).toBe(0);
    stop();
  });

  it('keeps the cached count when the server cannot be reached', async () => {
    const page = fakePage({ count: 0, fail: true });
    page.stored.set(unreadKey(3), '12');
    const stop = createUnread(page.deps).start(3);
    await settle();
    await settle();
    expect($unreadCount.get()).toBe(12);
    stop();
  });

  it('reads only whole counts from the cache', () => {
    expect([parseCachedCount('0'), parseCachedCount('15'), parseCachedCount('-1'), parseCachedCount('1e3')]).toEqual([
      0,
      15,
      null,
      null,
    ]);
    expect(parseCachedCount(null)).toBeNull();
  });
});
