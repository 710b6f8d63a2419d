import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The search index and trending searches (decision 024). The index is filled by the search module
// (a rebuild runs when its version changes, so existing catalogues are indexed after this migration).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('search_name')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('field', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // Byte order, so a prefix is a range of the index on both databases.
    .addColumn('name_key', 'text', (c) => (postgres ? c.notNull().modifyFront(sql`collate "C"`) : c.notNull()))
    // The key's first character: names starting with one character, in rank order, without reading them all.
    .addColumn('head', 'text', (c) => (postgres ? c.notNull().modifyFront(sql`collate "C"`) : c.notNull()))
    .execute();
  await db.schema.createIndex('search_name_key_idx').on('search_name').columns(['name_key', 'id']).execute();
  await db.schema.createIndex('search_name_head_idx').on('search_name').columns(['head', 'id']).execute();
  await db.schema.createIndex('search_name_item_idx').on('search_name').columns(['kind', 'item_id']).execute();
  if (postgres) {
    await sql`alter table search_name add column tokens tsvector not null`.execute(db);
    await sql`create index search_name_tokens_idx on search_name using gin (tokens)`.execute(db);
  } else {
    await sql`create virtual table search_fts using fts5(tokens, content='', contentless_delete=1, detail=none, prefix='1 2 3', tokenize='unicode61 remove_diacritics 0')`.execute(
      db,
    );
  }

  await db.schema
    .createTable('search_query')
    .addColumn('keyword_key', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_query_pk', ['keyword_key', 'actor', 'hour'])
    .execute();
  await db.schema.createIndex('search_query_hour_idx').on('search_query').column('hour').execute();
  await db.schema
    .createTable('search_trend')
    .addColumn('keyword_key', 'text', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('keyword', 'text', (c) => c.notNull())
    .addColumn('searchers', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_trend_pk', ['keyword_key', 'hour'])
    .execute();
  await db.schema.createIndex('search_trend_hour_idx').on('search_trend').columns(['hour', 'keyword_key']).execute();
  await db.schema
    .createTable('search_block')
    .addColumn('keyword_key', 'text', (c) => c.primaryKey())
    .addColumn('keyword', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('search_state')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of ['search_state', 'search_block', 'search_trend', 'search_query', 'search_name']) {
    await db.schema.dropTable(table).execute();
  }
  if (!postgres) await sql`drop table search_fts`.execute(db);
}
