import { sql, SqliteAdapter, type Kysely } from 'kysely';

// The lists of /galgame/list as facets (docs/decisions/011-fast-list-queries.md): one row per published
// game and filter value it matches ('all', 'tag:5', 'platform:switch', 'translation:fan', 'year:2010',
// 'tag:5+translation:fan'), carrying the game's sort keys and the other filters, so every list is one
// index range read in order; and the number of games of each facet, kept by the writers.
// Backfilled here from the catalogue tables, in SQL of its own (a migration must not follow later code).

// Bits of galgame_facet.platform_mask and translation_mask, as catalogue.facets.ts assigns them.
const PLATFORM_BITS: Record<string, number> = {
  windows: 1,
  mac: 2,
  linux: 4,
  android: 8,
  ios: 16,
  switch: 32,
  ps4: 64,
  ps5: 128,
  psv: 256,
  web: 512,
  other: 1024,
};
const TRANSLATION_BITS: Record<string, number> = { official: 1, fan: 2, machine: 4, ai: 8, none: 16 };

const bitOf = (column: string, bits: Record<string, number>) =>
  sql.raw(
    `case ${column} ${Object.entries(bits)
      .map(([value, bit]) => `when '${value}' then ${bit}`)
      .join(' ')} else 0 end`,
  );

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  let table = db.schema
    .createTable('galgame_facet')
    .addColumn('facet', 'text', (c) => c.notNull())
    // No cascade: a game leaves its facets through the writers, which also keep the counts.
    .addColumn('galgame_id', 'integer', (c) => c.notNull().references('galgame.id'))
    .addColumn('nsfw', 'integer', (c) => c.notNull())
    .addColumn('release_key', 'integer', (c) => c.notNull()) // YYYYMMDD; 0 = TBD (sorts last)
    .addColumn('rating_avg', 'integer', (c) => c.notNull())
    .addColumn('view_count', 'integer', (c) => c.notNull())
    .addColumn('platform_mask', 'integer', (c) => c.notNull())
    .addColumn('translation_mask', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('galgame_facet_pk', ['galgame_id', 'facet']);
  // On SQLite the rows live in the primary-key tree itself (one tree fewer to write and store).
  if (sqlite) table = table.modifyEnd(sql`without rowid`);
  await table.execute();

  await db.schema
    .createTable('galgame_facet_count')
    .addColumn('facet', 'text', (c) => c.notNull())
    .addColumn('nsfw', 'integer', (c) => c.notNull())
    .addColumn('games', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('galgame_facet_count_pk', ['facet', 'nsfw'])
    .execute();

  // Backfill: the 'all' rows compute each game's keys once, the other facets copy them.
  await sql`insert into galgame_facet
      (facet, galgame_id, nsfw, release_key, rating_avg, view_count, platform_mask, translation_mask)
    select 'all', g.id, g.nsfw,
      case when g.release_date is null then 0 else cast(replace(g.release_date, '-', '') as integer) end,
      g.rating_avg, g.view_count,
      coalesce((select sum(${bitOf('p.platform', PLATFORM_BITS)}) from galgame_platform p where p.galgame_id = g.id), 0),
      coalesce((select sum(distinct ${bitOf('d.translation_type', TRANSLATION_BITS)})
        from galgame_download d where d.galgame_id = g.id), 0)
    from galgame g where g.status = 'published'`.execute(db);
  const copy = (facet: string, from: string) =>
    sql`insert into galgame_facet
        (facet, galgame_id, nsfw, release_key, rating_avg, view_count, platform_mask, translation_mask)
      select ${sql.raw(facet)}, a.galgame_id, a.nsfw, a.release_key, a.rating_avg, a.view_count,
        a.platform_mask, a.translation_mask
      from galgame_facet a ${sql.raw(from)} where a.facet = 'all'`.execute(db);
  await copy(`'tag:' || t.tag_id`, 'join galgame_tag t on t.galgame_id = a.galgame_id');
  await copy(`'platform:' || p.platform`, 'join galgame_platform p on p.galgame_id = a.galgame_id');
  await copy(
    `'translation:' || d.translation_type`,
    'join (select distinct galgame_id, translation_type from galgame_download) d on d.galgame_id = a.galgame_id',
  );
  await copy(`'year:' || g.release_year`, 'join galgame g on g.id = a.galgame_id and g.release_year is not null');
  await copy(
    `'tag:' || t.tag_id || '+translation:' || d.translation_type`,
    `join galgame_tag t on t.galgame_id = a.galgame_id
     join (select distinct galgame_id, translation_type from galgame_download) d on d.galgame_id = a.galgame_id`,
  );

  // Each sort reads one of these in order; the filters a facet does not cover are read from the index too.
  // The date index also carries the other sort keys: a year's games (a range of it) sort by them cheaply.
  for (const [name, columns] of [
    [
      'galgame_facet_date_idx',
      ['facet', 'nsfw', 'release_key', 'galgame_id', 'platform_mask', 'translation_mask', 'rating_avg', 'view_count'],
    ],
    [
      'galgame_facet_rating_idx',
      ['facet', 'nsfw', 'rating_avg', 'galgame_id', 'release_key', 'platform_mask', 'translation_mask'],
    ],
    [
      'galgame_facet_views_idx',
      ['facet', 'nsfw', 'view_count', 'galgame_id', 'release_key', 'platform_mask', 'translation_mask'],
    ],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('galgame_facet')
      .columns([...columns])
      .execute();
  }

  await sql`insert into galgame_facet_count (facet, nsfw, games)
    select facet, nsfw, count(*) from galgame_facet group by facet, nsfw`.execute(db);
  // tag.game_count (published games with the tag) is kept with the facet counts from now on.
  await sql`update tag set game_count = coalesce(
      (select sum(c.games) from galgame_facet_count c where c.facet = 'tag:' || tag.id), 0)`.execute(db);
  await db.schema.createIndex('tag_game_count_idx').on('tag').columns(['game_count', 'id']).execute();

  // The games of a producer, person or character, newest first: the game's release key on each link,
  // so a page reads its first games in order instead of sorting all of them.
  for (const table of LINK_TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('release_key', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update ${sql.table(table)} set release_key = coalesce((
        select case when g.release_date is null then 0 else cast(replace(g.release_date, '-', '') as integer) end
        from galgame g where g.id = ${sql.ref(`${table}.galgame_id`)}), 0)`.execute(db);
  }
  for (const [table, column, oldIndex] of LINK_INDEXES) {
    if (oldIndex) await db.schema.dropIndex(oldIndex).execute();
    await db.schema
      .createIndex(`${table}_${column}_release_idx`)
      .on(table)
      .columns([column, 'release_key', 'galgame_id'])
      .execute();
  }
  // The best-rated block: games with enough ratings to rank, in rating order, however few they are.
  await db.schema
    .createIndex('galgame_top_rated_idx')
    .on('galgame')
    .columns(['status', 'rating_avg', 'id'])
    .where(sql<boolean>`rating_count >= 3`)
    .execute();
  await sql`analyze galgame_facet`.execute(db);
  await sql`analyze galgame_facet_count`.execute(db);
}

const LINK_TABLES = ['galgame_producer', 'galgame_staff', 'galgame_character'] as const;
// [table, column, the index on the column alone that the new one replaces]
const LINK_INDEXES = [
  ['galgame_producer', 'producer_id', 'galgame_producer_producer_idx'],
  ['galgame_staff', 'person_id', 'galgame_staff_person_idx'],
  ['galgame_character', 'character_id', 'galgame_character_character_idx'],
  ['galgame_character', 'voice_person_id', null],
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('galgame_top_rated_idx').execute();
  for (const [table, column, oldIndex] of LINK_INDEXES) {
    await db.schema.dropIndex(`${table}_${column}_release_idx`).execute();
    if (oldIndex) await db.schema.createIndex(oldIndex).on(table).column(column).execute();
  }
  for (const table of LINK_TABLES) await db.schema.alterTable(table).dropColumn('release_key').execute();
  await db.schema.dropIndex('tag_game_count_idx').execute();
  await db.schema.dropTable('galgame_facet_count').execute();
  await db.schema.dropTable('galgame_facet').execute();
}
