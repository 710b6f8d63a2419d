import { PROGRESS_SCALE } from '../shared/lightnovel/lightnovel-model.ts';
import type { ProgressSaveResult, ReadingPosition } from '../shared/lightnovel/reading.contract.ts';

/**
 * Where the reader is, and keeping it: on this device at every move (localStorage, the only place for
 * visitors), and for members on the server, throttled while reading, at once on a chapter change, and
 * on leaving the page (a keepalive request). On opening, the newer of the server's and this device's
 * position wins. A tab left open while another device read on does not save over that device's newer
 * position: after being hidden or idle it asks the server first, and a newer position from elsewhere is
 * offered to the reader (continue there, or stay) before anything is saved again.
 */

/** A position as the reader takes it at a move. */
export interface LocalPosition {
  cfi: string;
  chapter: string;
  /** 0…PROGRESS_SCALE */
  percentage: number;
  /** When it was taken (ISO 8601). */
  at: string;
}

/** Seconds of reading between two saves to the server. */
export const SAVE_INTERVAL_MS = 5000;
/** A tab idle this long asks the server before its next save (another device may have read on). */
export const IDLE_CHECK_MS = 60_000;
const LOCAL_KEY_PREFIX = 'hikari-reader-position-';
/**
 * This device's position in a volume, per member (their id) or for visitors, so that one account never
 * opens at, nor saves, a position read under another on the same browser.
 */
export const localPositionKey = (volumeId: number, owner: string | null = null) =>
  `${LOCAL_KEY_PREFIX}${owner ?? 'visitor'}-${volumeId}`;

/** foliate's fraction (0…1) as hundredths of a per cent. */
export const toPercentage = (fraction: number | undefined | null): number =>
  typeof fraction === 'number' && Number.isFinite(fraction)
    ? Math.min(PROGRESS_SCALE, Math.max(0, Math.round(fraction * PROGRESS_SCALE)))
    : 0;

/** "42.5%"-style text of a stored percentage, in the page's language. */
export const percentText = (percentage: number, locale: string): string =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(percentage / PROGRESS_SCALE);

export function parseLocalPosition(raw: string | null): LocalPosition | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<LocalPosition> | null;
    if (!value || typeof value.cfi !== 'string' || !value.cfi.startsWith('epubcfi(')) return null;
    return {
      cfi: value.cfi,
      chapter: typeof value.chapter === 'string' ? value.chapter : '',
      percentage: toPercentage(typeof value.percentage === 'number' ? value.percentage / PROGRESS_SCALE : 0),
      at: typeof value.at === 'string' && !Number.isNaN(Date.parse(value.at)) ? value.at : new Date(0).toISOString(),
    };
  } catch {
    return null;
  }
}

/** A server position as the reader takes positions. */
export const fromServer = (position: ReadingPosition): LocalPosition => ({
  cfi: position.cfi,
  chapter: position.chapter,
  percentage: position.percentage,
  at: position.updatedAt,
});

/** The position to open at: the more recent of the server's and this device's. */
export function pickStartPosition(server: ReadingPosition | null, local: LocalPosition | null): LocalPosition | null {
  const remote = server ? fromServer(server) : null;
  if (!remote) return local;
  if (!local) return remote;
  return Date.parse(local.at) > Date.parse(remote.at) ? local : remote;
}

export interface ProgressSaverDeps {
  /**
   * Sends a position to the server; `keepalive` when the page is going away. Members only. Answers the
   * server's result (`stale` when it keeps a newer position).
   */
  send: ((position: LocalPosition, keepalive: boolean) => Promise<ProgressSaveResult | void>) | null;
  /** The server's position now (members only); null when there is none or it cannot be read. */
  fetchServer?: (() => Promise<ReadingPosition | null>) | undefined;
  /** The server holds a newer position read elsewhere: offer it; nothing is saved until `choose`. */
  onNewer?: ((position: LocalPosition) => void) | undefined;
  /** Whose position this is on this device (the member's id; null for a visitor). */
  owner?: string | null | undefined;
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  now: () => number;
  /** Runs `fn` after `ms`; returns a cancel function. */
  timer: (fn: () => void, ms: number) => () => void;
}

/**
 * Keeps a volume's position. `moved` at each relocation; `flush` when the page is hidden or left.
 * Saves to the server at most once every SAVE_INTERVAL_MS while reading, at once when the chapter
 * changes, never twice for the same position, and one at a time (a move during a save is sent after it).
 * After `hidden` (or a pause of IDLE_CHECK_MS) it reads the server's position before the next save; a
 * newer one from elsewhere (or a `stale` answer) holds saving until the reader `choose`s.
 */
