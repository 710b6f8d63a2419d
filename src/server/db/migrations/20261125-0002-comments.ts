import { sql, type Kysely } from 'kysely';

// Comments, likes and reports (decision 018), and the comment counts of the catalogue entries that can
// be commented on. Comments are soft-deleted (status), so rows only go with their author's account:
// replies go with their root, an answered comment leaves parent_id empty. Likes have no id of their own:
// the primary key is the one-like-per-user-and-item rule. At most one open report per user and item,
// and one pinned root per target, are unique partial indexes (both databases have them).

const COUNTED = ['galgame', 'person', 'character', 'producer'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('counter')
    .values([
      { name: 'comment_id', value: 0 },
      { name: 'report_id', value: 0 },
    ])
    .execute();

  for (const table of COUNTED) {
    await db.schema
      .alterTable(table)
      .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  await db.schema
    .createTable('comment')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('root_id', 'integer', (c) => c.references('comment.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.references('comment.id').onDelete('set null'))
    .addColumn('reply_to_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('visible'))
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  // A target's roots, newest first and hot first, the pinned one ahead of both.
  await db.schema
    .createIndex('comment_root_new_idx')
    .on('comment')
    .columns(['target_type', 'target_id', 'pinned', 'created_at', 'id'])
    .where(sql.ref('root_id'), 'is', null)
    .execute();
  await db.schema
    .createIndex('comment_root_hot_idx')
    .on('comment')
    .columns(['target_type', 'target_id', 'pinned', 'like_count', 'reply_count', 'created_at', 'id'])
    .where(sql.ref('root_id'), 'is', null)
    .execute();
  await db.schema
    .createIndex('comment_pinned_unique')
    .on('comment')
    .columns(['target_type', 'target_id'])
    .unique()
    .where(sql<boolean>`pinned = 1`)
    .execute();
  // A root's replies, oldest first; a user's comments, newest first.
  await db.schema.createIndex('comment_replies_idx').on('comment').columns(['root_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('comment_user_idx').on('comment').columns(['user_id', 'created_at', 'id']).execute();
  // Foreign keys that removals follow.
  await db.schema.createIndex('comment_parent_idx').on('comment').column('parent_id').execute();
  await db.schema.createIndex('comment_reply_to_idx').on('comment').column('reply_to_user_id').execute();

  await db.schema
    .createTable('reaction_like')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reaction_like_pk', ['user_id', 'target_type', 'target_id'])
    .execute();
  await db.schema
    .createIndex('reaction_like_target_idx')
    .on('reaction_like')
    .columns(['target_type', 'target_id'])
    .execute();

  await db.schema
    .createTable('report')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolved_at', 'text')
    .execute();
  await db.schema
    .createIndex('report_open_unique')
    .on('report')
    .columns(['user_id', 'target_type', 'target_id'])
    .unique()
    .where(sql<boolean>`status = 'open'`)
    .execute();
  // The moderation queue by status, newest first; an item's reports.
  await db.schema.createIndex('report_status_idx').on('report').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('report_target_idx').on('report').columns(['target_type', 'target_id']).execute();
  await db.schema.createIndex('report_resolved_by_idx').on('report').column('resolved_by').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['report', 'reaction_like', 'comment']) await db.schema.dropTable(table).execute();
  for (const table of COUNTED) await db.schema.alterTable(table).dropColumn('comment_count').execute();
  await db.deleteFrom('counter').where('name', 'in', ['comment_id', 'report_id']).execute();
}
