import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { galgameListQuerySchema, type GalgameListQuery } from '../../../shared/catalogue.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.ts';
import { generateCatalogue } from './catalogue.generate.ts';
import { releaseKey } from './catalogue.facets.ts';
import { saveGalgame } from './catalogue.writer.ts';
import { downloadsOf } from './downloads.service.ts';
import { allTags, characterDetail, personDetail, producerDetail } from './entity.service.ts';
import {
  frontPage,
  galgameCard,
  galgameDetail,
  latestGalgames,
  listGalgames,
  releasesOfMonth,
} from './galgame.service.ts';
import { ratingsOf } from './ratings.service.ts';

const at = '2026-11-01T00:00:00.000Z';
const GAMES = 3000;

/** Persons, characters, staff and cast, relations and ratings on the generated games, for realistic plans. */
async function addEntities(db: TestDatabase['db']) {
  const games = await db.selectFrom('galgame').select(['id', 'release_date']).orderBy('id').execute();
  const keyOf = (id: number) => releaseKey(games[id - 1]?.release_date ?? null);
  const people = Array.from({ length: 300 }, (_, i) => ({
    id: i + 1,
    name: `Person ${i + 1}`,
    created_at: at,
    updated_at: at,
  }));
  await db.insertInto('person').values(people).execute();
  await db
    .insertInto('character')
    .values(people.map((p) => ({ ...p, name: `Character ${p.id}` })))
    .execute();
  for (let start = 1; start <= 1500; start += 300) {
    const ids = Array.from({ length: 300 }, (_, i) => start + i);
    await db
      .insertInto('galgame_staff')
      .values(
        ids.map((id) => ({
          galgame_id: id,
          person_id: 1 + (id % 300),
          role: 'scenario' as const,
          release_key: keyOf(id),
        })),
      )
      .execute();
    await db
      .insertInto('galgame_character')
      .values(
        ids.map((id) => ({
          galgame_id: id,
          character_id: 1 + (id % 300),
          role: 'main' as const,
          voice_person_id: 1 + ((id * 7) % 300),
          release_key: keyOf(id),
        })),
      )
      .execute();
    await db
      .insertInto('galgame_relation')
      .values(ids.map((id) => ({ galgame_id: id, related_id: id + 1500, relation: 'sequel' as const })))
      .execute();
  }
  await db
    .insertInto('users')
    .values(
      Array.from({ length: 40 }, (_, i) => ({
        id: `user-${i}`,
        user_id: i + 1,
        name: `user${i}`,
        name_key: `user${i}`,
        name_skeleton: `user${i}`,
        email: `user${i}@example.test`,
        password_hash: 'x',
        password_changed_at: at,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  const ratings = Array.from({ length: 40 * 40 }, (_, i) => ({
    id: i + 1,
    user_id: `user-${i % 40}`,
    galgame_id: 1 + Math.floor(i / 40),
    score: 1 + (i % 10),
    play_status: 'completed' as const,
    created_at: at,
    updated_at: `2026-10-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00.000Z`,
  }));
  for (let i = 0; i < ratings.length; i += 400)
    await db
      .insertInto('rating')
      .values(ratings.slice(i, i + 400))
      .execute();
  await sql`analyze`.execute(db);
}

// Filter values: the most and a rarely used generated tag, the platform every game has and a rare one.
const grid: Partial<GalgameListQuery>[] = [];
for (const nsfw of ['all', 'safe', 'nsfw'] as const)
  for (const year of [undefined, 2010])
    for (const tag of [undefined, 1, 15])
      for (const platform of [undefined, 'windows', 'switch'] as const)
        for (const translation of [undefined, 'fan'] as const) grid.push({ nsfw, year, tag, platform, translation });
const SORTS = ['date', 'rating', 'popularity'] as const;

/** Tables (and their aliases in our queries) a query must never read from end to end. */
const BIG = /^(g|f|t|gp|gt|gc|s|r|u|c|v|p|galgame\w*|rating|users|person|character|producer)$/;

describe('catalogue lists on generated data', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await generateCatalogue(t.db, { count: GAMES, seed: 7, tags: 20, producers: 50 });
    await addEntities(t.db);
  });
  afterAll(async () => t.destroy());

  /**
   * Runs page calls on a second connection that records every query, then explains each one. On
   * PostgreSQL the planner is told to avoid sequential scans (and, with `ordered`, sorts and bitmap
   * scans): a table read whole, or a list sorted apart from its index, then shows that no index serves.
   */
  async function plansOf(calls: ((db: DatabaseHandle['db']) => Promise<unknown>)[], ordered = false) {
    const queries = new Map<string, { sql: string; parameters: readonly unknown[] }>();
    const recorder = connectDatabase(t.target, {
      poolSize: 2,
      onQuery: (q) => queries.set(q.sql + JSON.stringify(q.parameters), q),
    });
    try {
      for (const call of calls) await call(recorder.db);
    } finally {
      await recorder.close();
    }
    const plans: { sql: string; plan: string[] }[] = [];
    for (const q of queries.values()) {
      if (t.dialect === 'sqlite') {
        const result = await t.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
        );
        plans.push({ sql: q.sql, plan: result.rows.map((r) => r.detail) });
      } else {
        const lines = await t.db.connection().execute(async (conn) => {
          const settings = ordered ? ['enable_seqscan', 'enable_sort', 'enable_bitmapscan'] : ['enable_seqscan'];
          for (const name of settings) await sql`select set_config(${name}, 'off', false)`.execute(conn);
          const result = await conn.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]),
          );
          await sql`reset all`.execute(conn);
          return result.rows.map((r) => r['QUERY PLAN']);
        });
        plans.push({ sql: q.sql, plan: lines });
      }
    }
    return plans;
  }

  /** The steps of a plan that read a catalogue table from end to end. */
  const fullScans = (plan: string[]) => {
    if (t.dialect !== 'sqlite')
      return plan.filter((step) => /Seq Scan on (galgame\w*|rating|users|person|character|producer|tag)\b/.test(step));
    // Reading a subquery's rows (a co-routine) is not reading a table.
    const subqueries = new Set(plan.map((step) => /^(?:CO-ROUTINE|MATERIALIZE) (\w+)/.exec(step)?.[1]));
    return plan.filter((step) => {
      const scan = /^SCAN (\w+)/.exec(step)?.[1];
      return scan !== undefined && !subqueries.has(scan) && BIG.test(scan) && !/ USING (COVERING )?INDEX /.test(step);
    });
  };

  it('every list and count query, each filter combination, sort and page, reads indexes', async () => {
    const calls = grid.flatMap((filters) =>
      SORTS.flatMap((sort) =>
        [1, 30].map(
          (page) => (db: DatabaseHandle['db']) =>
            listGalgames(db, galgameListQuerySchema.parse({ ...filters, sort, page }), { countCap: 400 }),
        ),
      ),
    );
    const plans = await plansOf(calls, true);
    expect(plans.length).toBeGreaterThan(300);
    for (const { sql: text, plan } of plans) expect(fullScans(plan), `${text}\n${plan.join('\n')}`).toEqual([]);
    // Lists read the facet rows through their indexes, in the order of the sort.
    const listPlans = plans.filter((p) => p.sql.includes('"galgame_facet" as "f"'));
    expect(listPlans.length).toBeGreaterThan(200);
    for (const { sql: text, plan } of listPlans) {
      const steps = plan.join('\n');
      if (t.dialect === 'sqlite') {
        expect(steps, text).toMatch(/SEARCH f USING COVERING INDEX galgame_facet_\w+_idx/);
        // Sorted apart from the index only when a year's range of it is read (a year's games at most).
        if (steps.includes('USE TEMP B-TREE FOR ORDER BY'))
          expect(steps, text).toMatch(/release_key>\? AND release_key<\?/);
      } else {
        expect(steps, text).toMatch(/Index (Only )?Scan( Backward)? using galgame_facet_\w+_idx/);
        if (/(^|->\s+)Sort\s+\(cost/m.test(steps)) expect(steps, text).toMatch(/release_key >= /);
      }
    }
  });

  it('every other query of the catalogue pages reads indexes', async () => {
    const now = new Date('2015-06-15T00:00:00Z');
    const plans = await plansOf([
      (db) => frontPage(db, now),
      (db) => latestGalgames(db, now, 6),
      (db) => releasesOfMonth(db, '2012-03'),
      (db) => producerDetail(db, 3),
      (db) => personDetail(db, 12),
      (db) => characterDetail(db, 12),
      (db) => allTags(db),
      (db) => ratingsOf(db, 5, { page: 1, limit: 10 }),
      (db) => ratingsOf(db, 5, { page: 3, limit: 10 }),
      (db) => galgameDetail(db, 12),
      (db) => galgameCard(db, 12),
      (db) => downloadsOf(db, 12, 'user-1'),
    ]);
    expect(plans.length).toBeGreaterThan(15);
    for (const { sql: text, plan } of plans) expect(fullScans(plan), `${text}\n${plan.join('\n')}`).toEqual([]);
  });

  it('lists exactly the games a recount of the catalogue tables gives, in order, on every page', async () => {
    const [games, tags, platforms, downloads] = await Promise.all([
      t.db
        .selectFrom('galgame')
        .select(['id', 'nsfw', 'release_date', 'release_year', 'rating_avg', 'view_count'])
        .where('status', '=', 'published')
        .execute(),
      t.db.selectFrom('galgame_tag').select(['galgame_id', 'tag_id']).execute(),
      t.db.selectFrom('galgame_platform').select(['galgame_id', 'platform']).execute(),
      t.db.selectFrom('galgame_download').select(['galgame_id', 'translation_type']).execute(),
    ]);
    const has = <T extends { galgame_id: number }>(rows: T[], pick: (r: T) => unknown) => {
      const set = new Set(rows.map((r) => `${r.galgame_id}:${String(pick(r))}`));
      return (id: number, value: unknown) => set.has(`${id}:${String(value)}`);
    };
    const hasTag = has(tags, (r) => r.tag_id);
    const hasPlatform = has(platforms, (r) => r.platform);
    const hasTranslation = has(downloads, (r) => r.translation_type);
    const key = {
      date: (g: (typeof games)[number]) => releaseKey(g.release_date),
      rating: (g: (typeof games)[number]) => g.rating_avg,
      popularity: (g: (typeof games)[number]) => g.view_count,
    };
    const PAGE = 24;
    for (const [n, filters] of grid.entries()) {
      const sort = SORTS[n % 3] ?? 'date';
      const expected = games
        .filter(
          (g) =>
            (filters.nsfw === 'all' || g.nsfw === (filters.nsfw === 'nsfw' ? 1 : 0)) &&
            (filters.year === undefined || g.release_year === filters.year) &&
            (filters.tag === undefined || hasTag(g.id, filters.tag)) &&
            (filters.platform === undefined || hasPlatform(g.id, filters.platform)) &&
            (filters.translation === undefined || hasTranslation(g.id, filters.translation)),
        )
        .sort((a, b) => key[sort](b) - key[sort](a) || b.id - a.id)
        .map((g) => g.id);
      const query = (page: number) => galgameListQuerySchema.parse({ ...filters, sort, page });
      const first = await listGalgames(t.db, query(1));
      const label = JSON.stringify({ ...filters, sort });
      expect(first.pagination, label).toEqual({
        page: 1,
        limit: PAGE,
        total: expected.length,
        totalPages: Math.max(1, Math.ceil(expected.length / PAGE)),
      });
      expect(
        first.items.map((g) => g.id),
        label,
      ).toEqual(expected.slice(0, PAGE));
      const last = first.pagination.totalPages;
      for (const page of [2, Math.ceil(last / 2), last]) {
        const items = (await listGalgames(t.db, query(page))).items.map((g) => g.id);
        expect(items, `${label} page ${page}`).toEqual(expected.slice((page - 1) * PAGE, page * PAGE));
      }
    }
  });

  it('counts up to a cap and pages no further than it; a count from the facet counts is exact', async () => {
    // Every generated game runs on Windows: far more than the cap of 100.
    const capped = await listGalgames(t.db, galgameListQuerySchema.parse({ platform: 'windows', tag: 1 }), {
      countCap: 100,
    });
    expect(capped.pagination).toEqual({ page: 1, limit: 24, total: 100, totalPages: 5, capped: true });
    const lastPage = await listGalgames(t.db, galgameListQuerySchema.parse({ platform: 'windows', tag: 1, page: 5 }), {
      countCap: 100,
    });
    expect(lastPage.items).toHaveLength(24);
    const past = await listGalgames(t.db, galgameListQuerySchema.parse({ platform: 'windows', tag: 1, page: 6 }), {
      countCap: 100,
    });
    expect(past.items).toEqual([]);
    expect(past.pagination.totalPages).toBe(5);
    // A plain count of the first NSFW flag (fewer games than the cap), then a limited one of the second.
    const perFlag = await t.db
      .selectFrom('galgame_facet_count')
      .select(['nsfw', 'games'])
      .where('facet', '=', 'tag:15')
      .orderBy('nsfw')
      .execute();
    const [safeGames, nsfwGames] = perFlag.map((r) => Number(r.games)) as [number, number];
    expect(nsfwGames).toBeGreaterThan(2);
    const cap = safeGames + Math.floor(nsfwGames / 2);
    const mixed = await listGalgames(t.db, galgameListQuerySchema.parse({ tag: 15, platform: 'windows' }), {
      countCap: cap,
    });
    expect(mixed.pagination).toMatchObject({ total: cap, capped: true });
    const under = await listGalgames(t.db, galgameListQuerySchema.parse({ tag: 15, platform: 'windows' }), {
      countCap: safeGames + nsfwGames,
    });
    expect(under.pagination.total).toBe(safeGames + nsfwGames);
    expect(under.pagination.capped).toBeUndefined();
    // One filter is one facet: its count is read, not counted, so it stays exact above the cap; the pages still end.
    const all = await listGalgames(t.db, galgameListQuerySchema.parse({}), { countCap: 100 });
    expect(all.pagination).toEqual({ page: 1, limit: 24, total: GAMES, totalPages: 5 });
    const tagged = await listGalgames(t.db, galgameListQuerySchema.parse({ tag: 1, nsfw: 'safe' }), { countCap: 100 });
    const withTag = await t.db
      .selectFrom('galgame_tag as gt')
      .innerJoin('galgame as g', 'g.id', 'gt.galgame_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('gt.tag_id', '=', 1)
      .where('g.nsfw', '=', 0)
      .executeTakeFirstOrThrow();
    expect(tagged.pagination.total).toBe(Number(withTag.n));
    expect(tagged.pagination.capped).toBeUndefined();
    // A filter value no game has: empty at once.
    const none = await listGalgames(t.db, galgameListQuerySchema.parse({ tag: 9999, platform: 'windows' }));
    expect(none).toEqual({ items: [], pagination: { page: 1, limit: 24, total: 0, totalPages: 1 } });
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
