import { atom, computed, onMount, type ReadableAtom } from 'nanostores';

/**
 * A wait shown in whole seconds (the "resend in 42 s" of a code button). Its clock runs only while
 * something listens and a wait is running, so an idle form costs no timer.
 */
export const COUNTDOWN_TICK_MS = 250;

export interface Countdown {
  /** Whole seconds left; ticks while something listens. */
  $secondsLeft: ReadableAtom<number>;
  start(seconds: number): void;
  /** Seconds left now (for actions, which may run while nothing listens). */
  left(): number;
}

export function createCountdown(): Countdown {
  const $until = atom<number | null>(null);
  const $now = atom(Date.now());
  const secondsBetween = (until: number | null, now: number) =>
    until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
  const $secondsLeft = computed([$until, $now], secondsBetween);
  onMount($secondsLeft, () => {
    let handle: ReturnType<typeof setInterval> | undefined;
    const unbind = $until.subscribe((until) => {
      clearInterval(handle);
      handle = undefined;
      if (until === null) return;
      handle = setInterval(() => {
        const now = Date.now();
        $now.set(now);
        if (now >= until) $until.set(null);
      }, COUNTDOWN_TICK_MS);
    });
    return () => {
      unbind();
      clearInterval(handle);
    };
  });
  return {
    $secondsLeft,
    start(seconds) {
      const now = Date.now();
      $now.set(now);
      $until.set(now + Math.max(0, seconds) * 1000);
    },
    left: () => secondsBetween($until.get(), Date.now()),
  };
}
