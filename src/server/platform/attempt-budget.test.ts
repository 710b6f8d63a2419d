import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-db.ts';
import { admitAttempt, ATTEMPT_WAIT, type FailureBudget, type ReservedAttempt } from './attempt-budget.ts';

describe('failure budgets for attempts checked in flight', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.destroy());
  const start = 1_800_000_000_000; // a window boundary
  const now = () => start + 5_000;
  // Only this process's settles wake a waiter here; no poll comes in the test's time.
  const wait = { ...ATTEMPT_WAIT, pollMs: 60_000 };
  const budget = (key: string): FailureBudget[] => [
    { key, rule: { limit: 3, windowMs: 60_000 }, message: 'server.loginFailures' },
  ];

  /** Ten attempts at once; each one's outcome is decided by the test. */
  function burst(key: string) {
    const admitted: ReservedAttempt[] = [];
    const refused: unknown[] = [];
    const all = Array.from({ length: 10 }, () =>
      admitAttempt(t.db, budget(key), now, wait).then(
        (attempt) => void admitted.push(attempt),
        (error: unknown) => void refused.push(error),
      ),
    );
    return { admitted, refused, all };
  }

  it('lets the rest in one at a time as attempts in flight succeed, and uses nothing up', async () => {
    const { admitted, refused, all } = burst('right');
    await vi.waitFor(() => expect(admitted).toHaveLength(3));
    for (let settled = 0; settled < 10; settled++) {
      await admitted[settled]!.succeeded();
      await vi.waitFor(() => expect(admitted).toHaveLength(Math.min(10, settled + 4)));
      expect(admitted.length).toBe(Math.min(10, settled + 4));
    }
    await Promise.all(all);
    expect(refused).toEqual([]);
    const row = await t.db.selectFrom('rate_limit').select(['count', 'pending']).where('key', '=', 'right').execute();
    expect(row).toEqual([{ count: 0, pending: 0 }]);
  });

  it('refuses everyone waiting once failures alone fill the budget', async () => {
    const { admitted, refused, all } = burst('wrong');
    await vi.waitFor(() => expect(admitted).toHaveLength(3));
    await admitted[0]!.failed();
    await admitted[1]!.failed();
    // Two failures and one still in flight: the others wait for its answer.
    expect(refused).toEqual([]);
    await admitted[2]!.failed();
    await Promise.all(all);
    expect(admitted).toHaveLength(3);
    expect(refused).toHaveLength(7);
    expect(refused[0]).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfter: 55 } });
  });

  it('refuses at once when the wait is over or too many are waiting', async () => {
    const key = 'held';
    const first = await Promise.all([1, 2, 3].map(() => admitAttempt(t.db, budget(key), now, wait)));
    const refusal = (options: typeof wait) => admitAttempt(t.db, budget(key), now, options).catch((e: unknown) => e);
    expect(await refusal({ ...wait, maxMs: 0 })).toMatchObject({ status: 429 });
    expect(await refusal({ ...wait, maxWaiting: 0 })).toMatchObject({ status: 429 });
    // Time on the wait's own clock, not the limit's: past maxMs the waiter gives up at its next look.
    let elapsed = 0;
    const late = refusal({ ...wait, pollMs: 0, elapsed: () => (elapsed += 6_000) });
    expect(await late).toMatchObject({ status: 429 });
    await Promise.all(first.map((attempt) => attempt.succeeded()));
  });
});
