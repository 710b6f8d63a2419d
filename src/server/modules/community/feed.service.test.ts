import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { HOT_WEIGHTS, HOT_WINDOW_DAYS, type ContentType } from '../../../shared/community/community.ts';
import { createUser } from '../users/users.service.ts';
import { feed, getCommunityFront, hotScore } from './feed.service.ts';

/**
 * The feed reads each table's first rows in the list's order and cuts the page from their union (hot:
 * each table's recent and older rows apart). Here its pages are compared with the same order worked
 * out in full over every row, on rows built to tie: equal scores, equal times, a post and an article
 * with the same id, rows on both sides of the hot window.
 */
describe('community feed order', () => {
  let t: TestDatabase;
  const now = new Date('2026-11-24T12:00:00.000Z');
  const recent = new Date(now.getTime() - HOT_WINDOW_DAYS * 24 * 60 * 60_000).toISOString();
  interface Row {
    type: ContentType;
    id: number;
    section: number;
    published: string;
    likes: number;
    comments: number;
    favorites: number;
    featured: boolean;
    status: string;
  }
  const rows: Row[] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
    const user = await createUser(t.db, { name: 'FeedAuthor', email: 'feed-author@example.test', passwordHash: 'x' });
    const at = now.toISOString();
    for (const id of [1, 2])
      await t.db
        .insertInto('section')
        .values({ id, name: `s${id}`, created_at: at, updated_at: at })
        .execute();
    // A small fixed pseudo-random sequence, so a failure repeats.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const days = [0.5, 1, 3, 6.9, 7.1, 10, 30];
    for (const type of ['post', 'article'] as const) {
      for (let id = 1; id <= 40; id++) {
        const row: Row = {
          type,
          id,
          section: 1 + next(2),
          // Several rows share a moment, on both sides of the window.
          published: new Date(now.getTime() - days[next(days.length)]! * 24 * 60 * 60_000).toISOString(),
          likes: next(4),
          comments: next(3),
          favorites: next(2),
          featured: next(3) === 0,
          status: next(10) === 0 ? 'draft' : 'published',
        };
        rows.push(row);
        await t.db
          .insertInto(type)
          .values({
            id,
            user_id: user.id,
            section_id: row.section,
            status: row.status,
            title: `${type} ${id}`,
            featured: row.featured ? 1 : 0,
            like_count: row.likes,
            comment_count: row.comments,
            favorite_count: row.favorites,
            published_at: row.status === 'published' ? row.published : null,
            created_at: row.published,
            updated_at: row.published,
            ...(type === 'article' ? { slug: `a-${id}`, body: '{}' } : { content: '', images: '[]' }),
          } as never)
          .execute();
      }
    }
  });
  afterAll(() => t.destroy());

  const score = (r: Row) =>
    r.likes * HOT_WEIGHTS.like + r.comments * HOT_WEIGHTS.comment + r.favorites * HOT_WEIGHTS.favorite;
  const desc = (a: number | string, b: number | string) => (a < b ? 1 : a > b ? -1 : 0);
  const byNewest = (a: Row, b: Row) =>
    desc(a.published, b.published) || desc(a.id, b.id) || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);
  const byHot = (a: Row, b: Row) =>
    desc(Number(a.published >= recent), Number(b.published >= recent)) || desc(score(a), score(b)) || byNewest(a, b);

  async function walk(request: { sort: 'new' | 'hot' | 'featured'; type: 'all' | ContentType; sectionId?: number }) {
    const seen: string[] = [];
    let total = -1;
    for (let page = 1; page <= 30; page++) {
      const result = await feed(t.db, { ...request, page, limit: 7 }, now);
      total = result.pagination.total;
      seen.push(...result.items.map((item) => `${item.type}:${item.id}`));
      if (result.items.length < 7) break;
    }
    return { seen, total };
  }

  it('pages through every sort exactly as the whole order would, without repeats or gaps', async () => {
    for (const sort of ['new', 'hot', 'featured'] as const) {
      for (const type of ['all', 'post', 'article'] as const) {
        for (const sectionId of [undefined, 1]) {
          const expected = rows
            .filter((r) => r.status === 'published')
            .filter((r) => type === 'all' || r.type === type)
            .filter((r) => sectionId === undefined || r.section === sectionId)
            .filter((r) => sort !== 'featured' || r.featured)
            .sort(sort === 'hot' ? byHot : byNewest)
            .map((r) => `${r.type}:${r.id}`);
          const { seen, total } = await walk({ sort, type, ...(sectionId ? { sectionId } : {}) });
          expect(seen, `${sort} ${type} ${sectionId ?? ''}`).toEqual(expected);
          expect(total).toBe(expected.length);
        }
      }
    }
  });

  it('gives the front page the same first rows', async () => {
    const front = await getCommunityFront(t.db, null, now);
    const hot = await feed(t.db, { sort: 'hot', type: 'all', page: 1, limit: front.hot.length }, now);
    expect(front.hot.map((i) => i.id)).toEqual(hot.items.map((i) => i.id));
    expect(front.hot.length).toBeGreaterThan(0);
  });

  it('writes the hot score exactly as the hot indexes do, so the older rows come from them in order', async (context) => {
    if (t.dialect !== 'sqlite') return context.skip();
    const score = sql`${hotScore((name) => sql.ref(name))}`.compile(t.db).sql;
    for (const table of ['post', 'article']) {
      // Pinned to the index: a different expression could not give its order, and SQLite would sort.
      const plan = await sql<{
        detail: string;
      }>`explain query plan select id from ${sql.table(table)} indexed by ${sql.raw(`${table}_hot_idx`)} where status = 'published' and published_at < ${recent} order by ${sql.raw(score)} desc, published_at desc, id desc limit 10`.execute(
        t.db,
      );
      const details = plan.rows.map((row) => row.detail).join(' | ');
      expect(details).toContain(`${table}_hot_idx`);
      expect(details).not.toContain('TEMP B-TREE');
    }
  });
});
