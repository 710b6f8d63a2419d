import type { CreateTableBuilder, Kysely } from 'kysely';

// The community (docs/decisions/018-community.md): sections, topics, follows, posts, articles, and the
// topics and works they name. Counts (followers, posts, articles, topic uses, a user's posts and
// articles) are columns moved in the transaction that changes what they count. Posts and articles are
// deleted softly (status 'deleted'); their rows go with their author's account.

const COUNTERS = ['section_id', 'topic_id', 'post_id', 'article_id'];

/** Columns posts and articles share. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
function contentColumns<T extends string>(table: CreateTableBuilder<T, any>) {
  return table
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('section_id', 'integer', (c) => c.references('section.id'))
    .addColumn('status', 'text', (c) => c.notNull()) // draft | published | deleted
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('topic_names', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favorite_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('published_at', 'text')
    .addColumn('edited_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull());
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('counter')
    .values(COUNTERS.map((name) => ({ name, value: 0 })))
    .execute();

  await db.schema
    .createTable('section')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('follower_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('article_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('section_order_idx').on('section').columns(['sort_order', 'id']).execute();

  await db.schema
    .createTable('topic')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('follower_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('use_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('topic_active_idx').on('topic').columns(['last_used_at', 'use_count']).execute();
  await db.schema.createIndex('topic_popular_idx').on('topic').columns(['follower_count', 'use_count']).execute();

  await db.schema
    .createTable('community_follow')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull()) // section | topic
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('community_follow_pk', ['user_id', 'target_type', 'target_id'])
    .execute();
  await db.schema
    .createIndex('community_follow_target_idx')
    .on('community_follow')
    .columns(['target_type', 'target_id'])
    .execute();

  await contentColumns(db.schema.createTable('post'))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await contentColumns(db.schema.createTable('article'))
    .addColumn('slug', 'text', (c) => c.unique())
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_review', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('review_work_type', 'text')
    .addColumn('review_work_id', 'integer')
    .addColumn('rating_id', 'integer', (c) => c.references('rating.id').onDelete('set null'))
    .execute();

  // The lists: a section's feed (pinned first), the whole feed, featured, an author's drafts and
  // published items, and the review linked to a rating.
  for (const table of ['post', 'article']) {
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(`${table}_${name}_idx`).on(table).columns(columns).execute();
    await index('section', ['section_id', 'status', 'published_at']);
    await index('section_pinned', ['section_id', 'status', 'pinned', 'published_at']);
    await index('published', ['status', 'published_at']);
    await index('featured', ['status', 'featured', 'published_at']);
    await index('user_updated', ['user_id', 'status', 'updated_at']);
    await index('user_published', ['user_id', 'status', 'published_at']);
  }
  await db.schema.createIndex('article_rating_idx').on('article').column('rating_id').execute();

  await db.schema
    .createTable('content_topic')
    .addColumn('content_type', 'text', (c) => c.notNull()) // post | article
    .addColumn('content_id', 'integer', (c) => c.notNull())
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topic.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('content_topic_pk', ['content_type', 'content_id', 'topic_id'])
    .execute();
  await db.schema
    .createIndex('content_topic_topic_idx')
    .on('content_topic')
    .columns(['topic_id', 'content_type', 'content_id'])
    .execute();

  await db.schema
    .createTable('content_work')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content_id', 'integer', (c) => c.notNull())
    .addColumn('work_type', 'text', (c) => c.notNull()) // galgame | lightnovel
    .addColumn('work_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('content_work_pk', ['content_type', 'content_id', 'work_type', 'work_id'])
    .execute();
  await db.schema
    .createIndex('content_work_work_idx')
    .on('content_work')
    .columns(['work_type', 'work_id', 'content_type', 'content_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['content_work', 'content_topic', 'article', 'post', 'community_follow', 'topic', 'section'])
    await db.schema.dropTable(table).execute();
  await db.deleteFrom('counter').where('name', 'in', COUNTERS).execute();
}
