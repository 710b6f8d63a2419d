import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase, type DatabaseHandle } from '../../src/server/db/connect.ts';
import type { DatabaseTarget } from '../../src/server/platform/config.ts';
import { migrateToLatest } from '../../src/server/db/migrator.ts';

export interface TestDatabase extends DatabaseHandle {
  /** Where it is, as DATABASE_URL would name it (for a second connection or the bus). */
  target: DatabaseTarget;
  /** The same database as a DATABASE_URL value. */
  url: string;
  /** Drops everything this test database created. */
  destroy: () => Promise<void>;
}

/**
 * A fresh database for one test file: a temporary SQLite file by default, or a new PostgreSQL
 * database when TEST_DATABASE_URL is set. Migrated unless `migrate: false`.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  let handle: DatabaseHandle;
  let target: DatabaseTarget;
  let cleanup: () => Promise<void>;

  if (adminUrl) {
    const name = `hikari_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    target = { dialect: 'postgres', url: url.toString() };
    handle = connectDatabase(target, { poolSize: 5 });
    cleanup = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // pg-pool's end() resolves before its sockets are gone; wait for them so FORCE kills nothing
      // that is still closing (which would surface as an unhandled "terminating connection" error).
      for (let i = 0; i < 50; i++) {
        const { rows } = await c.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [
          name,
        ]);
        if (Number(rows[0]?.n ?? 0) === 0) break;
        await new Promise((r) => setTimeout(r, 40));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'hikari-test-'));
    target = { dialect: 'sqlite', file: path.join(dir, 'test.db') };
    handle = connectDatabase(target);
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }

  if (options.migrate !== false) await migrateToLatest(handle.db);
  return {
    ...handle,
    target,
    url: target.dialect === 'postgres' ? target.url : `sqlite:${target.file}`,
    destroy: async () => {
      await handle.close();
      await cleanup();
    },
  };
}
