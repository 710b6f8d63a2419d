import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-db.ts';
import {
  createRateGate,
  enforceRateLimit,
  hitRateLimit,
  peekRateLimit,
  pruneRateLimits,
  reserveRateLimit,
  settleRateLimit,
} from './rate-limit.ts';
import { HttpError } from './errors.ts';

describe('rate limits in the database', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.destroy());
  const rule = { limit: 3, windowMs: 60_000 };
  const start = 1_800_000_000_000; // a window boundary

  it('counts hits in a fixed window and resets in the next', async () => {
    expect((await hitRateLimit(t.db, 'k1', rule, start)).count).toBe(1);
    expect((await hitRateLimit(t.db, 'k1', rule, start + 10)).count).toBe(2);
    expect((await peekRateLimit(t.db, 'k1', rule, start + 20)).count).toBe(2);
    const next = await hitRateLimit(t.db, 'k1', rule, start + 60_000);
    expect(next.count).toBe(1);
    expect(next.retryAfter).toBe(60);
  });

  it('throws 429 with the seconds left once over the limit', async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.db, 'k2', rule, start + 1000);
    await expect(enforceRateLimit(t.db, 'k2', rule, start + 15_000)).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      details: { retryAfter: 45 },
    });
  });

  it('counts concurrent hits exactly', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit(t.db, 'k3', { limit: 100, windowMs: 60_000 }, start)),
    );
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('reserves attempts in flight and settles them as failures or takes them back', async () => {
    const peek = () =>
      t.db.selectFrom('rate_limit').select(['count', 'pending']).where('key', '=', 'k4').executeTakeFirst();
    await Promise.all([1, 2, 3].map(() => reserveRateLimit(t.db, 'k4', rule, start)));
    expect(await peek()).toEqual({ count: 3, pending: 3 });
    await settleRateLimit(t.db, 'k4', rule, start, 'kept');
    await settleRateLimit(t.db, 'k4', rule, start, 'released');
    expect(await peek()).toEqual({ count: 2, pending: 1 });
    // An attempt from a window that has ended changes nothing, nor does one settled twice too often.
    expect(await reserveRateLimit(t.db, 'k4', rule, start + 60_000)).toMatchObject({ count: 1, pending: 1 });
    await settleRateLimit(t.db, 'k4', rule, start, 'released');
    await settleRateLimit(t.db, 'k4', rule, start + 60_000, 'released');
    await settleRateLimit(t.db, 'k4', rule, start + 60_000, 'released');
    expect(await peek()).toEqual({ count: 0, pending: 0 });
    // A plain hit in a new window starts with nothing in flight.
    await reserveRateLimit(t.db, 'k4', rule, start + 60_000);
    await hitRateLimit(t.db, 'k4', rule, start + 120_000);
    expect(await peek()).toEqual({ count: 1, pending: 0 });
  });

  it('a gate refuses the rest of a window past its limit without writing to the database', async () => {
    const pass = createRateGate(2);
    for (let i = 0; i < 3; i++) await pass(t.db, 'g1', rule, start + 1000);
    const refused = () => pass(t.db, 'g1', rule, start + 30_000).catch((e: unknown) => e);
    expect(await refused()).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfter: 30 } });
    for (let i = 0; i < 5; i++) expect(await refused()).toMatchObject({ details: { retryAfter: 30 } });
    // Counted once past the limit; the refusals after it were answered from memory.
    expect((await peekRateLimit(t.db, 'g1', rule, start + 30_000)).count).toBe(4);
    await expect(pass(t.db, 'g1', rule, start + 60_000)).resolves.toBeUndefined();
    // It remembers only so many counters (2 here); a forgotten one is refused by the database again.
    for (const key of ['g2', 'g3', 'g4']) {
      for (let i = 0; i < 4; i++) await pass(t.db, key, rule, start).catch(() => undefined);
    }
    expect(await pass(t.db, 'g2', rule, start).catch((e: unknown) => e)).toMatchObject({ status: 429 });
    expect((await peekRateLimit(t.db, 'g2', rule, start)).count).toBe(5);
  });

  it('prunes old windows', async () => {
    await pruneRateLimits(t.db, 60_000, start + 10 * 60_000);
    expect((await peekRateLimit(t.db, 'k1', rule, start + 60_000)).count).toBe(0);
    expect(HttpError).toBeDefined();
  });
});
