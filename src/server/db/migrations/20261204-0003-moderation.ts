import type { Kysely } from 'kysely';

// The creator centre: moderation (issue 18 §6). A ban keeps its reason and its end on the account
// (`banned_until` null: for good); the housekeeping job lifts a time ban once its end has passed, so it
// looks for bans by end. Hidden posts, articles and comments are a status ('hidden'), not columns.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('ban_reason', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('users').addColumn('banned_until', 'text').execute();
  await db.schema.createIndex('users_banned_until_idx').on('users').column('banned_until').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_banned_until_idx').execute();
  await db.schema.alterTable('users').dropColumn('banned_until').execute();
  await db.schema.alterTable('users').dropColumn('ban_reason').execute();
}
