import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
// COUNT(*) and BIGINT arrive as strings from pg; our counts fit in a double, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

import type { DatabaseTarget } from '../platform/config.ts';
import type { Database, Db, DbDialect } from './database.ts';
import { createSqliteDialect } from './sqlite-driver.ts';

export interface DatabaseHandle {
  db: Db;
  dialect: DbDialect;
  close: () => Promise<void>;
}

/** Opens Kysely on SQLite (node:sqlite) or PostgreSQL (pg), whichever the target names. */
export function connectDatabase(target: DatabaseTarget, options: { poolSize?: number } = {}): DatabaseHandle {
  if (target.dialect === 'sqlite') {
    if (target.file !== ':memory:') mkdirSync(path.dirname(target.file), { recursive: true });
    const db = new Kysely<Database>({ dialect: createSqliteDialect({ file: target.file }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: options.poolSize ?? 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
