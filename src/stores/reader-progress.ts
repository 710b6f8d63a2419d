import { PROGRESS_SCALE } from '../shared/lightnovel/lightnovel-model.ts';
import type { ReadingPosition } from '../shared/lightnovel/reading.contract.ts';

/**
 * Where the reader is, and keeping it: on this device at every move (localStorage, the only place for
 * visitors), and for members on the server, throttled while reading, at once on a chapter change, and
 * on leaving the page (a keepalive request). On opening, the newer of the server's and this device's
 * position wins.
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
const LOCAL_KEY_PREFIX = 'hikari-reader-position-';
export const localPositionKey = (volumeId: number) => `${LOCAL_KEY_PREFIX}${volumeId}`;

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

/** The position to open at: the more recent of the server's and this device's. */
export function pickStartPosition(server: ReadingPosition | null, local: LocalPosition | null): LocalPosition | null {
  const fromServer = server
    ? { cfi: server.cfi, chapter: server.chapter, percentage: server.percentage, at: server.updatedAt }
    : null;
  if (!fromServer) return local;
  if (!local) return fromServer;
  return Date.parse(local.at) > Date.parse(fromServer.at) ? local : fromServer;
}

export interface ProgressSaverDeps {
  /** Sends a position to the server; `keepalive` when the page is going away. Members only. */
  send: ((position: LocalPosition, keepalive: boolean) => Promise<unknown>) | null;
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  now: () => number;
  /** Runs `fn` after `ms`; returns a cancel function. */
  timer: (fn: () => void, ms: number) => () => void;
}

/**
 * Keeps a volume's position. `moved` at each relocation; `flush` when the page is hidden or left.
 * Saves to the server at most once every SAVE_INTERVAL_MS while reading, at once when the chapter
 * changes, never twice for the same position, and one at a time (a move during a save is sent after it).
 */
export function createProgressSaver(volumeId: number, deps: ProgressSaverDeps) {
  let latest: LocalPosition | null = null;
  let sent: LocalPosition | null = null;
  let lastSentAt = -Infinity;
  let cancelTimer: (() => void) | null = null;
  let inFlight: Promise<void> | null = null;

  const writeLocal = (position: LocalPosition) => {
    try {
      deps.storage?.setItem(localPositionKey(volumeId), JSON.stringify(position));
    } catch {
      // Storage full or refused: the server copy still holds for members.
    }
  };

  const sendNow = (keepalive: boolean): Promise<void> => {
    cancelTimer?.();
    cancelTimer = null;
    const position = latest;
    if (!deps.send || !position || position === sent) return inFlight ?? Promise.resolve();
    if (inFlight && !keepalive) {
      // One save at a time: this position goes when the current one ends.
      return inFlight.then(() => sendNow(false));
    }
    sent = position;
    lastSentAt = deps.now();
    const request = deps
      .send(position, keepalive)
      .then(() => undefined)
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
    moved(position: LocalPosition): void {
      const chapterChanged = latest !== null && latest.chapter !== position.chapter;
      latest = position;
      writeLocal(position);
      if (!deps.send) return;
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
    stop(): void {
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}

export type ProgressSaver = ReturnType<typeof createProgressSaver>;
