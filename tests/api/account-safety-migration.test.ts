import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/server/db/migrations/index.ts';
import { migrateDown, migrateTo, migrateToLatest } from '../../src/server/db/migrator.ts';
import { isNameTaken } from '../../src/server/modules/users/users.service.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-db.ts';

describe('migration 20261123-0001-account-safety', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await migrateTo(t.db, '20261122-0003-catalogue');
  });
  afterAll(async () => t.destroy());

  it('backfills name skeletons, keeping existing look-alike accounts working', async () => {
    const at = '2026-11-01T00:00:00.000Z';
    const user = (n: number, name: string) => ({
      id: `${'0'.repeat(23)}${n}`,
      user_id: n,
      name,
      name_key: name.toLowerCase(),
      email: `u${n}@example.test`,
      password_hash: 'x',
      password_changed_at: at,
      created_at: at,
      updated_at: at,
    });
    // Two accounts made before skeletons existed whose names look alike (Latin a, Cyrillic а).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table before this migration
    await (t.db as any)
      .insertInto('users')
      .values([user(1, 'hikari_admin'), user(2, 'hik\u0430ri_admin'), user(3, 'Sakura')])
      .execute();

    await migrateToLatest(t.db);
    const rows = await t.db
      .selectFrom('users')
      .select(['user_id', 'name', 'name_skeleton'])
      .orderBy('user_id')
      .execute();
    expect(rows).toEqual([
      { user_id: 1, name: 'hikari_admin', name_skeleton: 'hikari_adrnin' },
      { user_id: 2, name: 'hik\u0430ri_admin', name_skeleton: `hikari_adrnin#${'0'.repeat(23)}2` },
      { user_id: 3, name: 'Sakura', name_skeleton: 'sakura' },
    ]);
    expect(await isNameTaken(t.db, 'HIKARI_ADMIN')).toBe(true);
    expect(await isNameTaken(t.db, 'ｓａｋｕｒａ')).toBe(true);
    expect(await isNameTaken(t.db, 'sakura2')).toBe(false);
  });

  it('reverts cleanly', async () => {
    const reverted = await migrateDown(t.db, Object.keys(migrations).length - 3);
    expect(reverted).toContain('20261123-0001-account-safety');
    await migrateToLatest(t.db);
    const row = await t.db.selectFrom('users').select('name_skeleton').where('user_id', '=', 3).executeTakeFirst();
    expect(row?.name_skeleton).toBe('sakura');
  });
});
