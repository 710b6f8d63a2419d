import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { icons } from '../../../shared/icons.ts';
import { getCommunityFront } from '../../modules/community/feed.service.ts';
import { getArticleDetail } from '../../modules/community/articles.service.ts';
import { appTargets } from '../../modules/index.ts';
import { createUser } from '../../modules/users/users.service.ts';
import { demoAccounts } from './demo-content.ts';
import { seedDemoCatalogue } from './demo-catalogue.ts';
import { demoArticles, demoPosts, demoSections, demoTopics, seedDemoCommunity } from './demo-community.ts';

describe('demo community seed', () => {
  let t: TestDatabase;
  const now = new Date('2026-11-24T12:00:00.000Z');

  beforeAll(async () => {
    t = await createTestDatabase();
    for (const account of demoAccounts) await createUser(t.db, { ...account, passwordHash: 'x' }, now);
    await seedDemoCatalogue(t.db, now);
  });
  afterAll(async () => t.destroy());

  it('writes six sections, the topics, posts and articles, and adds nothing when run again', async () => {
    const first = await seedDemoCommunity(t.db, now);
    expect(first).toEqual({
      sections: 6,
      topics: demoTopics.length,
      posts: demoPosts.length,
      articles: demoArticles.length,
    });
    expect(demoPosts.length).toBeGreaterThanOrEqual(14);
    expect(demoArticles.length).toBeGreaterThanOrEqual(6);
    const again = await seedDemoCommunity(t.db, new Date('2026-12-01T00:00:00.000Z'));
    expect(again).toMatchObject({ posts: 0, articles: 0 });
    expect(await t.db.selectFrom('section').select('id').execute()).toHaveLength(6);
    expect(await t.db.selectFrom('topic').select('id').execute()).toHaveLength(demoTopics.length);
    expect(await t.db.selectFrom('post').select('id').execute()).toHaveLength(demoPosts.length);
    for (const section of demoSections) expect(Object.keys(icons)).toContain(section.icon);
  });

  it('keeps every count exact and spreads the items over the days before', async () => {
    const sections = await t.db.selectFrom('section').selectAll().execute();
    for (const section of sections) {
      const posts = await t.db.selectFrom('post').select('id').where('section_id', '=', section.id).execute();
      const articles = await t.db.selectFrom('article').select('id').where('section_id', '=', section.id).execute();
      expect([section.name, section.post_count, section.article_count]).toEqual([
        section.name,
        posts.length,
        articles.length,
      ]);
    }
    const topics = await t.db.selectFrom('topic').selectAll().execute();
    for (const topic of topics) {
      const links = await t.db
        .selectFrom('content_topic')
        .select('topic_id')
        .where('topic_id', '=', topic.id)
        .execute();
      expect([topic.name, topic.use_count]).toEqual([topic.name, links.length]);
    }
    const users = await t.db.selectFrom('users').select(['id', 'name', 'post_count', 'article_count']).execute();
    for (const user of users) {
      const posts = await t.db.selectFrom('post').select('id').where('user_id', '=', user.id).execute();
      const articles = await t.db.selectFrom('article').select('id').where('user_id', '=', user.id).execute();
      expect([user.name, user.post_count, user.article_count]).toEqual([user.name, posts.length, articles.length]);
    }
    const dates = (await t.db.selectFrom('post').select('published_at').execute()).map((p) => p.published_at ?? '');
    expect(new Set(dates.map((d) => d.slice(0, 10))).size).toBeGreaterThan(4);
    expect(dates.every((d) => d < now.toISOString())).toBe(true);
  });

  it('pins one post, features a couple, and links a review to its author’s rating', async () => {
    const front = await getCommunityFront(t.db, null, now);
    expect(front.sections.map((s) => s.name)).toEqual(demoSections.map((s) => s.name));
    expect(front.latest).toHaveLength(10);
    expect(front.hot.length).toBeGreaterThan(0);
    expect(front.featured.length).toBeGreaterThanOrEqual(2);
    expect(front.activeTopics.length).toBe(12);
    expect(await t.db.selectFrom('post').select('id').where('pinned', '=', 1).execute()).toHaveLength(1);

    const review = await t.db.selectFrom('article').selectAll().where('is_review', '=', 1).executeTakeFirstOrThrow();
    expect(review.rating_id).not.toBeNull();
    const detail = await getArticleDetail({ db: t.db, targets: appTargets() }, { id: review.id }, null);
    expect(detail).toMatchObject({ isReview: true, reviewWork: { type: 'galgame' }, rating: { score: 9 } });
    expect(detail.bodyHtml).toContain('<details');
    expect(detail.bodyHtml).toContain('<blockquote');
    expect(detail.bodyHtml).toMatch(/<h2/);
    expect(detail.works.length).toBe(1);
  });
});
