import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createProgressSaver,
  localPositionKey,
  parseLocalPosition,
  pickStartPosition,
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

function setup(options: { member?: boolean; failing?: boolean } = {}) {
  const values = new Map<string, string>();
  const sent: { position: LocalPosition; keepalive: boolean }[] = [];
  const saver = createProgressSaver(7, {
    send:
      options.member === false
        ? null
        : async (p, keepalive) => {
            sent.push({ position: p, keepalive });
            if (options.failing) throw new Error('offline');
          },
    storage: { getItem: (k) => values.get(k) ?? null, setItem: (k, v) => void values.set(k, v) },
    now: () => Date.now(),
    timer: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      return () => clearTimeout(handle);
    },
  });
  return { saver, sent, values };
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
});
