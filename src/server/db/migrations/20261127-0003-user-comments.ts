import type { Kysely } from 'kysely';

// A member's comments (their space's comment tab and its count, decision 022) are their visible ones,
// newest first: the member's comment index starts with the status, so both read only those entries.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('comment_user_status_idx')
    .on('comment')
    .columns(['user_id', 'status', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('comment_user_idx').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('comment_user_idx').on('comment').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.dropIndex('comment_user_status_idx').execute();
}
