import { sql } from 'kysely';
import type { PlatformLogger } from '../platform/bus/bus.ts';
import type { DatabaseTarget } from '../platform/config.ts';
import type { Storage } from '../platform/storage/storage.ts';
import { explainDatabaseError, type DatabaseHandle } from './connect.ts';
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
  options: { logger: Pick<PlatformLogger, 'info'>; migrate?: boolean; seedDemo: boolean; storage: Storage },
): Promise<void> {
  await sql`select 1`.execute(handle.db).catch((error: unknown) => {
    throw explainDatabaseError(error, target) ?? error;
  });
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
