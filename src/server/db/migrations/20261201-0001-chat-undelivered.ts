import { sql, type Kysely } from 'kysely';

// Private messages still waiting for their receiver's first open socket (issue 16): when a socket opens,
// the newest of them are marked delivered. A partial index holds only those, so the lookup does not walk
// every message the member ever received.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('private_message_undelivered_idx')
    .on('private_message')
    .columns(['receiver_id', 'id'])
    .where(sql.ref('delivered_at'), 'is', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('private_message_undelivered_idx').execute();
}
