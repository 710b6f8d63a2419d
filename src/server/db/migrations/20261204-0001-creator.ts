import type { Kysely } from 'kysely';

// The creator centre (issue 18, decision 028): every saved version of a catalogue item or entity
// (`catalogue_revision`, numbered per item), the edits members propose for review (`update_request`),
// and the audit log of staff actions.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('counter')
    .values(['revision', 'update_request', 'audit_log'].map((name) => ({ name: `${name}_id`, value: 0 })))
    .execute();

  await db.schema
    .createTable('catalogue_revision')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('item_type', 'text', (c) => c.notNull()) // EditType
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull()) // 1, 2, … per item
    .addColumn('doc', 'text', (c) => c.notNull()) // JSON of the item's document after this revision
    .addColumn('changes', 'text', (c) => c.notNull().defaultTo('[]')) // JSON string[]: the fields it changed
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null')) // null: the system or a removed account
    .addColumn('request_id', 'integer') // the update request it applied, if any
    .addColumn('restored_from', 'integer') // the revision number it restored, if any
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('catalogue_revision_item_number_uq', ['item_type', 'item_id', 'number'])
    .execute();
  await db.schema.createIndex('catalogue_revision_user_idx').on('catalogue_revision').columns(['user_id']).execute();

  await db.schema
    .createTable('update_request')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('item_type', 'text', (c) => c.notNull()) // EditType
    .addColumn('item_id', 'integer') // null: a proposed new item (set when it is approved)
    .addColumn('base_revision', 'integer', (c) => c.notNull().defaultTo(0)) // the revision it was made against; 0 for a new item
    .addColumn('doc', 'text', (c) => c.notNull()) // JSON of the proposed document
    .addColumn('changes', 'text', (c) => c.notNull().defaultTo('[]')) // JSON FieldChange[] against the base
    .addColumn('note', 'text', (c) => c.notNull().defaultTo('')) // the requester's explanation
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending')) // RequestStatus
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reviewer_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('review_note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reviewed_at', 'text')
    .addColumn('applied_revision', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('update_request_status_idx').on('update_request').columns(['status', 'id']).execute();
  await db.schema.createIndex('update_request_user_idx').on('update_request').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('update_request_item_idx')
    .on('update_request')
    .columns(['item_type', 'item_id', 'status'])
    .execute();
  await db.schema.createIndex('update_request_reviewer_idx').on('update_request').columns(['reviewer_id']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull()) // AuditAction
    .addColumn('target_type', 'text', (c) => c.notNull()) // user, post, article, comment, report, galgame, …
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}')) // JSON: reason, before/after, period…
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_time_idx').on('audit_log').columns(['id']).execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_type', 'target_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('update_request').execute();
  await db.schema.dropTable('catalogue_revision').execute();
  await db.deleteFrom('counter').where('name', 'in', ['revision_id', 'update_request_id', 'audit_log_id']).execute();
}
