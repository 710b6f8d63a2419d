import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { galgameListQuerySchema, type GalgameListQuery } from '../../../shared/catalogue.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { generateCatalogue } from './catalogue.generate.ts';
import { saveGalgame } from './catalogue.writer.ts';
import {
  frontPage,
  galgameCard,
  galgameDetail,
  latestGalgames,
  listGalgames,
  listQuery,
  applyListFilters,
  releasesOfMonth,
} from './galgame.service.ts';

const combos: Partial<GalgameListQuery>[] = [
  {},
  { sort: 'rating' },
  { sort: 'popularity' },
  { tag: 3, platform: 'windows' },
  { tag: 7, year: 2010 },
  { platform: 'switch', sort: 'rating' },
  { translation: 'fan', nsfw: 'safe' },
  { year: 2005, sort: 'popularity' },
  { tag: 2, translation: 'ai', sort: 'rating' },
  { nsfw: 'nsfw', year: 2020 },
];

describe('catalogue lists on generated data', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await generateCatalogue(t.db, { count: 3000, seed: 7, tags: 20, producers: 50 });
  });
  afterAll(async () => t.destroy());

  it('every list query, and its count, is served by indexes (no full scan of the big tables)', async () => {
    for (const combo of combos) {
      const query = galgameListQuerySchema.parse(combo);
      const count = applyListFilters(
        t.db.selectFrom('galgame as g').select((eb) => eb.fn.countAll<number>().as('n')),
        query,
      ).compile();
      for (const compiled of [listQuery(t.db, query).compile(), count]) {
        if (t.dialect === 'sqlite') {
          const plan = await sql
            .raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${compiled.sql}`)
            .execute(t.db)
            .catch(async () =>
              // Raw EXPLAIN needs the parameters bound: run through the driver with them.
              t.db.executeQuery<{ detail: string }>({
                ...compiled,
                sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
                query: compiled.query,
              }),
            );
          const details = plan.rows.map((r) => r.detail);
          const fullScans = details.filter((d) => /^SCAN (g|t|p|d|galgame\w*)$/.test(d));
          expect(fullScans, `${JSON.stringify(combo)}: ${details.join(' | ')}`).toEqual([]);
        } else {
          const plan = await t.db.connection().execute(async (conn) => {
            await sql`set enable_seqscan = off`.execute(conn);
            const result = await conn.executeQuery<{ 'QUERY PLAN': string }>({
              ...compiled,
              sql: `EXPLAIN ${compiled.sql}`,
            });
            await sql`reset enable_seqscan`.execute(conn);
            return result.rows.map((r) => r['QUERY PLAN']).join('\n');
          });
          expect(plan, `${JSON.stringify(combo)}:\n${plan}`).not.toMatch(
            /Seq Scan on (galgame|galgame_tag|galgame_platform|galgame_download)\b/,
          );
        }
      }
    }
  });

  it('filters and sorts correctly', async () => {
    const byRating = await listGalgames(t.db, galgameListQuerySchema.parse({ sort: 'rating' }));
    const avgs = byRating.items.map((g) => (g.ratingAvg ?? 0) * 100);
    expect(avgs).toEqual([...avgs].sort((a, b) => b - a));
    expect(byRating.pagination.total).toBe(3000);
    expect(byRating.items).toHaveLength(24);

    const tagged = await listGalgames(t.db, galgameListQuerySchema.parse({ tag: 3, year: 2010 }));
    for (const game of tagged.items) expect(game.releaseDate?.slice(0, 4)).toBe('2010');
    const ids = tagged.items.map((g) => g.id);
    const withTag = await t.db
      .selectFrom('galgame_tag')
      .select('galgame_id')
      .where('tag_id', '=', 3)
      .where('galgame_id', 'in', ids.length ? ids : [-1])
      .execute();
    expect(withTag).toHaveLength(ids.length);

    const safe = await listGalgames(t.db, galgameListQuerySchema.parse({ nsfw: 'safe' }));
    expect(safe.items.every((g) => !g.nsfw)).toBe(true);

    const byDate = await listGalgames(t.db, galgameListQuerySchema.parse({ page: 1 }));
    const dates = byDate.items.map((g) => g.releaseDate ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    const lastPage = await listGalgames(t.db, galgameListQuerySchema.parse({ page: byDate.pagination.totalPages }));
    expect(lastPage.items.at(-1)?.releaseDate).toBeNull();
  });

  it('ignores invalid filter values instead of failing', () => {
    expect(
      galgameListQuerySchema.parse({ tag: 'x', platform: 'gameboy', sort: 'weird', page: '-3', nsfw: 'maybe' }),
    ).toEqual({
      tag: undefined,
      platform: undefined,
      year: undefined,
      translation: undefined,
      nsfw: 'all',
      sort: 'date',
      page: 1,
    });
  });

  it('builds the front page and month releases', async () => {
    const front = await frontPage(t.db, new Date('2015-06-15T00:00:00Z'));
    expect(front.latest.every((g) => (g.releaseDate ?? '') <= '2015-06-15')).toBe(true);
    const latest = await latestGalgames(t.db, new Date('2015-06-15T00:00:00Z'), 6);
    expect(latest.map((g) => g.id)).toEqual(front.latest.slice(0, 6).map((g) => g.id));
    expect(front.upcoming.every((g) => (g.releaseDate ?? '') > '2015-06-15')).toBe(true);
    expect(front.undated.length).toBeGreaterThan(0);
    expect(front.undated.every((g) => g.releaseDate === null)).toBe(true);
    expect(front.tags.length).toBeGreaterThan(0);
    const month = await releasesOfMonth(t.db, '2012-03');
    expect(month.every((g) => g.releaseDate?.startsWith('2012-03'))).toBe(true);
  });

  it('answers 404 for unknown or unpublished games', async () => {
    await expect(galgameDetail(t.db, 999_999)).rejects.toMatchObject({ status: 404 });
    await t.db.updateTable('galgame').set({ status: 'draft' }).where('id', '=', 1).execute();
    await expect(galgameDetail(t.db, 1)).rejects.toMatchObject({ status: 404 });
    await expect(galgameCard(t.db, 1)).rejects.toMatchObject({ status: 404 });
    expect((await galgameCard(t.db, 2)).id).toBe(2);
    const detail = await galgameDetail(t.db, 2);
    expect(detail.scoreHistogram).toHaveLength(10);
    expect(detail.scoreHistogram.reduce((a, b) => a + b, 0)).toBe(detail.ratingCount);
  });
});

describe('released and upcoming split at the site day', () => {
  let t: TestDatabase;
  let id: number;
  beforeAll(async () => {
    t = await createTestDatabase();
    id = await saveGalgame(t.db, { title: 'Midnight Release', releaseDate: '2026-12-01' });
  });
  afterAll(async () => t.destroy());

  it('counts a game out today in Shanghai as released while it is still yesterday in UTC', async () => {
    // 16:30 UTC on 30 November is 00:30 on 1 December in Shanghai.
    const after = await frontPage(t.db, new Date('2026-11-30T16:30:00Z'));
    expect(after.latest.map((g) => g.id)).toEqual([id]);
    expect(after.upcoming).toEqual([]);
    expect((await latestGalgames(t.db, new Date('2026-11-30T16:30:00Z'))).map((g) => g.id)).toEqual([id]);
    // 15:30 UTC is 23:30 on 30 November in Shanghai: not out yet.
    const before = await frontPage(t.db, new Date('2026-11-30T15:30:00Z'));
    expect(before.latest).toEqual([]);
    expect(before.upcoming.map((g) => g.id)).toEqual([id]);
  });

  it('lists a month by its real last day', async () => {
    const late = await saveGalgame(t.db, { title: 'Leap Day', releaseDate: '2028-02-29' });
    expect((await releasesOfMonth(t.db, '2028-02')).map((g) => g.id)).toEqual([late]);
    expect(await releasesOfMonth(t.db, '2028-03')).toEqual([]);
  });
});
