import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle.ts';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then at most once per window with the latest arguments', () => {
    const calls: number[] = [];
    const f = throttle((n: number) => calls.push(n), 100);
    f(1);
    f(2);
    f(3);
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([1, 3]);
    vi.advanceTimersByTime(500);
    f(4);
    expect(calls).toEqual([1, 3, 4]);
  });

  it('can be cancelled', () => {
    const calls: number[] = [];
    const f = throttle((n: number) => calls.push(n), 100);
    f(1);
    f(2);
    f.cancel();
    vi.advanceTimersByTime(200);
    expect(calls).toEqual([1]);
  });
});
