import { PostgresAdapter, type Generated, type Kysely, type Selectable, type Transaction } from 'kysely';

/**
 * The one Database type of Kysely. The platform's own tables are declared here; every module adds
 * its tables in its `<module>.tables.ts` (a `declare module` block that extends this interface), so a
 * new module declares its tables in its own folder and nothing here changes.
 */
export interface Database {
  system_state: SystemStateTable;
  counter: CounterTable;
  rate_limit: RateLimitTable;
  job: JobTable;
}

/** Key/value facts about the installation itself, e.g. when the demo seed ran. */
export interface SystemStateTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface CounterTable {
  name: string;
  value: number;
}

export interface RateLimitTable {
  key: string;
  window_start: number;
  count: number;
  /** Of `count`, attempts counted before their outcome was known and not settled yet (reserveRateLimit). */
  pending: Generated<number>;
}

/** A durable background job (platform/jobs): claimed with a lease, retried with backoff, kept when dead. */
export interface JobTable {
  id: string;
  name: string;
  /** JSON of the job's payload. */
  payload: string;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: string;
  lease_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: string;
  updated_at: string;
}
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'dead';
export type JobRow = Selectable<JobTable>;

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
export type DbDialect = 'sqlite' | 'postgres';

/** Which database a Kysely instance (or transaction) talks to, for the few queries each plans differently. */
export const dialectOf = (db: Db): DbDialect =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
