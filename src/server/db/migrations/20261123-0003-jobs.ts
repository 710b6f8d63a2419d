import { sql, type Kysely } from 'kysely';

// The durable job queue (src/server/platform/jobs). Times are ISO-8601 UTC text like every other table;
// all of them come from toISOString(), so text order is time order in both databases.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // queued → running → done; or failed (waiting for a retry) → running …; or dead after the last attempt.
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // The claim query: waiting jobs that are due, and running jobs whose lease ran out.
  await db.schema.createIndex('job_due_idx').on('job').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('job_lease_idx').on('job').columns(['status', 'lease_until']).execute();
  // At most one waiting job per name and dedupe key; finished and running jobs do not count.
  await db.schema
    .createIndex('job_dedupe_key')
    .on('job')
    .columns(['name', 'dedupe_key'])
    .unique()
    .where(sql.ref('dedupe_key'), 'is not', null)
    .where(sql<boolean>`status in ('queued', 'failed')`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job').execute();
}
