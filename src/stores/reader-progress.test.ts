import type { ReadingPosition } from '../shared/lightnovel/reading.contract.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createProgressSaver,
  localPositionKey,
  parseLocalPosition,
  pickStartPosition,
  IDLE_CHECK_MS,
  SAVE_INTERVAL_MS,
  toPercentage,
  type LocalPosition,
} from './reader-progress.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-12-02T12:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
const position = (n: number, chapter = '第一章'): LocalPosition => ({
  cfi: `epubcfi(/6/4!/4/${n})`,
  chapter,
  percentage: n * 100,
  at: at(),
});

const serverAt = (n: number, updatedAt: string): ReadingPosition => ({
  volumeId: 7,
  lightnovelId: 3,
  cfi: position(n).cfi,
  chapter: '第一章',
  percentage: n * 100,
  updatedAt,
});

function setup(
  options: {
    member?: boolean;
    failing?: boolean;
    owner?: string | null;
    /** What the server holds (read before saving after a pause). */
    server?: { current: ReadingPosition | null };
    /** A position the server keeps instead of the one sent (`stale`). */
    staleWith?: ReadingPosition;
  } = {},
) {
  const values = new Map<string, string>();
  const sent: { position: LocalPosition; keepalive: boolean }[] = [];
  const offered: LocalPosition[] = [];
  const saver = createProgressSaver(7, {
    owner: options.owner,
    fetchServer: options.server ? async () => options.server!.current : undefined,
    onNewer: (p) => offered.push(p),
    send:
      options.member === false
        ? null
        : async (p, keepalive) => {
            sent.push({ position: p, keepalive });
            if (options.failing) throw new Error('offline');
            if (options.staleWith) return { position: options.staleWith, stale: true };
            return undefined;
          },
    storage: { getItem: (k) => values.get(k) ?? null, setItem: (k, v) => void values.set(k, v) },
    now: () => Date.now(),
    timer: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      return () => clearTimeout(handle);
    },
  });
  return { saver, sent, values, offered };
}

describe('reading progress on the client', () => {
  it('keeps every move on this device and saves to the server at most every few seconds', async () => {
    const { saver, sent, values } = setup();
    saver.moved(position(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.position.cfi)).toEqual([position(1).cfi]);
    saver.moved(position(2));
    saver.moved(position(3));
    expect(parseLocalPosition(values.get(localPositionKey(7)) ?? null)?.cfi).toBe(position(3).cfi);
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS - 100);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent.map((s) => s.position.cfi)).toEqual([position(1).cfi, position(3).cfi]);
  });

  it('saves at once when the chapter changes, and on leaving with keepalive', async () => {
    const { saver, sent } = setup();
    saver.moved(position(1));
    await vi.advanceTimersByTimeAsync(0);
    saver.moved(position(2, '第二章'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.position.chapter)).toEqual(['第一章', '第二章']);
    saver.moved(position(3, '第二章'));
    await saver.flush(true);
    expect(sent.at(-1)).toEqual({ position: position(3, '第二章'), keepalive: true });
    // Nothing new: leaving again sends nothing.
    await saver.flush(true);
    expect(sent).toHaveLength(3);
  });

  it('tries again with the next move after a failed save', async () => {
    const { saver, sent } = setup({ failing: true });
    saver.moved(position(1));
    await vi.advanceTimersByTimeAsync(0);
    await saver.flush(false);
    expect(sent).toHaveLength(2);
  });

  it('keeps visitors on this device only', async () => {
    const { saver, values } = setup({ member: false });
    saver.moved(position(4));
    await saver.flush(true);
    expect(parseLocalPosition(values.get(localPositionKey(7)) ?? null)?.percentage).toBe(400);
  });

  it('opens at the newer of the server and this device', () => {
    const local = { ...position(2), at: at(-1000) };
    const server = {
      volumeId: 7,
      lightnovelId: 3,
      cfi: position(5).cfi,
      chapter: '第五章',
      percentage: 500,
      updatedAt: at(),
    };
    expect(pickStartPosition(server, local)?.cfi).toBe(server.cfi);
    expect(pickStartPosition({ ...server, updatedAt: at(-5000) }, local)?.cfi).toBe(local.cfi);
    expect(pickStartPosition(null, local)).toBe(local);
    expect(pickStartPosition(server, null)?.percentage).toBe(500);
    expect(pickStartPosition(null, null)).toBeNull();
  });

  it('reads back only well-formed positions, and scales fractions', () => {
    expect(parseLocalPosition('{"cfi":"javascript:1"}')).toBeNull();
    expect(parseLocalPosition('nope')).toBeNull();
    expect(parseLocalPosition(JSON.stringify({ cfi: 'epubcfi(/6/2)', percentage: 99999 }))?.percentage).toBe(10000);
    expect(toPercentage(0.4567)).toBe(4567);
    expect(toPercentage(Number.NaN)).toBe(0);
    expect(toPercentage(1.5)).toBe(10000);
  });

  it('keeps each account and visitors apart on one browser', async () => {
    const member = setup({ owner: 'u-1' });
    member.saver.moved(position(4));
    expect(member.values.has(localPositionKey(7, 'u-1'))).toBe(true);
    expect(member.values.has(localPositionKey(7))).toBe(false);
    expect(localPositionKey(7, 'u-1')).not.toBe(localPositionKey(7, 'u-2'));
    expect(localPositionKey(7)).toBe(localPositionKey(7, null));
  });
});

