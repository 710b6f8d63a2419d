/*
 * Daily check-in on the client (spec §2.4, §3 "user status", §4, §5, §8): the header button's status,
 * cached per user in memory and local storage with the site date it was read on (so yesterday's
 * "checked in" never shows today), the check-in itself, and the calendar's month of records with the
 * make-up check-in. One check-in or make-up request at a time, so a double click never sends two.
 * Loaded only for a logged-in member (the header imports it on use).
 */

import { atom } from 'nanostores';
import type { checkinContract } from '../shared/checkin/checkin.contract.ts';
import type { CheckInRecord, CheckInStatus, UserCheckInStatus } from '../shared/checkin/checkin-model.ts';
import type { Translate } from '../shared/i18n/index.ts';
import { addDays, siteDayEnd, siteToday, type SiteDate } from '../shared/site-day.ts';
import type { ApiClient } from './api-client.ts';
import { confirmDialog } from './dialog.ts';
import { t } from './locale.ts';
import { $session, changeHikariPoint, updateSessionUser } from './session.ts';
import { toast } from './toast.ts';

export type CheckInContract = typeof checkinContract;

// The contract carries its request schemas (zod): it loads with the first call.
let loaded: CheckInContract | null = null;
export async function loadCheckInContract(): Promise<CheckInContract> {
  loaded ??= (await import('../shared/checkin/checkin.contract.ts')).checkinContract;
  return loaded;
}

const KEY_PREFIX = 'hikari_checkin_';
export const checkInKey = (userId: number) => `${KEY_PREFIX}${userId}`;

