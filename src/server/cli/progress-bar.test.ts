import { describe, expect, it } from 'vitest';
import { createProgressBar, formatProgress, formatSizes, groupDigits } from './progress-bar.ts';

function recorder(isTTY: boolean) {
  const written: string[] = [];
  let now = 0;
  const bar = createProgressBar(
    { isTTY, write: (text: string) => written.push(text) },
    { ttyIntervalMs: 100, logIntervalMs: 5000, clock: () => now },
  );
  return { bar, written, advance: (ms: number) => void (now += ms) };
}

describe('progress bar', () => {
  it('formats counts and sizes', () => {
    expect(groupDigits(12345678)).toBe('12 345 678');
    expect(formatProgress({ label: 'games', done: 12345, total: 23456, unit: 'items' })).toBe(
      '[#####.....]  52% games 12 345/23 456',
    );
    expect(formatProgress({ label: 'relations', done: 0, total: 0, unit: 'items' })).toBe(
      '[##########] 100% relations 0/0',
    );
    expect(formatSizes(512, 4096)).toBe('0.5/4.0 KB');
    expect(formatSizes(642_000_000, 1_000_000_000)).toBe('612.3/953.7 MB');
    expect(formatSizes(1.5 * 1024 ** 3, 3 * 1024 ** 3)).toBe('1.50/3.00 GB');
  });

  it('redraws one terminal line at most every 100 ms and keeps completed steps', () => {
    const { bar, written, advance } = recorder(true);
    bar.update({ label: 'subjects', done: 1, total: 10, unit: 'items' });
    advance(50);
    bar.update({ label: 'subjects', done: 2, total: 10, unit: 'items' });
    advance(60);
    bar.update({ label: 'subjects', done: 5, total: 10, unit: 'items' });
    bar.update({ label: 'subjects', done: 10, total: 10, unit: 'items' });
    bar.update({ label: 'subjects', done: 10, total: 10, unit: 'items' });
    bar.finish();
    expect(written).toEqual([
      '\r[#.........]  10% subjects 1/10\x1b[K',
      '\r[#####.....]  50% subjects 5/10\x1b[K',
      '\r[##########] 100% subjects 10/10\x1b[K\n',
    ]);
  });

  it('writes plain lines every few seconds and when a step completes when not on a terminal', () => {
    const { bar, written, advance } = recorder(false);
    bar.update({ label: 'persons', done: 1, total: 4, unit: 'items' });
    advance(1000);
    bar.update({ label: 'persons', done: 2, total: 4, unit: 'items' });
    advance(5000);
    bar.update({ label: 'persons', done: 3, total: 4, unit: 'items' });
    bar.update({ label: 'persons', done: 4, total: 4, unit: 'items' });
    bar.finish();
    expect(written).toEqual([
      '[###.......]  25% persons 1/4\n',
      '[########..]  75% persons 3/4\n',
      '[##########] 100% persons 4/4\n',
    ]);
  });

  it('ends a line left open', () => {
    const { bar, written } = recorder(true);
    bar.update({ label: 'games', done: 1, total: 3, unit: 'items' });
    bar.finish();
    bar.finish();
    expect(written.at(-1)).toBe('\n');
    expect(written).toHaveLength(2);
  });
});
