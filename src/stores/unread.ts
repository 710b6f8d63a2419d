/*
 * Keeps the bell's unread count (spec §3 "unread summary", §4 "unread badge"): refreshed from the server,
 * cached per user in local storage, decremented by one when a notification is read and cleared to 0 by
 * "mark all". Refreshed when the page loads, when the tab comes back into view or focus, and every
 * minute while it is visible (there is no live socket for it yet); other tabs follow through the
 * storage event of the cached value.
 */

import type { ApiClient } from './api-client.ts';
import { $privateUnread, $unreadCount } from './unread-count.ts';

export { $unreadCount };

export const UNREAD_POLL_MS = 60_000;
const KEY_PREFIX = 'hikari_unread_';
export const unreadKey = (userId: number) => `${KEY_PREFIX}${userId}`;

export interface UnreadDeps {
  call: ApiClient['call'];
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The page's window (focus and storage events) and document (visibility); null where there is none. */
  window: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  document: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  isVisible: () => boolean;
  setInterval: (fn: () => void, ms: number) => () => void;
}

/** A cached count as stored: a whole number ≥ 0, or null when missing or malformed. */
export function parseCachedCount(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) return null;
  return Number(value);
}

export function createUnread(deps: UnreadDeps) {
  let userId: number | null = null;
  let asked = 0;

  const store = (count: number) => {
    const next = Math.max(0, Math.floor(count));
    $unreadCount.set(next);
    if (userId !== null) {
      try {
        deps.storage?.setItem(unreadKey(userId), String(next));
      } catch {
        // Storage full or blocked: the badge still shows; other tabs catch up at their next refresh.
      }
    }
  };

  /** A change made here: answers to questions asked before it are dropped. */
  const changed = (count: number) => {
    asked += 1;
    store(count);
  };

  /** Asks the server; an answer to an older question than the newest is dropped. */
  async function refresh(): Promise<void> {
    if (userId === null) return;
    const ask = ++asked;
    const owner = userId;
    try {
      const { notificationsContract } = await import('../shared/notifications/notifications.contract.ts');
      const { data } = await deps.call(notificationsContract.unread, undefined, { refreshOn401: true });
      if (ask === asked && owner === userId) store(data.unreadCount);
      if (owner === userId) $privateUnread.set(data.privateUnread ?? 0);
    } catch {
      // Spec §8: a failed status fetch is logged only; the cached count stays.
    }
  }

  return {
    refresh,
    /** Starts for the logged-in member: the cached count at once, then the server's. Returns the stop. */
    start(id: number): () => void {
      userId = id;
      $unreadCount.set(parseCachedCount(deps.storage?.getItem(unreadKey(id)) ?? null) ?? 0);
      void refresh();
      const onVisible = () => {
        if (deps.isVisible()) void refresh();
      };
      const onStorage = (event: Event) => {
        const { key, newValue } = event as StorageEvent;
        if (key !== unreadKey(id)) return;
        const count = parseCachedCount(newValue);
        if (count !== null) $unreadCount.set(count);
      };
      deps.window?.addEventListener('focus', onVisible);
      deps.document?.addEventListener('visibilitychange', onVisible);
      deps.window?.addEventListener('storage', onStorage);
      const stopPolling = deps.setInterval(onVisible, UNREAD_POLL_MS);
      return () => {
        stopPolling();
        deps.window?.removeEventListener('focus', onVisible);
        deps.document?.removeEventListener('visibilitychange', onVisible);
        deps.window?.removeEventListener('storage', onStorage);
        if (userId === id) userId = null;
        asked += 1;
        $unreadCount.set(0);
        $privateUnread.set(0);
      };
    },
    /** The server's count after a change this page made (a poll already on its way is then stale). */
    set: (count: number) => changed(count),
    /** One notification was read (spec §4: decremented by one). */
    decrement: () => changed($unreadCount.get() - 1),
    /** All were read (spec §4: cleared to 0). */
    clear: () => changed(0),
  };
}

export type Unread = ReturnType<typeof createUnread>;

let browserUnread: Unread | null = null;

/** The page's unread count keeper (made on first use, in the browser). */
export async function unread(): Promise<Unread> {
  if (!browserUnread) {
    const { api } = await import('./api-client.ts');
    browserUnread = createUnread({
      call: (endpoint, ...args) => api.call(endpoint, ...args),
      storage: typeof localStorage === 'undefined' ? null : localStorage,
      window: typeof window === 'undefined' ? null : window,
      document: typeof document === 'undefined' ? null : document,
      isVisible: () => typeof document === 'undefined' || document.visibilityState === 'visible',
      setInterval: (fn, ms) => {
        const timer = setInterval(fn, ms);
        return () => clearInterval(timer);
      },
    });
  }
  return browserUnread;
}
