import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCountdown } from './countdown.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-22T12:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('countdown', () => {
  it('counts whole seconds down to zero while shown, then stops its clock', async () => {
    const countdown = createCountdown();
    const seen: number[] = [];
    const unbind = countdown.$secondsLeft.subscribe((left) => seen.push(left));
    countdown.start(3);
    expect(countdown.$secondsLeft.get()).toBe(3);
    await vi.advanceTimersByTimeAsync(1500);
    expect(countdown.$secondsLeft.get()).toBe(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(seen).toEqual([0, 3, 2, 1, 0]);
    expect(vi.getTimerCount()).toBe(0);
    unbind();
  });

  it('knows the seconds left when nothing listens, and runs no timer then', async () => {
    const countdown = createCountdown();
    countdown.start(10);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(4200);
    expect(countdown.left()).toBe(6);
    countdown.start(-5);
    expect(countdown.left()).toBe(0);
  });

  it('stops ticking when the last listener leaves', async () => {
    const countdown = createCountdown();
    const unbind = countdown.$secondsLeft.listen(() => {});
    countdown.start(60);
    expect(vi.getTimerCount()).toBe(1);
    unbind();
    // nanostores unmounts a store a moment after its last listener left.
    await vi.advanceTimersByTimeAsync(1100);
    expect(countdown.left()).toBe(59);
    expect(vi.getTimerCount()).toBe(0);
  });
});
