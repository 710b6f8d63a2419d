/** A unique-constraint violation, on SQLite ("UNIQUE constraint failed") or PostgreSQL (23505). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code === '23505') return true;
  return typeof e?.message === 'string' && /UNIQUE constraint failed/i.test(e.message);
}

/**
 * Network and PostgreSQL codes that say the server cannot be reached or is going away (a restart, a
 * failover, a pooler reset, an idle timeout): the request may work again once it is back.
 * 57P01–57P03: admin/crash shutdown, cannot connect now; 53300: too many connections;
 * 25006: a read-only transaction (a standby after a failover); class 08: connection exceptions.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '53300',
  '25006',
]);

/** What pg and Kysely say when a connection broke or none could be had in time. */
const UNAVAILABLE_MESSAGES =
  /^Connection terminated|timeout exceeded when trying to connect|is not queryable|Postgres connection has been discarded|Connection terminated due to connection timeout/;

/** SQLite's primary result code (extended codes carry it in the low byte), or null. */
function sqliteCode(error: object): number | null {
  return 'errcode' in error && typeof error.errcode === 'number' ? error.errcode & 0xff : null;
}

/** The error and its causes (`cause`, an AggregateError's `errors`), a few levels deep. */
function* causes(error: unknown, depth = 0): Generator<object> {
  if (!error || typeof error !== 'object' || depth > 4) return;
  yield error;
  if ('cause' in error) yield* causes(error.cause, depth + 1);
  if ('errors' in error && Array.isArray(error.errors)) {
    for (const inner of error.errors.slice(0, 4)) yield* causes(inner, depth + 1);
  }
}

/** The database cannot be reached right now (as opposed to a query it refused). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = 'code' in e ? String(e.code) : '';
    if (UNAVAILABLE_CODES.has(code) || /^08...$/.test(code)) return true;
    if (sqliteCode(e) === 5) return true; // SQLITE_BUSY after the busy timeout: another writer holds the file
    if ('message' in e && typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/**
 * The disk (or quota) is full: SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100), or ENOSPC/EDQUOT
 * from the file system (media, the image cache).
 */
export function isStorageFull(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = 'code' in e ? String(e.code) : '';
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return true;
    if (sqliteCode(e) === 13) return true;
  }
  return false;
}

/** How a failure of the storage under the app answers: 503 while the database is away, 507 when full. */
export type InfrastructureFailure = 'database-unavailable' | 'storage-full';

export function infrastructureFailure(error: unknown): InfrastructureFailure | null {
  if (isStorageFull(error)) return 'storage-full';
  if (isDatabaseUnavailable(error)) return 'database-unavailable';
  return null;
}