describe('a tab left open while another device reads on', () => {
  it('asks the server after being hidden, offers a newer position from elsewhere and saves nothing until answered', async () => {
    const server = { current: serverAt(1, at()) as ReadingPosition | null };
    const { saver, sent, offered } = setup({ server });
    saver.known(server.current);
    saver.moved(position(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    saver.hidden();
    await vi.advanceTimersByTimeAsync(1000);
    // Another device reads to the end.
    server.current = serverAt(100, at());
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS);
    saver.moved(position(3));
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS);
    expect(sent).toHaveLength(1);
    expect(offered.map((p) => p.percentage)).toEqual([10000]);
    expect(saver.offered()?.cfi).toBe(position(100).cfi);
    saver.moved(position(4));
    await saver.flush(true);
    expect(sent).toHaveLength(1);
    // The reader jumps there: the next move saves again.
    saver.choose('jump');
    expect(saver.offered()).toBeNull();
    saver.moved(position(100, '终章'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.position.cfi)).toEqual([position(2).cfi, position(100).cfi]);
  });

  it('saves as before when the server holds nothing newer, and after an answer to stay', async () => {
    const server = { current: serverAt(1, at()) as ReadingPosition | null };
    const { saver, sent, offered } = setup({ server });
    saver.known(server.current);
    saver.moved(position(2));
    await vi.advanceTimersByTimeAsync(0);
    saver.hidden();
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS);
    saver.moved(position(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(offered).toEqual([]);
    expect(sent.map((s) => s.position.cfi)).toEqual([position(2).cfi, position(3).cfi]);

    // Then another device reads on; this tab is shown again and looks at once.
    await vi.advanceTimersByTimeAsync(1000);
    server.current = serverAt(50, at());
    expect(await saver.check()).toBe(true);
    expect(offered.map((p) => p.percentage)).toEqual([5000]);
    await vi.advanceTimersByTimeAsync(1000);
    saver.choose('stay');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.at(-1)?.position.cfi).toBe(position(3).cfi);
    expect(Date.parse(sent.at(-1)!.position.at)).toBeGreaterThan(Date.parse(server.current.updatedAt));
  });

  it('asks the server before saving after a long pause without moves', async () => {
    const server = { current: null as ReadingPosition | null };
    const { saver, sent, offered } = setup({ server });
    saver.moved(position(2));
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(IDLE_CHECK_MS);
    server.current = serverAt(90, at());
    saver.moved(position(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    expect(offered.map((p) => p.percentage)).toEqual([9000]);
  });

  it('treats a stale answer as a newer position from elsewhere', async () => {
    const { saver, sent, offered } = setup({ staleWith: serverAt(80, at(1000)) });
    saver.moved(position(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(offered.map((p) => p.percentage)).toEqual([8000]);
    saver.moved(position(3, '第二章'));
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS);
    expect(sent).toHaveLength(1);
  });
});
