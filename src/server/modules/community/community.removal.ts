import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface RemovedCommunityContent {
  posts: number;
  articles: number;
  follows: number;
}

const chunks = <T>(list: readonly T[], size = 500): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/**
 * Removes a user's posts, articles and follows, inside the removal's transaction, and recounts what they
 * counted in: the sections' post, article and follower counts and the topics' use and follower counts.
 * Favourites and likes others gave these posts and articles go with them. Locks are taken in the order the
 * community's writes take them (the items, the author, sections by id, topics by id).
 */
export async function removeCommunityContent(trx: Db, userId: string): Promise<RemovedCommunityContent> {
  await trx
    .updateTable('post')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('user_id', '=', userId)
    .execute();
  await trx
    .updateTable('article')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('user_id', '=', userId)
    .execute();
  await trx
    .updateTable('users')
    .set((eb) => ({ post_count: eb.ref('post_count') }))
    .where('id', '=', userId)
    .execute();

  const [posts, articles, follows] = await Promise.all([
    trx.selectFrom('post').select(['id', 'section_id']).where('user_id', '=', userId).execute(),
    trx.selectFrom('article').select(['id', 'section_id']).where('user_id', '=', userId).execute(),
    trx.selectFrom('community_follow').select(['target_type', 'target_id']).where('user_id', '=', userId).execute(),
  ]);
  const postIds = posts.map((row) => row.id);
  const articleIds = articles.map((row) => row.id);
  const topicRows = [
    ...(
      await Promise.all(
        chunks(postIds).map((ids) =>
          trx
            .selectFrom('content_topic')
            .select('topic_id')
            .where('content_type', '=', 'post')
            .where('content_id', 'in', ids)
            .execute(),
        ),
      )
    ).flat(),
    ...(
      await Promise.all(
        chunks(articleIds).map((ids) =>
          trx
            .selectFrom('content_topic')
            .select('topic_id')
            .where('content_type', '=', 'article')
            .where('content_id', 'in', ids)
            .execute(),
        ),
      )
    ).flat(),
  ];
  const sorted = (ids: Iterable<number | null>) =>
    [...new Set([...ids].filter((id): id is number => id !== null))].sort((a, b) => a - b);
  const sections = sorted([
    ...posts.map((row) => row.section_id),
    ...articles.map((row) => row.section_id),
    ...follows.filter((f) => f.target_type === 'section').map((f) => f.target_id),
  ]);
  const topics = sorted([
    ...topicRows.map((row) => row.topic_id),
    ...follows.filter((f) => f.target_type === 'topic').map((f) => f.target_id),
  ]);
  for (const ids of chunks(sections))
    await trx
      .updateTable('section')
      .set((eb) => ({ post_count: eb.ref('post_count') }))
      .where('id', 'in', ids)
      .execute();
  for (const ids of chunks(topics))
    await trx
      .updateTable('topic')
      .set((eb) => ({ use_count: eb.ref('use_count') }))
      .where('id', 'in', ids)
      .execute();

  for (const [type, ids] of [
    ['post', postIds],
    ['article', articleIds],
  ] as const) {
    for (const part of chunks(ids)) {
      await trx.deleteFrom('content_topic').where('content_type', '=', type).where('content_id', 'in', part).execute();
      await trx.deleteFrom('content_work').where('content_type', '=', type).where('content_id', 'in', part).execute();
      await trx.deleteFrom('favorite').where('item_type', '=', type).where('item_id', 'in', part).execute();
      await trx.deleteFrom('reaction_like').where('target_type', '=', type).where('target_id', 'in', part).execute();
      await trx.deleteFrom(type).where('id', 'in', part).execute();
    }
  }
  await trx.deleteFrom('community_follow').where('user_id', '=', userId).execute();

  for (const ids of chunks(sections))
    await sql`update section set
        post_count = (select count(*) from post where post.section_id = section.id and post.status = 'published'),
        article_count = (select count(*) from article where article.section_id = section.id and article.status = 'published'),
        follower_count = (select count(*) from community_follow f where f.target_type = 'section' and f.target_id = section.id)
      where id in (${sql.join(ids)})`.execute(trx);
  for (const ids of chunks(topics))
    await sql`update topic set
        use_count = (select count(*) from content_topic ct where ct.topic_id = topic.id),
        follower_count = (select count(*) from community_follow f where f.target_type = 'topic' and f.target_id = topic.id)
      where id in (${sql.join(ids)})`.execute(trx);
  return { posts: postIds.length, articles: articleIds.length, follows: follows.length };
}
