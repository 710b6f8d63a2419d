import type { Db, DbDialect, JobRow } from '../../db/database.ts';
import { iso } from './job-queue.ts';

/** The worker's hold on a claimed job: only a write that still matches all of it counts. */
export interface Hold {
  id: string;
  workerId: string;
  /** The attempt number the claim gave the job; a later claim by anyone changes it. */
  attempts: number;
}

/**
 * Takes up to `limit` due jobs for this worker in one statement, so no two workers get the same job:
 * waiting jobs whose time has come, and running jobs whose worker let the lease run out (it died or
 * hung). PostgreSQL skips rows another worker is claiming (FOR UPDATE SKIP LOCKED); SQLite runs the
 * whole UPDATE under its single write lock.
 */
export async function claimJobs(
  db: Db,
  dialect: DbDialect,
  claim: { names: string[]; workerId: string; limit: number; leaseMs: number; now: number },
): Promise<JobRow[]> {
  if (claim.names.length === 0 || claim.limit < 1) return [];
  const now = iso(claim.now);
  const due = db
    .selectFrom('job')
    .select('id')
    .where('name', 'in', claim.names)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['queued', 'failed']), eb('run_at', '<=', now)]),
        eb.and([
          eb('status', '=', 'running'),
          eb('lease_until', '<=', now),
          eb('attempts', '<', eb.ref('max_attempts')),
        ]),
      ]),
    )
    .orderBy('run_at')
    .limit(claim.limit);
  const claimed = {
    status: 'running' as const,
    locked_by: claim.workerId,
    lease_until: iso(claim.now + claim.leaseMs),
    updated_at: now,
  };
  if (dialect === 'postgres') {
    // The pick is a MATERIALIZED CTE so it runs exactly once: as `id IN (subquery … LIMIT n)` the
    // planner may run it again for each row and claim far more than n jobs.
    return db
      .with(
        (cte) => cte('picked').materialized(),
        () => due.forUpdate().skipLocked(),
      )
      .updateTable('job')
      .from('picked')
      .set((eb) => ({ ...claimed, attempts: eb('job.attempts', '+', 1) }))
      .whereRef('job.id', '=', 'picked.id')
      .returningAll('job')
      .execute();
  }
  // SQLite runs the whole statement under its single write lock: nobody else can claim in between.
  return db
    .updateTable('job')
    .set((eb) => ({ ...claimed, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

const held = (db: Db, hold: Hold) =>
  db
    .updateTable('job')
    .where('id', '=', hold.id)
    .where('status', '=', 'running')
    .where('locked_by', '=', hold.workerId)
    .where('attempts', '=', hold.attempts);

/** Pushes the lease forward; false when the job is no longer ours. */
export async function extendLease(db: Db, hold: Hold, leaseMs: number, now: number): Promise<boolean> {
  const result = await held(db, hold)
    .set({ lease_until: iso(now + leaseMs), updated_at: iso(now) })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markDone(db: Db, hold: Hold, now: number): Promise<boolean> {
  const result = await held(db, hold)
    .set({ status: 'done', lease_until: null, locked_by: null, updated_at: iso(now) })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a failed attempt: waiting again until `retryAt`, or dead when that is null. */
export async function markFailed(
  db: Db,
  hold: Hold,
  failure: { error: string; retryAt: number | null },
  now: number,
): Promise<boolean> {
  const result = await held(db, hold)
    .set({
      status: failure.retryAt === null ? 'dead' : 'failed',
      ...(failure.retryAt === null ? {} : { run_at: iso(failure.retryAt) }),
      last_error: failure.error,
      lease_until: null,
      locked_by: null,
      updated_at: iso(now),
    })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Jobs whose worker vanished during their last attempt are not run again: they are dead. */
export async function buryAbandoned(db: Db, now: number): Promise<number> {
  const result = await db
    .updateTable('job')
    .set({
      status: 'dead',
      last_error: 'The worker stopped during the last attempt (its lease ran out).',
      lease_until: null,
      locked_by: null,
      updated_at: iso(now),
    })
    .where('status', '=', 'running')
    .where('lease_until', '<=', iso(now))
    .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
