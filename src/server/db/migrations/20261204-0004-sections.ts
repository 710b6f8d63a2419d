import type { Kysely } from 'kysely';

// The creator centre: section management. Section moderators are members appointed by editors and above;
// they pin, feature and delete posts and articles of their sections only. A moderator goes with their
// account; who appointed them is kept while that account exists. A topic merged into another leaves its
// name behind as an alias, so members who write the old name later reach the topic it went into.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('section_moderator')
    .addColumn('section_id', 'integer', (c) => c.notNull().references('section.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('appointed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('section_moderator_pk', ['section_id', 'user_id'])
    .execute();
  await db.schema.createIndex('section_moderator_user_idx').on('section_moderator').column('user_id').execute();

  await db.schema
    .createTable('topic_alias')
    .addColumn('name_key', 'text', (c) => c.primaryKey())
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topic.id').onDelete('cascade'))
    // The id the merged topic had, so its old address can lead to the topic it went into.
    .addColumn('merged_id', 'integer', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('topic_alias_topic_idx').on('topic_alias').column('topic_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('topic_alias').execute();
  await db.schema.dropTable('section_moderator').execute();
}