export function createProgressSaver(volumeId: number, deps: ProgressSaverDeps) {
  let latest: LocalPosition | null = null;
  let sent: LocalPosition | null = null;
  let lastSentAt = -Infinity;
  let lastMoveAt = deps.now();
  let cancelTimer: (() => void) | null = null;
  let inFlight: Promise<void> | null = null;
  /** The newest server time this tab knows of (its own saves, the position it opened at). */
  let knownAt = -Infinity;
  let mustCheck = false;
  /** A newer position from elsewhere, offered and not yet answered: nothing is saved meanwhile. */
  let held: LocalPosition | null = null;
  let checking: Promise<boolean> | null = null;

  const writeLocal = (position: LocalPosition) => {
    try {
      deps.storage?.setItem(localPositionKey(volumeId, deps.owner ?? null), JSON.stringify(position));
    } catch {
      // Storage full or refused: the server copy still holds for members.
    }
  };

  const know = (at: string) => {
    const time = Date.parse(at);
    if (Number.isFinite(time) && time > knownAt) knownAt = time;
  };

  /** Holds saving when `server` is newer than anything this tab knows and elsewhere than here. */
  const offerIfNewer = (server: LocalPosition): boolean => {
    if (Date.parse(server.at) <= knownAt || server.cfi === latest?.cfi) return false;
    held = server;
    cancelTimer?.();
    cancelTimer = null;
    deps.onNewer?.(server);
    return true;
  };

  /** Asks the server for its position; true when a newer one from elsewhere is now offered. */
  const check = (): Promise<boolean> => {
    if (held) return Promise.resolve(true);
    if (!deps.fetchServer) return Promise.resolve(false);
    checking ??= deps
      .fetchServer()
      .then((server) => {
        mustCheck = false;
        return server ? offerIfNewer(fromServer(server)) : false;
      })
      .catch(() => false)
      .finally(() => {
        checking = null;
      });
    return checking;
  };

  const sendNow = (keepalive: boolean): Promise<void> => {
    cancelTimer?.();
    cancelTimer = null;
    const position = latest;
    if (held || !deps.send || !position || position === sent) return inFlight ?? Promise.resolve();
    if (inFlight && !keepalive) {
      // One save at a time: this position goes when the current one ends.
      return inFlight.then(() => sendNow(false));
    }
    if (mustCheck && !keepalive && deps.fetchServer) {
      // Back after a while: another device may have read on since.
      return check().then((offered) => (offered ? undefined : sendNow(false)));
    }
    sent = position;
    lastSentAt = deps.now();
    const request = deps
      .send(position, keepalive)
      .then((result) => {
        if (result && result.stale) {
          if (!offerIfNewer(fromServer(result.position))) know(result.position.updatedAt);
        } else know(position.at);
      })
      .catch(() => {
        // Not saved (offline, server down): try again with the next move.
        if (sent === position) sent = null;
      })
      .finally(() => {
        if (inFlight === request) inFlight = null;
      });
    inFlight = request;
    return request;
  };

  return {
    current: () => latest,
    /** The server position the reader opened with (or weighed against this device's). */
    known(position: ReadingPosition | null): void {
      if (position) know(position.updatedAt);
    },
    /** The offered newer position, while it waits for an answer. */
    offered: () => held,
    moved(position: LocalPosition): void {
      const chapterChanged = latest !== null && latest.chapter !== position.chapter;
      if (deps.now() - lastMoveAt >= IDLE_CHECK_MS) mustCheck = true;
      lastMoveAt = deps.now();
      latest = position;
      writeLocal(position);
      if (!deps.send || held) return;
      const wait = SAVE_INTERVAL_MS - (deps.now() - lastSentAt);
      if (chapterChanged || wait <= 0) {
        void sendNow(false);
        return;
      }
      cancelTimer ??= deps.timer(() => {
        cancelTimer = null;
        void sendNow(false);
      }, wait);
    },
    /** Sends what is not saved yet (leaving the page: `keepalive`). */
    flush(keepalive: boolean): Promise<void> {
      return sendNow(keepalive);
    },
    /** The page was hidden: ask the server before the next save. */
    hidden(): void {
      mustCheck = true;
    },
    /** The page is shown again: look for a newer position from elsewhere now. */
    check,
    /**
     * The reader answered the offer: `jump` (they go there; saving resumes with their next move) or
     * `stay` (this tab's place is saved again, as of now).
     */
    choose(answer: 'jump' | 'stay'): void {
      if (!held) return;
      know(held.at);
      held = null;
      mustCheck = false;
      if (answer === 'stay' && latest) {
        latest = { ...latest, at: new Date(deps.now()).toISOString() };
        writeLocal(latest);
        void sendNow(false);
      }
    },
    stop(): void {
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}

export type ProgressSaver = ReturnType<typeof createProgressSaver>;
