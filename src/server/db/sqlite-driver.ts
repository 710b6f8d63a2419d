import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
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

/** How many prepared statements a connection keeps; the app's queries are far fewer distinct texts. */
const STATEMENT_CACHE_SIZE = 500;

interface CachedStatement {
  statement: StatementSync;
  reader: boolean;
}

/**
 * Adapts node:sqlite's synchronous API to the statement interface Kysely's SqliteDialect expects.
 * Prepared statements are kept by SQL text (least recently used out first): preparing costs as much
 * as running a short query, and pages run the same few dozen texts again and again. Kysely runs one
 * query at a time on the connection and `all`/`run` reset a statement, so reuse is safe; `iterate`
 * (streaming) keeps its statement open while the caller reads, so it always gets a fresh one.
 */
class NodeSqliteDatabase implements SqliteDatabase {
  readonly raw: DatabaseSync;
  readonly #statements = new Map<string, CachedStatement>();

  constructor(raw: DatabaseSync) {
    this.raw = raw;
  }

  close(): void {
    this.#statements.clear();
    if (this.raw.isOpen) this.raw.close();
  }

  #cached(sql: string): CachedStatement {
    let entry = this.#statements.get(sql);
    if (entry) {
      this.#statements.delete(sql);
    } else {
      const statement = this.raw.prepare(sql);
      entry = { statement, reader: statement.columns().length > 0 };
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
    }
    this.#statements.set(sql, entry);
    return entry;
  }

  prepare(sql: string): SqliteStatement {
    const { statement, reader } = this.#cached(sql);
    const bind = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlValue);
    return {
      reader,
      all: (parameters) => statement.all(...bind(parameters)),
      run: (parameters) => statement.run(...bind(parameters)),
      iterate: (parameters) => this.raw.prepare(sql).iterate(...bind(parameters)),
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
  readonly #database: NodeSqliteDatabase;

  constructor(config: SqliteDialectConfig & { database: NodeSqliteDatabase }) {
    super(config);
    this.#database = config.database;
  }

  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  /**
   * SQLite itself rolls back a transaction that failed with SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM or
   * SQLITE_BUSY in some cases; a ROLLBACK after that fails with "no transaction is active" and would
   * replace the error that says what went wrong.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#database.raw.isTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

class NodeSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig & { database: NodeSqliteDatabase };

  constructor(config: SqliteDialectConfig & { database: NodeSqliteDatabase }) {
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
