import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../src/server/db/migrator.ts';
import { verifyPoints } from '../../src/server/modules/points/points.service.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-db.ts';

const NAME = '20261129-0001-points';
const at = '2026-11-01T00:00:00.000Z';

// Balances that existed before the ledger become its first rows ('opening'), so the invariant holds
// for every member from the moment the ledger exists.
describe(`migration ${NAME}`, () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await migrateTo(t.db, '20261128-0001-search');
  });
  afterAll(async () => t.destroy());

  it('opens the ledger with every existing balance', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables before this migration
    const db = t.db as any;
    const users = [
      { id: 'a'.repeat(24), user_id: 1, name: 'rich', hikari_point: 360 },
      { id: 'b'.repeat(24), user_id: 2, name: 'poor', hikari_point: 0 },
    ].map((u) => ({
      ...u,
      name_key: u.name,
      name_skeleton: u.name,
      email: `${u.name}@example.test`,
      password_hash: 'x',
      password_changed_at: at,
      created_at: at,
      updated_at: at,
    }));
    await db.insertInto('users').values(users).execute();
    await migrateToLatest(t.db);
    const ledger = await t.db
      .selectFrom('point_ledger')
      .select(['user_id', 'seq', 'amount', 'reason', 'balance_after'])
      .execute();
    expect(ledger.map((row) => ({ ...row, seq: Number(row.seq), amount: Number(row.amount) }))).toEqual([
      { user_id: 'a'.repeat(24), seq: 1, amount: 360, reason: 'opening', balance_after: 360 },
    ]);
    expect(await verifyPoints(t.db)).toEqual({ checked: 2, mismatches: [] });
  });
});
