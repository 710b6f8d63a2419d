import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
// COUNT(*) and BIGINT arrive as strings from pg; our counts fit in a double, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

import type { PlatformLogger } from '../platform/bus/bus.ts';
import { StartupError, type DatabaseTarget } from '../platform/config.ts';
import type { Database, Db, DbDialect } from './database.ts';
import { createSqliteDialect } from './sqlite-driver.ts';
import { ALWAYS_REACHABLE, type DatabaseAvailability } from './availability.ts';
import { createPostgresPool } from './postgres-pool.ts';

export interface DatabaseHandle {
  db: Db;
  dialect: DbDialect;
  /** Whether the database can be reached now (always, for SQLite). */
  availability: DatabaseAvailability;
  close: () => Promise<void>;
}

const WHERE_SQLITE_LIVES = 'its place is set by DATABASE_URL (default DATA_DIR/hikari.db)';

/** SQLite's primary result codes we can explain (extended codes carry them in the low byte). */
const SQLITE_EXPLANATIONS: Record<number, string> = {
  8: 'is read-only for this user; give the server write access to it and its folder',
  10: 'cannot be read or written (disk I/O error); check the disk',
  11: 'is damaged (database disk image is malformed); restore it from a backup',
  13: 'cannot grow: the disk is full; free some space',
  14: 'cannot be opened; check that its folder exists and is writable',
  26: 'is not a SQLite database; restore it from a backup, or move it away to start with an empty one',
};

/**
 * Turns a database failure at start into one line naming the file (or server) and the variable that
 * chose it; returns null for errors that are not about the database being usable at all.
 */
export function explainDatabaseError(error: unknown, target: DatabaseTarget): StartupError | null {
  if (!error || typeof error !== 'object') return null;
  if (target.dialect === 'sqlite') {
    const code = 'errcode' in error && typeof error.errcode === 'number' ? error.errcode & 0xff : null;
    const explanation = code === null ? undefined : SQLITE_EXPLANATIONS[code];
    if (!explanation) return null;
    return new StartupError(
      'DATABASE_URL',
      target.file,
      `the database file ${target.file} ${explanation}; ${WHERE_SQLITE_LIVES}.`,
    );
  }
  const code = 'code' in error ? String(error.code) : '';
  const url = new URL(target.url);
  const server = `PostgreSQL at ${url.hostname}:${url.port || '5432'}${url.pathname}`;
  const problems: Record<string, string> = {
    ECONNREFUSED: 'refused the connection; is it running?',
    ENOTFOUND: 'cannot be found; check the host name',
    ETIMEDOUT: 'did not answer in time',
    '28P01': 'refused the user name or password',
    '28000': 'refused the login',
    '3D000': 'has no such database; create it first',
    '53100': 'has a full disk',
  };
  const problem = problems[code];
  return problem ? new StartupError('DATABASE_URL', target.url, `${server} ${problem} (DATABASE_URL).`) : null;
}

/**
 * Makes the database file (and so its -wal and -shm, which SQLite creates with the same mode) readable
 * by this user only, and tightens an existing file that others could read.
 */
function privateSqliteFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    const info = statSync(f, { throwIfNoEntry: false });
    if (info && (info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) chmodSync(f, 0o600);
  }
}

/** PostgreSQL connections of the one server process (and of the command-line tools). */
export const DEFAULT_POOL_SIZE = 10;

/**
 * PostgreSQL connections each of `processes` server processes may hold: together about what one
 * process holds alone, and never fewer than 3, so a request's transaction, the job worker and a bus
 * publish do not queue behind each other. Each process also holds one listening connection for the bus.
 */
export function poolSizePerProcess(processes: number): number {
  return Math.max(3, Math.ceil(DEFAULT_POOL_SIZE / Math.max(1, processes)));
}

export interface ConnectOptions {
  poolSize?: number;
  /**
   * Logs every query slower than `slowQueryMs` (0: none) at warn, with its SQL text, and the
   * PostgreSQL server going away and coming back.
   */
  logger?: Pick<PlatformLogger, 'warn' | 'info' | 'error'>;
  slowQueryMs?: number;
  /** Sees every query that ran, with its duration (benchmarks, query-plan tests). */
  onQuery?: (query: { sql: string; parameters: readonly unknown[]; durationMs: number }) => void;
}

/**
 * Kysely's `log` hook for the options, or undefined when nothing listens (then Kysely times nothing).
 * Only the SQL text is logged, never the parameters: they can hold personal data.
 */
export function queryLog(
  options: Omit<ConnectOptions, 'logger'> & { logger?: Pick<PlatformLogger, 'warn'> },
): ((event: LogEvent) => void) | undefined {
  const { logger, slowQueryMs = 0, onQuery } = options;
  const logSlow = logger !== undefined && slowQueryMs > 0;
  if (!logSlow && !onQuery) return undefined;
  return (event) => {
    const durationMs = event.queryDurationMillis;
    const text = event.query.sql;
    onQuery?.({ sql: text, parameters: event.query.parameters, durationMs });
    if (logSlow && durationMs > slowQueryMs) {
      logger.warn(
        { durationMs: Math.round(durationMs * 10) / 10, sql: text, failed: event.level === 'error' || undefined },
        'slow query',
      );
    }
  };
}

/** Opens Kysely on SQLite (node:sqlite) or PostgreSQL (pg), whichever the target names. */
export function connectDatabase(target: DatabaseTarget, options: ConnectOptions = {}): DatabaseHandle {
  const log = queryLog(options);
  if (target.dialect === 'sqlite') {
    let dialect;
    try {
      if (target.file !== ':memory:') privateSqliteFile(target.file);
      dialect = createSqliteDialect({ file: target.file });
    } catch (error) {
      const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
      if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR'].includes(code)) {
        throw new StartupError(
          'DATABASE_URL',
          target.file,
          `the database file ${target.file} cannot be created or opened (${code}); ${WHERE_SQLITE_LIVES}.`,
        );
      }
      throw explainDatabaseError(error, target) ?? error;
    }
    const db = new Kysely<Database>({ dialect, ...(log ? { log } : {}) });
    return { db, dialect: 'sqlite', availability: ALWAYS_REACHABLE, close: () => db.destroy() };
  }
  const { pool, availability } = createPostgresPool(target.url, {
    poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
    logger: options.logger,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  return { db, dialect: 'postgres', availability, close: () => db.destroy() };
}
