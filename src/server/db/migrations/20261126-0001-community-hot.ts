import { sql, type Kysely } from 'kysely';

// The hot order of the community feed (decision 018): published posts and articles by likes +
// 2 × comments + 2 × favourites, then newest. Each table's older rows are read in that order from
// this index instead of being sorted whole. The expression is written exactly as the feed's query
// writes it (feed.service.ts `hotScore`): a database uses an expression index only for the same
// expression, so a change of the weights needs a new index.

const TABLES = ['post', 'article'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`create index ${sql.id(`${table}_hot_idx`)} on ${sql.table(table)} (status, (like_count + 2 * comment_count + 2 * favorite_count), published_at)`.execute(
      db,
    );
  }
  // Statistics gathered before this index say nothing of it, and SQLite's planner then misjudges it
  // against the indexes it has numbers for: gather them again for these two tables (both databases).
  for (const table of TABLES) await sql`analyze ${sql.table(table)}`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.dropIndex(`${table}_hot_idx`).execute();
}
