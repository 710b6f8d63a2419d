import { sql } from 'kysely';
import type { DatabaseHandle } from './connect.ts';

/**
 * Keeps SQLite's query-planner statistics (sqlite_stat1) in step with the data, as SQLite advises:
 * `PRAGMA optimize` analyses only the tables whose statistics are missing or no longer hold, within a
 * time limit of its own, and does nothing otherwise. With statistics that are missing for some indexes
 * and present for others, the planner can take a worse index (decision 018: the feed's indexes).
 * PostgreSQL's autovacuum keeps its own statistics: nothing to do there.
 *
 * `opening`: checks every table (run once when the server starts); otherwise only the tables the
 * connection's queries used since (run every few hours).
 */
export async function refreshPlannerStats(
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
  { opening = false } = {},
): Promise<void> {
  if (handle.dialect !== 'sqlite') return;
  await (opening ? sql`pragma optimize = 0x10002` : sql`pragma optimize`).execute(handle.db);
}

/** How often the server refreshes the statistics after its start. */
export const PLANNER_STATS_EVERY_MS = 6 * 60 * 60 * 1000;
