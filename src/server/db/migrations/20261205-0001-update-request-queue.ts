import type { Kysely } from 'kysely';

// The review queue (/create/update-request/audits) lists requests of one status oldest first: an index
// in that order reads one page of rows instead of sorting every waiting request with its documents.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('update_request_queue_idx')
    .on('update_request')
    .columns(['status', 'updated_at', 'id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('update_request_queue_idx').execute();
}
