import type { Kysely } from 'kysely';

// A member's space (issue 13, decision 022): its activity feed reads a member's favourites newest first
// whatever their type, and its ratings tab keeps one play status, both from an index in that order. Its
// logins list names each login's browser and system: a login keeps the user agent it began with.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('favorite_user_time_idx').on('favorite').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createIndex('rating_user_status_idx')
    .on('rating')
    .columns(['user_id', 'play_status', 'updated_at'])
    .execute();
  await db.schema.alterTable('refresh_family').addColumn('user_agent', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_family').dropColumn('user_agent').execute();
  await db.schema.dropIndex('rating_user_status_idx').execute();
  await db.schema.dropIndex('favorite_user_time_idx').execute();
}
