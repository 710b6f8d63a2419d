import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { CompiledQuery, SqliteDialect, SqliteDriver } from 'kysely';
import type {
  DatabaseConnection,
  Driver,
  SqliteDatabase,
  SqliteDialectConfig,
  SqliteStatement,
  TransactionSettings,
} from 'kysely';

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

/**
 * Transactions take the write lock when they begin (`BEGIN IMMEDIATE`), where the busy timeout applies.
 * A deferred transaction that reads first would have to upgrade to a writer later, and SQLite answers
 * that upgrade with SQLITE_BUSY at once (no waiting) when another process wrote in between: with several
 * server processes on one file, read-then-write transactions would fail under load. Transactions marked
 * `setAccessMode('read only')` stay deferred and never wait for writers.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

class NodeSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

export function createSqliteDialect(options: SqliteOptions): SqliteDialect {
  return new NodeSqliteDialect({ database: openSqlite(options) });
}
