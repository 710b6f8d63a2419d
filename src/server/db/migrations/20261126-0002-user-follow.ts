import type { Kysely } from 'kysely';

// Members following members (issue 13, spec §7 /user/follow). One row per follower and followed
// member, its primary key the one-follow rule; the users' follower and following counts move with
// the rows in the same transaction. Both lists read newest first.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_follow')
    .addColumn('follower_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followee_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_follow_pk', ['follower_id', 'followee_id'])
    .execute();
  await db.schema
    .createIndex('user_follow_follower_idx')
    .on('user_follow')
    .columns(['follower_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('user_follow_followee_idx')
    .on('user_follow')
    .columns(['followee_id', 'created_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_follow').execute();
}
