import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-db.ts';
import { migrateDown, migrateToLatest, migrationState } from './migrator.ts';
import { migrations } from './migrations/index.ts';

async function tableNames(t: TestDatabase): Promise<string[]> {
  const tables = await t.db.introspection.getTables();
  return tables.map((table) => table.name).filter((name) => !name.startsWith('schema_migration'));
}

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => t.destroy());

  it('apply every migration up, report the state, and are idempotent', async () => {
    const applied = await migrateToLatest(t.db);
    expect(applied).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(t.db)).toEqual([]);
    const state = await migrationState(t.db);
    expect(state).toEqual({ applied: applied.length, pending: 0, latest: applied.at(-1) });
    expect(await tableNames(t)).toEqual(expect.arrayContaining(['announcement', 'system_state']));
  });

  it('revert every migration down to an empty schema, then apply again', async () => {
    const reverted = await migrateDown(t.db);
    expect(reverted).toEqual(Object.keys(migrations).reverse());
    expect(await tableNames(t)).toEqual([]);
    expect((await migrationState(t.db)).applied).toBe(0);
    await migrateToLatest(t.db);
    expect(await tableNames(t)).toEqual(expect.arrayContaining(['announcement', 'system_state']));
  });

  it('runs on the expected dialect', async () => {
    const expected = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
    expect(t.dialect).toBe(expected);
    const row = await sql<{ one: number }>`select 1 as one`.execute(t.db);
    expect(Number(row.rows[0]?.one)).toBe(1);
  });
});
