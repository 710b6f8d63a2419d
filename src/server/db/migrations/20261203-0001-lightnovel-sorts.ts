import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Two more sorts of /lightnovel/list read an index: by favourites, and by latest volume on PostgreSQL,
// whose `DESC NULLS LAST` order an ascending index with nulls last cannot serve (SQLite puts nulls first
// in ascending order, so its index read backwards already gives that order).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('lightnovel_favorites_idx')
    .on('lightnovel')
    .columns(['status', 'favorite_count', 'id'])
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create index lightnovel_latest_desc_idx on lightnovel (status, latest_volume_date desc nulls last, id desc)`.execute(
      db,
    );
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.dropIndex('lightnovel_latest_desc_idx').execute();
  }
  await db.schema.dropIndex('lightnovel_favorites_idx').execute();
}