/** What the cache holds: the status and the site date it was read on. */
export interface CachedCheckIn {
  status: UserCheckInStatus;
  date: SiteDate;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** A cached status as stored, or null when missing or malformed. */
export function parseCachedCheckIn(value: string | null): CachedCheckIn | null {
  if (!value) return null;
  try {
    const raw = JSON.parse(value) as { status?: Partial<UserCheckInStatus>; date?: unknown } | null;
    const status = raw?.status;
    if (!status || typeof raw.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(raw.date)) return null;
    if (typeof status.isCheckIn !== 'boolean' || !isCount(status.checkInStreak) || !isCount(status.hikariPoint)) {
      return null;
    }
    return {
      status: { isCheckIn: status.isCheckIn, checkInStreak: status.checkInStreak, hikariPoint: status.hikariPoint },
      date: raw.date,
    };
  } catch {
    return null;
  }
}

/**
 * The status as it holds on `today`: a status read on an earlier day says nothing about today's
 * check-in (and a streak not continued yesterday is broken).
 */
export function statusOn(cached: CachedCheckIn, today: SiteDate): UserCheckInStatus {
  if (cached.date === today) return cached.status;
  const alive = cached.status.isCheckIn && cached.date === addDays(today, -1);
  return { ...cached.status, isCheckIn: false, checkInStreak: alive ? cached.status.checkInStreak : 0 };
}

/** The calendar's month: its records, and the detailed status they were read with. */
export interface CheckInCalendar {
  month: string;
  records: CheckInRecord[];
  detail: CheckInStatus;
}

export interface CheckInDeps {
  call: ApiClient['call'];
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Today's site date by this device's clock (the server's word comes with the detailed status). */
  today: () => SiteDate;
  t: Translate;
  toast: { success: (message: string) => void; error: (message: string) => void };
  confirm: (message: string) => Promise<boolean>;
  /** Spec §4 "Points": the session's balance, which the avatar menu shows. */
  changeHikariPoint: (delta: number) => void;
  /** The server's balance and streak, into the session. */
  syncSession: (status: UserCheckInStatus) => void;
}

/** What an action ended with; `busy` when another request was still out. */
export type CheckInOutcome = { ok: true; points: number } | { ok: false; busy?: true; message?: string };

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));
export function createCheckIn(deps: CheckInDeps) {
  /** The header's status; null until the cache or the server told. */
  const $status = atom<UserCheckInStatus | null>(null);
  /** The calendar's month, once loaded. */
  const $calendar = atom<CheckInCalendar | null>(null);
  /** A check-in or make-up is out. */
  const $busy = atom(false);
  /** The calendar is being loaded; its failure message when it could not be. */
  const $calendarLoading = atom(false);
  const $calendarError = atom<string | null>(null);

  let userId: number | null = null;
  // Bumped by every local change: an answer to a question asked before it is stale.
  let asked = 0;
  // The calendar's own: only the answer to the latest load is shown.
  let calendarAsked = 0;

  const store = (status: UserCheckInStatus) => {
    $status.set(status);
    if (userId === null) return;
    try {
      deps.storage?.setItem(checkInKey(userId), JSON.stringify({ status, date: deps.today() }));
    } catch {
      // Storage full or blocked: the button still shows; the next page asks the server.
    }
  };

  const accept = (status: UserCheckInStatus) => {
    const plain = { isCheckIn: status.isCheckIn, checkInStreak: status.checkInStreak, hikariPoint: status.hikariPoint };
    store(plain);
    deps.syncSession(plain);
  };

  /** Asks the server for the user status; an answer older than a local change is dropped. */
  async function refresh(): Promise<void> {
    if (userId === null) return;
    const ask = ++asked;
    const owner = userId;
    try {
      const contract = loaded ?? (await loadCheckInContract());
      const { data } = await deps.call(contract.userStatus, undefined, { refreshOn401: true });
      if (ask === asked && owner === userId) accept(data);
    } catch {
      // Spec §8: a failed status fetch is logged only; the cached status stays. With none, the button
      // still offers to check in and the server decides.
      if (ask === asked && owner === userId && $status.get() === null) {
        $status.set({ isCheckIn: false, checkInStreak: 0, hikariPoint: $session.get()?.hikariPoint ?? 0 });
      }
    }
  }

  /** Loads the calendar's month (the current one by the server's clock) and the detailed status. */
  async function loadCalendar(): Promise<void> {
    if (userId === null) return;
    const owner = userId;
    const ask = ++asked;
    const load = ++calendarAsked;
    $calendarLoading.set(true);
    $calendarError.set(null);
    try {
      const contract = loaded ?? (await loadCheckInContract());
      const { data: detail } = await deps.call(contract.status, undefined, { refreshOn401: true });
      const month = detail.today.slice(0, 7);
      const { data: records } = await deps.call(contract.records, { query: { month } }, { refreshOn401: true });
      if (owner !== userId || load !== calendarAsked) return;
      $calendar.set({ month, records, detail });
      if (ask === asked) accept(detail);
    } catch (error) {
      if (owner === userId && load === calendarAsked) $calendarError.set(errorText(error));
    } finally {
      if (owner === userId && load === calendarAsked) $calendarLoading.set(false);
    }
  }

  /** Runs one request at a time: a second press while one is out is ignored. */
  async function exclusive(action: () => Promise<CheckInOutcome>): Promise<CheckInOutcome> {
    if ($busy.get() || userId === null) return { ok: false, busy: true };
    $busy.set(true);
    try {
      return await action();
    } finally {
      $busy.set(false);
    }
  }

  return {
    $status,
    $calendar,
    $busy,
    $calendarLoading,
    $calendarError,
    refresh,
    loadCalendar,
    /**
     * Starts for the logged-in member: the cached status at once (as it holds today), then the
     * server's; again whenever the tab comes back. Returns the stop.
     */
    start(id: number, events: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null): () => void {
      if (userId !== id) {
        $calendar.set(null);
        $calendarError.set(null);
      }
      userId = id;
      let cached: CachedCheckIn | null = null;
      try {
        cached = parseCachedCheckIn(deps.storage?.getItem(checkInKey(id)) ?? null);
      } catch {
        cached = null;
      }
      $status.set(cached ? statusOn(cached, deps.today()) : null);
      void refresh();
      const onFocus = () => void refresh();
      events?.addEventListener('focus', onFocus);
      // At 00:00 in Shanghai yesterday's check-in stops counting for today, in an open tab too.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const untilTomorrow = () => {
        const day = deps.today();
        timer = setTimeout(
          () => {
            const shown = $status.get();
            if (shown && userId === id) $status.set(statusOn({ status: shown, date: day }, deps.today()));
            void refresh();
            untilTomorrow();
          },
          Math.max(1000, siteDayEnd(day).getTime() - Date.now() + 1000),
        );
      };
      untilTomorrow();
      return () => {
        clearTimeout(timer);
        events?.removeEventListener('focus', onFocus);
        if (userId === id) userId = null;
        asked += 1;
      };
    },
    /** Spec §4: not checked in → checked in; the balance rises by the points earned. */
    checkIn: () =>
      exclusive(async () => {
        try {
          const contract = loaded ?? (await loadCheckInContract());
          const { data } = await deps.call(contract.checkIn, { body: {} }, { refreshOn401: true });
          asked += 1;
          const before = $status.get();
          deps.changeHikariPoint(data.points);
          store({
            isCheckIn: true,
            checkInStreak: (before?.checkInStreak ?? 0) + 1,
            hikariPoint: (before?.hikariPoint ?? 0) + data.points,
          });
          deps.toast.success(deps.t('checkIn.success', { points: data.points }));
          // The streak and balance as the server counts them (the page may have started from a stale cache).
          void refresh();
          return { ok: true, points: data.points };
        } catch (error) {
          const message = errorText(error);
          deps.toast.error(deps.t('checkIn.failed', { message }));
          // Checked in already (another tab), or an answer lost on the way (the check-in may have gone
          // through): the button follows the server.
          void refresh();
          return { ok: false, message };
        }
      }),
    /**
     * Spec §4, §5: makes up a past day of this month without a record, after the member confirms the
     * cost; the balance falls by the points charged, then records and status are reloaded.
     */
    makeUp: (date: SiteDate) =>
      exclusive(async () => {
        const calendar = $calendar.get();
        if (!calendar) return { ok: false };
        const recorded = calendar.records.some((record) => record.date === date);
        if (recorded || date >= calendar.detail.today || date.slice(0, 7) !== calendar.month) return { ok: false };
        const confirmed = await deps.confirm(
          deps.t('checkIn.makeUpConfirm', { date, cost: calendar.detail.makeUpCost }),
        );
        if (!confirmed) return { ok: false };
        try {
          const contract = loaded ?? (await loadCheckInContract());
          // The cost the member confirmed: if another tab changed it meanwhile, the server refuses.
          const body = { date, cost: calendar.detail.makeUpCost };
          const { data } = await deps.call(contract.makeUp, { body }, { refreshOn401: true });
          asked += 1;
          deps.changeHikariPoint(-data.points);
          const before = $status.get();
          if (before) store({ ...before, hikariPoint: Math.max(0, before.hikariPoint - data.points) });
          deps.toast.success(deps.t('checkIn.makeUpSuccess', { points: data.points }));
          await loadCalendar();
          return { ok: true, points: data.points };
        } catch (error) {
          const message = errorText(error);
          deps.toast.error(deps.t('checkIn.makeUpFailed', { message }));
          // The cost, the day or the balance changed, or the answer was lost after the make-up went through:
          // show the month and the status as the server has them.
          void loadCalendar();
          return { ok: false, message };
        }
      }),
  };
}

export type CheckIn = ReturnType<typeof createCheckIn>;

let browserCheckIn: CheckIn | null = null;

/** The page's check-in store (made on first use, in the browser). */
export async function checkIn(): Promise<CheckIn> {
  if (!browserCheckIn) {
    const { api } = await import('./api-client.ts');
    browserCheckIn = createCheckIn({
      call: (endpoint, ...args) => api.call(endpoint, ...args),
      storage: typeof localStorage === 'undefined' ? null : localStorage,
      today: () => siteToday(),
      t,
      toast: { success: (message) => void toast.success(message), error: (message) => void toast.error(message) },
      confirm: (message) => confirmDialog(message),
      changeHikariPoint,
      syncSession: ({ hikariPoint, checkInStreak }) => {
        const current = $session.get();
        if (current && (current.hikariPoint !== hikariPoint || current.checkInStreak !== checkInStreak)) {
          updateSessionUser({ hikariPoint, checkInStreak });
        }
      },
    });
  }
  return browserCheckIn;
}
