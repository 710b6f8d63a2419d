import type { Kysely } from 'kysely';

// Light novels (issue 17): series with their volumes, their authors and illustrators (persons), their
// publishers and labels (producers); ratings of a series; and what members read: the position in each
// volume and their bookmarks. A volume's EPUB lives in storage under `epub_key`.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('counter')
    .values(['lightnovel', 'volume', 'lightnovel_rating', 'bookmark'].map((name) => ({ name: `${name}_id`, value: 0 })))
    .execute();

  await db.schema
    .createTable('lightnovel')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull()) // original name
    .addColumn('name_zh', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('aliases', 'text', (c) => c.notNull().defaultTo('[]')) // other names, JSON string[]
    .addColumn('intro', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('serial_status', 'text', (c) => c.notNull().defaultTo('serialising')) // serialising | finished | paused | abandoned
    .addColumn('nsfw', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft')) // draft | pending | published | rejected
    .addColumn('volume_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_volume_date', 'text') // release date of its newest volume, YYYY-MM-DD
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favorite_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_avg', 'integer', (c) => c.notNull().defaultTo(0)) // average ×100
    .addColumn('score_hist', 'text', (c) => c.notNull().defaultTo('[0,0,0,0,0,0,0,0,0,0]'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const [name, columns] of [
    ['lightnovel_latest_idx', ['status', 'latest_volume_date', 'id']],
    ['lightnovel_serial_idx', ['status', 'serial_status', 'latest_volume_date']],
    ['lightnovel_views_idx', ['status', 'view_count', 'id']],
    ['lightnovel_rating_idx', ['status', 'rating_avg', 'id']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('lightnovel')
      .columns([...columns])
      .execute();
  }

  await db.schema
    .createTable('lightnovel_staff')
    .addColumn('lightnovel_id', 'integer', (c) => c.notNull().references('lightnovel.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('person.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull()) // author | illustrator
    .addPrimaryKeyConstraint('lightnovel_staff_pk', ['lightnovel_id', 'person_id', 'role'])
    .execute();
  await db.schema.createIndex('lightnovel_staff_person_idx').on('lightnovel_staff').column('person_id').execute();

  await db.schema
    .createTable('lightnovel_producer')
    .addColumn('lightnovel_id', 'integer', (c) => c.notNull().references('lightnovel.id').onDelete('cascade'))
    .addColumn('producer_id', 'integer', (c) => c.notNull().references('producer.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull()) // publisher | label (bunko)
    .addPrimaryKeyConstraint('lightnovel_producer_pk', ['lightnovel_id', 'producer_id', 'role'])
    .execute();
  await db.schema
    .createIndex('lightnovel_producer_producer_idx')
    .on('lightnovel_producer')
    .columns(['producer_id', 'role'])
    .execute();

  await db.schema
    .createTable('lightnovel_volume')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('lightnovel_id', 'integer', (c) => c.notNull().references('lightnovel.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('main')) // main | extra
    .addColumn('number', 'integer', (c) => c.notNull()) // order within its kind, from 1
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title_zh', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('intro', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('isbn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('release_date', 'text') // YYYY-MM-DD
    .addColumn('pages', 'integer')
    .addColumn('price', 'text', (c) => c.notNull().defaultTo('')) // as printed: "¥616", "NT$200"
    .addColumn('epub_key', 'text', (c) => c.notNull().defaultTo('')) // storage key; '' = no EPUB
    .addColumn('epub_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('epub_meta', 'text', (c) => c.notNull().defaultTo('{}')) // JSON: language, vertical, rtl, title
    .addColumn('epub_uploaded_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('lightnovel_volume_order', ['lightnovel_id', 'kind', 'number'])
    .execute();
  await db.schema
    .createIndex('lightnovel_volume_date_idx')
    .on('lightnovel_volume')
    .columns(['release_date', 'id'])
    .execute();

  await db.schema
    .createTable('lightnovel_rating')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('lightnovel_id', 'integer', (c) => c.notNull().references('lightnovel.id').onDelete('cascade'))
    .addColumn('score', 'integer', (c) => c.notNull()) // 1…10
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('lightnovel_rating_unique', ['lightnovel_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('lightnovel_rating_novel_idx')
    .on('lightnovel_rating')
    .columns(['lightnovel_id', 'updated_at'])
    .execute();
  await db.schema.createIndex('lightnovel_rating_user_idx').on('lightnovel_rating').column('user_id').execute();

  // Where a member is in a volume: one row per member and volume, replaced as they read.
  await db.schema
    .createTable('reading_progress')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('volume_id', 'integer', (c) => c.notNull().references('lightnovel_volume.id').onDelete('cascade'))
    .addColumn('lightnovel_id', 'integer', (c) => c.notNull().references('lightnovel.id').onDelete('cascade'))
    .addColumn('cfi', 'text', (c) => c.notNull())
    .addColumn('chapter', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('percentage', 'integer', (c) => c.notNull().defaultTo(0)) // 0…10000 (hundredths of a per cent)
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reading_progress_pk', ['user_id', 'volume_id'])
    .execute();
  await db.schema
    .createIndex('reading_progress_user_idx')
    .on('reading_progress')
    .columns(['user_id', 'updated_at'])
    .execute();
  await db.schema.createIndex('reading_progress_volume_idx').on('reading_progress').column('volume_id').execute();

  await db.schema
    .createTable('reading_bookmark')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('volume_id', 'integer', (c) => c.notNull().references('lightnovel_volume.id').onDelete('cascade'))
    .addColumn('cfi', 'text', (c) => c.notNull())
    .addColumn('chapter', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('percentage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reading_bookmark_user_idx')
    .on('reading_bookmark')
    .columns(['user_id', 'volume_id'])
    .execute();
  await db.schema.createIndex('reading_bookmark_volume_idx').on('reading_bookmark').column('volume_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'reading_bookmark',
    'reading_progress',
    'lightnovel_rating',
    'lightnovel_volume',
    'lightnovel_producer',
    'lightnovel_staff',
    'lightnovel',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db
    .deleteFrom('counter')
    .where('name', 'in', ['lightnovel_id', 'volume_id', 'lightnovel_rating_id', 'bookmark_id'])
    .execute();
}
