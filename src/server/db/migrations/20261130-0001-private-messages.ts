import type { Kysely } from 'kysely';

// Private messages (issue 16). `private_message.id` comes from the `private_message_id` counter, so a
// conversation's messages are ordered by it and history pages by cursor (`before` an id) do not drift
// while new messages arrive. `pair_key` names the conversation (the two account ids, smaller first).
// A retried send carries the same `client_id`: unique per sender, so it is stored once.
// `chat_contact` is one row per member and conversation partner: unread count, last message, pin and
// nickname. `chat_block` lists whom a member blocked.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('private_message')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('pair_key', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('receiver_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text')
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('read_at', 'text')
    .execute();
  await db.schema.createIndex('private_message_pair_idx').on('private_message').columns(['pair_key', 'id']).execute();
  await db.schema
    .createIndex('private_message_client_idx')
    .on('private_message')
    .columns(['sender_id', 'client_id'])
    .unique()
    .execute();
  // Unread messages of a conversation, for marking them read.
  await db.schema
    .createIndex('private_message_unread_idx')
    .on('private_message')
    .columns(['receiver_id', 'sender_id', 'read_at'])
    .execute();

  await db.schema
    .createTable('chat_contact')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('contact_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('unread_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_id', 'integer')
    .addColumn('last_message_at', 'text')
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pinned_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_contact_pk', ['user_id', 'contact_id'])
    .execute();
  // The list: pinned first (highest order first), then the latest conversation first.
  await db.schema
    .createIndex('chat_contact_list_idx')
    .on('chat_contact')
    .columns(['user_id', 'pinned_order', 'last_message_id'])
    .execute();

  await db.schema
    .createTable('chat_block')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_block_pk', ['user_id', 'blocked_id'])
    .execute();

  await db.insertInto('counter').values({ name: 'private_message_id', value: 0 }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('counter').where('name', '=', 'private_message_id').execute();
  await db.schema.dropTable('chat_block').execute();
  await db.schema.dropTable('chat_contact').execute();
  await db.schema.dropTable('private_message').execute();
}
