import type { MessageRef } from '../../shared/i18n/index.ts';
import type { Db } from '../db/database.ts';
import { rateLimited, reserveRateLimit, settleRateLimit, type RateRule } from './rate-limit.ts';

/** A limit on failures (wrong passwords), with the message its refusal gives. */
export interface FailureBudget {
  key: string;
  rule: RateRule;
  message: MessageRef;
}

export interface AttemptWait {
  /** Longest an attempt waits for attempts in flight to settle before it is refused. */
  maxMs: number;
  /** How often a waiting attempt looks again: attempts in other processes settle unseen. */
  pollMs: number;
  /** Attempts of this process that may wait on one budget at once; more are refused at once. */
  maxWaiting: number;
  /** Milliseconds on a clock that only moves forward, for the wait (the limit windows use `now`). */
  elapsed: () => number;
}

/**
 * Ten seconds: 60 right passwords at once from one address all get in within 4 s on two cores
 * (bench:auth). A process lets 200 attempts wait on one budget (a school logging in together).
 */
export const ATTEMPT_WAIT: AttemptWait = {
  maxMs: 10_000,
  pollMs: 100,
  maxWaiting: 200,
  elapsed: () => performance.now(),
};

export interface ReservedAttempt {
  /** The check passed (a right password): the attempt uses up nothing. */
  succeeded: () => Promise<void>;
  /** The check failed: the attempt stays counted as a failure. */
  failed: () => Promise<void>;
}

// Attempts of this process waiting for room in a budget, oldest first, by budget key.
const waiting = new Map<string, Set<() => void>>();

/** A freed slot goes to the oldest waiter; a new failure wakes every waiter (the budget may be spent). */
function wake(keys: string[], everyone: boolean): void {
  for (const key of keys) {
    for (const resolve of waiting.get(key) ?? []) {
      resolve();
      if (!everyone) break;
    }
  }
}

function waitOn(key: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const queue = waiting.get(key) ?? new Set();
    waiting.set(key, queue);
    const done = () => {
      clearTimeout(timer);
      queue.delete(done);
      if (queue.size === 0 && waiting.get(key) === queue) waiting.delete(key);
      resolve();
    };
    const timer = setTimeout(done, ms);
    queue.add(done);
  });
}

const waiters = (key: string) => waiting.get(key)?.size ?? 0;

/**
 * Admits an attempt whose outcome is not known yet (a password about to be checked) against failure
 * budgets. It is counted in every budget before the check, so parallel attempts never pass more checks
 * than a budget holds; a right answer takes its counts back. When a budget is full only because of
 * attempts still being checked, the attempt waits for them (a burst of right passwords goes through a
 * budget's worth at a time) instead of being refused; once failures alone fill a budget, or after
 * `wait.maxMs`, it is refused with 429 and checks nothing.
 */
export async function admitAttempt(
  db: Db,
  budgets: FailureBudget[],
  now: () => number,
  wait: AttemptWait = ATTEMPT_WAIT,
): Promise<ReservedAttempt> {
  const refuse = (full: FailureBudget[], at: number) => {
    const seconds = (rule: RateRule) => Math.max(1, Math.ceil((rule.windowMs - (at % rule.windowMs)) / 1000));
    const longest = full.reduce((a, b) => (seconds(b.rule) > seconds(a.rule) ? b : a));
    return rateLimited(seconds(longest.rule), longest.message);
  };
  const keys = budgets.map((b) => b.key);
  const started = wait.elapsed();
  for (;;) {
    const at = now();
    const rows = await db
      .selectFrom('rate_limit')
      .select(['key', 'window_start', 'count', 'pending'])
      .where('key', 'in', keys)
      .execute();
    const used = (b: FailureBudget) => {
      const row = rows.find((r) => r.key === b.key);
      const current = row !== undefined && Number(row.window_start) === at - (at % b.rule.windowMs);
      return current ? { count: Number(row.count), failed: Number(row.count) - Number(row.pending) } : null;
    };
    // Failures alone fill it: refused with one read, nothing counted.
    const spent = budgets.filter((b) => (used(b)?.failed ?? 0) >= b.rule.limit);
    if (spent.length > 0) throw refuse(spent, at);
    let busy = budgets.filter((b) => (used(b)?.count ?? 0) >= b.rule.limit);
    if (busy.length === 0) {
      const states = await Promise.all(budgets.map((b) => reserveRateLimit(db, b.key, b.rule, at)));
      busy = budgets.filter((b, i) => states[i]!.count > b.rule.limit);
      const settle = (outcome: 'kept' | 'released') =>
        Promise.all(budgets.map((b) => settleRateLimit(db, b.key, b.rule, at, outcome)));
      if (busy.length === 0) {
        return {
          succeeded: async () => {
            await settle('released');
            wake(keys, false);
          },
          failed: async () => {
            await settle('kept');
            wake(keys, true);
          },
        };
      }
      // Another attempt took the last slot between the read and the count.
      await settle('released');
    }
    const left = wait.maxMs - (wait.elapsed() - started);
    const queue = busy[0]!.key;
    if (left <= 0 || waiters(queue) >= wait.maxWaiting) throw refuse(busy, at);
    await waitOn(queue, Math.min(wait.pollMs, left));
  }
}
