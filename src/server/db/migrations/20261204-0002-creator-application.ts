import { sql, type Kysely } from 'kysely';

// The creator centre: creator applications (spec §7 /user/creator-application; reason, images, status
// and rejection reason). A member has at most one pending application: a unique partial index, so of
// two submits at once on either database exactly one is stored.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('counter').values({ name: 'creator_application_id', value: 0 }).execute();

  await db.schema
    .createTable('creator_application')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]')) // JSON string[]: our image-bed addresses
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending')) // ApplicationStatus
    .addColumn('rejection_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reviewer_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('creator_application_pending_uq')
    .on('creator_application')
    .column('user_id')
    .unique()
    .where(sql<boolean>`status = 'pending'`)
    .execute();
  // A member's applications, newest first; the review queue by status; the applications a reviewer decided.
  await db.schema
    .createIndex('creator_application_user_idx')
    .on('creator_application')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('creator_application_status_idx')
    .on('creator_application')
    .columns(['status', 'id'])
    .execute();
  await db.schema
    .createIndex('creator_application_reviewer_idx')
    .on('creator_application')
    .column('reviewer_id')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('creator_application').execute();
  await db.deleteFrom('counter').where('name', '=', 'creator_application_id').execute();
}
