import { infrastructureFailure, type InfrastructureFailure } from '../db/db-errors.ts';
import { HttpError } from './errors.ts';
import type { PlatformLogger } from './bus/bus.ts';

/** Seconds a client is asked to wait while the database is away (a restart or failover takes a few). */
export const DATABASE_RETRY_AFTER_S = 5;
/** Seconds before trying again on a full disk: space is freed by a person, not in seconds. */
export const STORAGE_FULL_RETRY_AFTER_S = 60;

/**
 * The answer to an error of what the app runs on rather than of the request: 503
 * DATABASE_UNAVAILABLE while the database cannot be reached, 507 STORAGE_FULL when its disk (or the
 * media disk) is full; null for every other error.
 */
export function infrastructureError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return null;
  const kind = infrastructureFailure(error);
  if (kind === 'database-unavailable') {
    return new HttpError(503, 'DATABASE_UNAVAILABLE', 'server.databaseUnavailable', {
      retryAfter: DATABASE_RETRY_AFTER_S,
    });
  }
  if (kind === 'storage-full') {
    return new HttpError(507, 'STORAGE_FULL', 'server.storageFull', { retryAfter: STORAGE_FULL_RETRY_AFTER_S });
  }
  return null;
}

const LOG_EVERY_MS = 60_000;
const MESSAGES: Record<InfrastructureFailure, string> = {
  'database-unavailable': 'the database cannot be reached; answering 503',
  'storage-full': 'the disk is full; writes answer 507 until space is freed',
};

/**
 * Logs an infrastructure failure with its real cause once, then at most once a minute with how many
 * more there were: a full disk or a database outage fails every request, and a line for each would
 * bury the cause (and fill the disk further). Returns whether the error was one.
 */
export function createFailureLog(now: () => number = Date.now, last = new Map<InfrastructureFailure, Seen>()) {
  return (logger: Pick<PlatformLogger, 'error'>, error: unknown, context: Record<string, unknown> = {}): boolean => {
    const kind = infrastructureFailure(error);
    if (!kind) return false;
    const at = now();
    const seen = last.get(kind);
    if (seen && at - seen.at < LOG_EVERY_MS) {
      seen.more++;
      return true;
    }
    last.set(kind, { at, more: 0 });
    logger.error({ ...context, err: error, moreSinceLastLine: seen?.more || undefined }, MESSAGES[kind]);
    return true;
  };
}

interface Seen {
  at: number;
  more: number;
}

/**
 * This process's log of infrastructure failures. Its memory is kept on `globalThis`: the pages' build
 * bundles its own copy of this module, and the error page and the API must share one minute.
 */
const FAILURES = Symbol.for('hikari.infrastructure-failures');
const shared = globalThis as { [FAILURES]?: Map<InfrastructureFailure, Seen> };
export const logInfrastructureFailure = createFailureLog(Date.now, (shared[FAILURES] ??= new Map()));
