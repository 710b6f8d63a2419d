import type { Kysely } from 'kysely';

// Emoji sets, every name each set answers to (current and earlier ones), and their emojis. Names are
// unique as the database compares text (case-sensitive on both): a set's names site-wide through the
// alias table's key, an emoji's name within its set. Sets outlive their creator (created_by set null).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('counter')
    .values([
      { name: 'emoji_set_id', value: 0 },
      { name: 'emoji_id', value: 0 },
    ])
    .execute();

  await db.schema
    .createTable('emoji_set')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('emoji_set_position_idx').on('emoji_set').columns(['position', 'id']).execute();
  await db.schema.createIndex('emoji_set_created_by_idx').on('emoji_set').column('created_by').execute();

  await db.schema
    .createTable('emoji_set_alias')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('emoji_set_id', 'integer', (c) => c.notNull().references('emoji_set.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('emoji_set_alias_set_idx').on('emoji_set_alias').column('emoji_set_id').execute();

  await db.schema
    .createTable('emoji')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('emoji_set_id', 'integer', (c) => c.notNull().references('emoji_set.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('emoji_set_name_unique', ['emoji_set_id', 'name'])
    .execute();
  await db.schema.createIndex('emoji_set_order_idx').on('emoji').columns(['emoji_set_id', 'position']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['emoji', 'emoji_set_alias', 'emoji_set']) await db.schema.dropTable(table).execute();
  await db.deleteFrom('counter').where('name', 'in', ['emoji_set_id', 'emoji_id']).execute();
}
