import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-db.ts';
import { enforceRateLimit, hitRateLimit, peekRateLimit, pruneRateLimits } from './rate-limit.ts';
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

  it('prunes old windows', async () => {
    await pruneRateLimits(t.db, 60_000, start + 10 * 60_000);
    expect((await peekRateLimit(t.db, 'k1', rule, start + 60_000)).count).toBe(0);
    expect(HttpError).toBeDefined();
  });
});
