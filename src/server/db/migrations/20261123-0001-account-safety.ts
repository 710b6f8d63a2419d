import type { Kysely } from 'kysely';
import { nameSkeleton } from '../../modules/users/name-skeleton.ts';

// One-time codes remember the account they were issued for; names get a confusable skeleton that is
// unique; each account remembers (hashed) the addresses it has logged in from, for the login limits.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  // The account a code belongs to (reset_password, change_email); null for register codes.
  await db.schema
    .alterTable('one_time_code')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('name_skeleton', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const users: { id: string; name: string }[] = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .orderBy('user_id')
    .execute();
  const seen = new Set<string>();
  for (const user of users) {
    const skeleton = nameSkeleton(user.name);
    // Names that already look alike keep working: the oldest keeps the skeleton, later ones get a
    // skeleton of their own (so the index holds), and new look-alikes of either are refused.
    const value = seen.has(skeleton) ? `${skeleton}#${user.id}` : skeleton;
    seen.add(skeleton);
    await db.updateTable('users').set({ name_skeleton: value }).where('id', '=', user.id).execute();
  }
  await db.schema.createIndex('users_name_skeleton_key').on('users').column('name_skeleton').unique().execute();

  // Addresses (keyed hashes, never the address itself) an account has logged in from.
  await db.schema
    .createTable('login_known_address')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_known_address_pk', ['user_id', 'address_hash'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_known_address').execute();
  await db.schema.dropIndex('users_name_skeleton_key').execute();
  await db.schema.alterTable('users').dropColumn('name_skeleton').execute();
  await db.schema.alterTable('one_time_code').dropColumn('user_id').execute();
}
