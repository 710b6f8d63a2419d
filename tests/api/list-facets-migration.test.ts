import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/server/db/migrations/index.ts';
import { migrateDown, migrateTo, migrateToLatest } from '../../src/server/db/migrator.ts';
import { galgameListQuerySchema } from '../../src/shared/catalogue.ts';
import { listGalgames } from '../../src/server/modules/catalogue/galgame.service.ts';
import { producerDetail } from '../../src/server/modules/catalogue/entity.service.ts';
import { facetDrift } from '../support/catalogue-facets.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-db.ts';

const NAME = '20261124-0001-list-facets';
const at = '2026-11-01T00:00:00.000Z';
const PLATFORMS = ['windows', 'mac', 'switch', 'android'];
const TYPES = ['official', 'fan', 'machine', 'ai', 'none'];

describe(`migration ${NAME}`, () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await migrateTo(t.db, '20261123-0003-jobs');
  });
  afterAll(async () => t.destroy());

  it('backfills the facets, their counts, the tags’ game counts and the links’ release keys of an existing catalogue', async () => {
    // A catalogue written before the migration (tables as they were), with stale tag counts.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables before this migration
    const db = t.db as any;
    await db
      .insertInto('tag')
      .values([1, 2, 3].map((id) => ({ id, name: `tag ${id}`, game_count: 99, created_at: at })))
      .execute();
    await db.insertInto('producer').values({ id: 1, name: 'Studio', created_at: at, updated_at: at }).execute();
    const games = Array.from({ length: 40 }, (_, i) => {
      const id = i + 1;
      const date = id % 9 === 0 ? null : `20${String(10 + (id % 6)).padStart(2, '0')}-0${1 + (id % 9)}-1${id % 10}`;
      return {
        id,
        title: `Game ${id}`,
        release_date: date,
        release_year: date ? Number(date.slice(0, 4)) : null,
        nsfw: id % 3 === 0 ? 1 : 0,
        status: id % 11 === 0 ? 'draft' : 'published',
        rating_avg: (id * 37) % 1000,
        view_count: (id * 53) % 700,
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto('galgame').values(games).execute();
    await db
      .insertInto('galgame_platform')
      .values(
        games.flatMap((g) =>
          PLATFORMS.filter((_, p) => p === 0 || (g.id + p) % 4 === 0).map((platform) => ({
            galgame_id: g.id,
            platform,
          })),
        ),
      )
      .execute();
    await db
      .insertInto('galgame_tag')
      .values(
        games.flatMap((g) =>
          [1, 2, 3].filter((tag) => (g.id + tag) % 3 !== 0).map((tag_id) => ({ galgame_id: g.id, tag_id })),
        ),
      )
      .execute();
    await db
      .insertInto('galgame_download')
      .values(
        games
          .filter((g) => g.id % 2 === 0)
          .flatMap((g, i) => [
            {
              id: 2 * i + 1,
              galgame_id: g.id,
              language: 'zh-Hans',
              platform: 'windows',
              translation_type: TYPES[g.id % 5],
              created_at: at,
            },
            {
              id: 2 * i + 2,
              galgame_id: g.id,
              language: 'zh-Hant',
              platform: 'windows',
              translation_type: TYPES[(g.id * 3) % 5],
              created_at: at,
            },
          ]),
      )
      .execute();
    await db
      .insertInto('galgame_producer')
      .values(games.map((g) => ({ galgame_id: g.id, producer_id: 1, role: 'developer' })))
      .execute();

    await migrateToLatest(t.db);
    expect(await facetDrift(t.db)).toEqual([]);
    const tags = await t.db.selectFrom('tag').select('game_count').orderBy('id').execute();
    expect(tags.every((tag) => tag.game_count > 0 && tag.game_count < 40)).toBe(true);

    // The lists and the producer page read the backfilled rows.
    const published = games.filter((g) => g.status === 'published');
    const list = await listGalgames(t.db, galgameListQuerySchema.parse({ sort: 'popularity' }));
    expect(list.pagination.total).toBe(published.length);
    expect(list.items.map((g) => g.id)).toEqual(
      [...published]
        .sort((a, b) => b.view_count - a.view_count || b.id - a.id)
        .slice(0, 24)
        .map((g) => g.id),
    );
    const producer = await producerDetail(t.db, 1);
    expect(producer.games.map((g) => g.releaseDate ?? '')).toEqual(
      [...published]
        .sort((a, b) => (b.release_date ?? '').localeCompare(a.release_date ?? '') || b.id - a.id)
        .map((g) => g.release_date ?? ''),
    );
  });

  it('reverts cleanly and applies again', async () => {
    const names = Object.keys(migrations);
    const reverted = await migrateDown(t.db, names.length - names.indexOf(NAME));
    expect(reverted.at(-1)).toBe(NAME);
    const tables = (await t.db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('galgame_facet');
    expect(tables).not.toContain('galgame_facet_count');
    await migrateToLatest(t.db);
    expect(await facetDrift(t.db)).toEqual([]);
  });
});
