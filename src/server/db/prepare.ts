import { sql } from 'kysely';
import type { PlatformLogger } from '../platform/bus/bus.ts';
import type { DatabaseTarget } from '../platform/config.ts';
import type { Storage } from '../platform/storage/storage.ts';
import { explainDatabaseError, type DatabaseHandle } from './connect.ts';
import { isDatabaseUnavailable } from './db-errors.ts';
import { migrateToLatest } from './migrator.ts';
import { refreshPlannerStats } from './planner-stats.ts';
import { needsDemoSeed, runDemoSeed } from './seed/demo-seed.ts';

/**
 * Gets a freshly opened database ready for the app: a first query (so an unreachable server or a
 * damaged file fails with one StartupError line), pending migrations unless `migrate: false`, the
 * demo content when `seedDemo` and the database is empty (its images go to `storage`), and then (with
 * the migrations) fresh query-planner statistics. The app context
 * runs it on start; the primary of several server processes runs it once, before starting them.
 */
export async function prepareDatabase(
  handle: DatabaseHandle,
  target: DatabaseTarget,
  options: {
    logger: Pick<PlatformLogger, 'info' | 'warn'>;
    migrate?: boolean;
    seedDemo: boolean;
    storage: Storage;
    /** Waits between attempts to reach a PostgreSQL server that is not there yet (tests shorten it). */
    retryDelayMs?: (attempt: number) => number;
    /** Ends the wait for the database (a stop signal): the start rejects with `StartAborted`. */
    signal?: AbortSignal;
  },
): Promise<void> {
  await waitForDatabase(handle, target, options);
  if (options.migrate !== false) {
    const applied = await migrateToLatest(handle.db);
    if (applied.length > 0) options.logger.info({ migrations: applied }, 'migrations applied');
  }
  if (options.seedDemo && (await needsDemoSeed(handle.db))) {
    const summary = await runDemoSeed(handle.db, options.storage);
    options.logger.info({ seed: summary }, 'demo content loaded');
  }
  if (options.migrate !== false) await refreshPlannerStats(handle, { opening: true });
}

/** 250 ms, 500 ms, 1 s, 2 s, then every 5 s. */
export const defaultStartRetryDelay = (attempt: number) => Math.min(5000, 250 * 2 ** Math.min(attempt, 5));

/**
 * The first query. A PostgreSQL server that cannot be reached yet (still starting, restarting, failing
 * over, a host name not resolving yet) is waited for with capped backoff, said once in the log; what can
 * never work (wrong credentials, no such database, a damaged SQLite file) stops the start at once with
 * its one line.
 */
async function waitForDatabase(
  handle: DatabaseHandle,
  target: DatabaseTarget,
  options: {
    logger: Pick<PlatformLogger, 'info' | 'warn'>;
    retryDelayMs?: (attempt: number) => number;
    signal?: AbortSignal;
  },
): Promise<void> {
  const delay = options.retryDelayMs ?? defaultStartRetryDelay;
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new StartAborted();
    try {
      await sql`select 1`.execute(handle.db);
      if (attempt > 0) options.logger.info({ attempts: attempt + 1 }, 'database reached; starting');
      return;
    } catch (error) {
      const explained = explainDatabaseError(error, target);
      if (target.dialect !== 'postgres' || !isDatabaseUnavailable(error)) throw explained ?? error;
      if (attempt === 0) {
        const why = explained?.message.replace(/^Cannot start: /, '') ?? String(error);
        options.logger.warn({ reason: why }, 'waiting for the database to start');
      }
      await pause(delay(attempt), options.signal);
    }
  }
}

/** A stop signal arrived while the start was waiting for the database. */
export class StartAborted extends Error {
  constructor() {
    super('stopped while waiting for the database');
    this.name = 'StartAborted';
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
