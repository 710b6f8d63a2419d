import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export interface SqliteOptions {
  file: string;
  /** Milliseconds a writer waits for a lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

function toSqlValue(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

/** Adapts node:sqlite's synchronous API to the statement interface Kysely's SqliteDialect expects. */
class NodeSqliteDatabase implements SqliteDatabase {
  readonly raw: DatabaseSync;

  constructor(raw: DatabaseSync) {
    this.raw = raw;
  }

  close(): void {
    if (this.raw.isOpen) this.raw.close();
  }

  prepare(sql: string): SqliteStatement {
    const statement = this.raw.prepare(sql);
    const bind = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlValue);
    return {
      reader: statement.columns().length > 0,
      all: (parameters) => statement.all(...bind(parameters)),
      run: (parameters) => statement.run(...bind(parameters)),
      iterate: (parameters) => statement.iterate(...bind(parameters)),
    };
  }
}

/**
 * Opens the SQLite file with the settings every connection needs: WAL so readers never wait for the
 * writer, a busy timeout instead of instant SQLITE_BUSY, foreign keys enforced, and synchronous=FULL
 * (see docs/decisions/002-sqlite-durability.md).
 */
export function openSqlite(options: SqliteOptions): NodeSqliteDatabase {
  const raw = new DatabaseSync(options.file, { enableForeignKeyConstraints: true });
  try {
    // The first statement reads the file header: a file that is not a database fails here.
    if (options.file !== ':memory:') raw.exec('PRAGMA journal_mode = WAL');
    raw.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    raw.exec('PRAGMA foreign_keys = ON');
    raw.exec('PRAGMA synchronous = FULL');
  } catch (error) {
    raw.close();
    throw error;
  }
  return new NodeSqliteDatabase(raw);
}

export function createSqliteDialect(options: SqliteOptions): SqliteDialect {
  return new SqliteDialect({ database: openSqlite(options) });
}
