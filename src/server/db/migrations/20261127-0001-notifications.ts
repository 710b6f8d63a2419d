import type { Kysely } from 'kysely';

// Notifications (issue 13, decision 021): one row per recipient and event, or per group of likes or
// follows while it is unread. `group_key` names what a row is about (`like:post:12`, `follow`,
// `comment:345`); `open_key` repeats it while a group may still grow (unread likes and follows) and
// for the one-off kinds for good, so a unique (user_id, open_key) makes every write idempotent; marking
// a group read clears its open_key, and the next like opens a new group. Announcements reached every
// member once: `announcement.notified_at` says which were handed out.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('group_key', 'text', (c) => c.notNull())
    .addColumn('open_key', 'text')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'integer')
    .addColumn('comment_id', 'integer')
    .addColumn('action', 'text')
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('announcement_id', 'text')
    // Latest actors first (JSON array of account ids, at most 3) and how many there are.
    .addColumn('actor_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('actor_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('mailed_at', 'text')
    .execute();
  await db.schema
    .createIndex('notification_open_key')
    .on('notification')
    .columns(['user_id', 'open_key'])
    .unique()
    .execute();
  // The list (newest first) and the unread count.
  await db.schema
    .createIndex('notification_list_idx')
    .on('notification')
    .columns(['user_id', 'updated_at', 'id'])
    .execute();
  await db.schema.createIndex('notification_unread_idx').on('notification').columns(['user_id', 'read_at']).execute();
  await db.schema.createIndex('notification_group_idx').on('notification').columns(['user_id', 'group_key']).execute();
  // Digests: unread rows of members not mailed since their last change.
  await db.schema.createIndex('notification_digest_idx').on('notification').columns(['read_at', 'mailed_at']).execute();
  await db.schema.alterTable('announcement').addColumn('notified_at', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('announcement').dropColumn('notified_at').execute();
  await db.schema.dropTable('notification').execute();
}
