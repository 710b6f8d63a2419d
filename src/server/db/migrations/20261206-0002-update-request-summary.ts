import type { Kysely } from 'kysely';

// Lists of update requests (the review queue, a member's own, the creator home) show each request's
// title and the names of the fields it changes. Those lived only inside the request's document and its
// field-by-field changes, which a game with many downloads makes tens of kilobytes each: every list
// page read and parsed them all. They get columns of their own, filled in for the requests there are.
//
// Opening an item's editor looks for the viewer's own open request on it. By the item alone that reads
// every request waiting on the item (thousands on a popular game); by the member and the item it is one
// index probe.

const BATCH = 500;

/** The title a list shows for a proposed document (as the request service writes it). */
function titleOf(type: string, doc: Record<string, unknown>): string {
  const text = (key: string) => (typeof doc[key] === 'string' ? (doc[key] as string) : '');
  if (type === 'galgame') return text('titleZh') || text('title');
  if (type === 'volume') return text('titleZh') || text('title') || `#${String(doc.number ?? '')}`;
  return text('nameZh') || text('name');
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('update_request')
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('update_request')
    .addColumn('fields', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  let after = 0;
  for (;;) {
    const rows = (await db
      .selectFrom('update_request')
      .select(['id', 'item_type', 'doc', 'changes'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute()) as { id: number; item_type: string; doc: string; changes: string }[];
    if (rows.length === 0) break;
    for (const row of rows) {
      const doc = parse(row.doc);
      const changes = parse(row.changes);
      await db
        .updateTable('update_request')
        .set({
          title: doc && typeof doc === 'object' ? titleOf(row.item_type, doc as Record<string, unknown>) : '',
          fields: JSON.stringify(
            Array.isArray(changes) ? changes.map((c) => String((c as { field?: unknown }).field ?? '')) : [],
          ),
        })
        .where('id', '=', row.id)
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
  await db.schema
    .createIndex('update_request_own_idx')
    .on('update_request')
    .columns(['user_id', 'item_type', 'item_id', 'status'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('update_request_own_idx').execute();
  await db.schema.alterTable('update_request').dropColumn('fields').execute();
  await db.schema.alterTable('update_request').dropColumn('title').execute();
}
