import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { registerUser } from '../../../../tests/support/accounts.ts';
import { pruneAuthData } from './auth.housekeeping.ts';
import { hitRateLimit } from '../../platform/rate-limit.ts';

describe('auth housekeeping', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('removes old codes, rate-limit windows and long-ended sessions, and keeps live ones', async () => {
    const { session } = await registerUser(app, 'Keeper');
    const db = app.ctx.db;
    await hitRateLimit(db, 'old-key', { limit: 5, windowMs: 60_000 }, Date.now() - 3 * 24 * 3600_000);
    await db
      .updateTable('refresh_family')
      .set({ revoked_at: new Date(Date.now() - 40 * 24 * 3600_000).toISOString() })
      .execute();
    const { session: live } = await registerUser(app, 'Stayer');

    await pruneAuthData(db, new Date(Date.now() + 2 * 24 * 3600_000));

    expect(
      await db.selectFrom('rate_limit').select('key').where('key', '=', 'old-key').executeTakeFirst(),
    ).toBeUndefined();
    expect(await db.selectFrom('one_time_code').selectAll().execute()).toEqual([]);
    const families = await db.selectFrom('refresh_family').select('user_id').execute();
    expect(families.map((f) => f.user_id)).toEqual([live.user._id]);
    expect(session.user._id).not.toBe(live.user._id);
  });
});
