import type { Kysely } from 'kysely';

// The Galgame catalogue: games, producers, persons, characters, tags and their links; downloads with
// reportable links; favourites; ratings. Ids of entries are integers made in app code (counter table),
// JSON lists are text, flags are 0/1.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('counter')
    .values(
      ['galgame', 'producer', 'person', 'character', 'tag', 'download', 'download_link', 'rating', 'favorite'].map(
        (name) => ({ name: `${name}_id`, value: 0 }),
      ),
    )
    .execute();

  await db.schema
    .createTable('galgame')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull()) // original title
    .addColumn('title_zh', 'text', (c) => c.notNull().defaultTo('')) // translated (Chinese) title
    .addColumn('aliases', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('intro', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('release_date', 'text') // YYYY-MM-DD; null = TBD
    .addColumn('release_year', 'integer')
    .addColumn('prices', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('nsfw', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favorite_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    // Average ×100 as an integer, kept with the counts so lists can sort by it through an index.
    .addColumn('rating_avg', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('score_hist', 'text', (c) => c.notNull().defaultTo('[0,0,0,0,0,0,0,0,0,0]'))
    .addColumn('bangumi_id', 'integer', (c) => c.unique())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const [name, columns] of [
    ['galgame_list_date_idx', ['status', 'release_date', 'id']],
    ['galgame_list_rating_idx', ['status', 'rating_avg', 'id']],
    ['galgame_list_views_idx', ['status', 'view_count', 'id']],
    ['galgame_year_idx', ['status', 'release_year', 'release_date']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('galgame')
      .columns([...columns])
      .execute();
  }

  await db.schema
    .createTable('galgame_platform')
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('galgame_platform_pk', ['platform', 'galgame_id'])
    .execute();
  await db.schema.createIndex('galgame_platform_game_idx').on('galgame_platform').column('galgame_id').execute();

  await db.schema
    .createTable('tag')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('name_zh', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('content'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('game_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('galgame_tag')
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tag.id').onDelete('cascade'))
    .addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('spoiler', 'integer', (c) => c.notNull().defaultTo(0)) // 0 none, 1 minor, 2 major
    .addPrimaryKeyConstraint('galgame_tag_pk', ['tag_id', 'galgame_id'])
    .execute();
  await db.schema.createIndex('galgame_tag_game_idx').on('galgame_tag').column('galgame_id').execute();

  const entity = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull()) // original name
      .addColumn('name_zh', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('aliases', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('image', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('bangumi_id', 'integer', (c) => c.unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull());

  await entity('producer')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('company')) // company | individual | amateur
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await entity('person')
    .addColumn('gender', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('birthday', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await entity('character')
    .addColumn('gender', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('birthday', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('galgame_producer')
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('producer_id', 'integer', (c) => c.notNull().references('producer.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull()) // developer | publisher
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('galgame_producer_pk', ['galgame_id', 'producer_id', 'role'])
    .execute();
  await db.schema.createIndex('galgame_producer_producer_idx').on('galgame_producer').column('producer_id').execute();

  await db.schema
    .createTable('galgame_staff')
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('person.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull()) // scenario | art | music | director | character_design | voice | other
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('galgame_staff_pk', ['galgame_id', 'person_id', 'role'])
    .execute();
  await db.schema.createIndex('galgame_staff_person_idx').on('galgame_staff').column('person_id').execute();

  await db.schema
    .createTable('galgame_character')
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('character_id', 'integer', (c) => c.notNull().references('character.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull()) // main | supporting | appears
    .addColumn('voice_person_id', 'integer', (c) => c.references('person.id').onDelete('set null'))
    .addPrimaryKeyConstraint('galgame_character_pk', ['galgame_id', 'character_id'])
    .execute();
  await db.schema
    .createIndex('galgame_character_character_idx')
    .on('galgame_character')
    .column('character_id')
    .execute();

  await db.schema
    .createTable('galgame_relation')
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('related_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('relation', 'text', (c) => c.notNull()) // sequel | prequel | fandisc | same_series | other
    .addPrimaryKeyConstraint('galgame_relation_pk', ['galgame_id', 'related_id'])
    .execute();

  await db.schema
    .createTable('galgame_download')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull()) // zh-Hans | zh-Hant | ja | en
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('translation_type', 'text', (c) => c.notNull()) // official | fan | machine | ai | none
    .addColumn('translation_group', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('size_bytes', 'bigint')
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('galgame_download_game_idx').on('galgame_download').column('galgame_id').execute();
  await db.schema
    .createIndex('galgame_download_type_idx')
    .on('galgame_download')
    .columns(['translation_type', 'galgame_id'])
    .execute();

  await db.schema
    .createTable('download_link')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('download_id', 'integer', (c) => c.notNull().references('galgame_download.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('report_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('download_link_download_idx').on('download_link').column('download_id').execute();

  await db.schema
    .createTable('link_report')
    .addColumn('link_id', 'integer', (c) => c.notNull().references('download_link.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_report_pk', ['link_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('favorite')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('favorite_unique', ['user_id', 'item_type', 'item_id'])
    .execute();
  await db.schema
    .createIndex('favorite_user_idx')
    .on('favorite')
    .columns(['user_id', 'item_type', 'created_at'])
    .execute();

  await db.schema
    .createTable('rating')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id').onDelete('cascade'))
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('play_status', 'text', (c) => c.notNull()) // playing | completed | on_hold | dropped | plan
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('spoiler', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('rating_unique', ['galgame_id', 'user_id'])
    .execute();
  await db.schema.createIndex('rating_user_idx').on('rating').columns(['user_id', 'updated_at']).execute();
  await db.schema.createIndex('rating_game_idx').on('rating').columns(['galgame_id', 'updated_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'rating',
    'favorite',
    'link_report',
    'download_link',
    'galgame_download',
    'galgame_relation',
    'galgame_character',
    'galgame_staff',
    'galgame_producer',
    'character',
    'person',
    'producer',
    'galgame_tag',
    'tag',
    'galgame_platform',
    'galgame',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.deleteFrom('counter').where('name', '!=', 'user_id').execute();
}
