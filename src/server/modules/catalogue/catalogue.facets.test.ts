import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facetDrift } from '../../../../tests/support/catalogue-facets.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { createLogger } from '../../platform/logger.ts';
import { appTargets } from '../index.ts';
import { removeUser } from '../users/users.removal.ts';
import { createUser } from '../users/users.service.ts';
import { reportLink } from './downloads.service.ts';
import { facetRowsOf, releaseKey } from './catalogue.facets.ts';
import { generateCatalogue } from './catalogue.generate.ts';
import { saveGalgame, upsertCharacter, upsertPerson, upsertProducer, upsertTag } from './catalogue.writer.ts';
import { addFavorite, removeFavorite } from './favorites.service.ts';
import { deleteRating, saveRating } from './ratings.service.ts';
import { createViewCounter } from './view-counter.ts';

describe('facet rows of a game', () => {
  const game = {
    id: 7,
    status: 'published',
    nsfw: 1,
    release_date: '2010-03-05',
    release_year: 2010,
    rating_avg: 812,
    view_count: 40,
    platforms: ['windows', 'switch', 'windows'],
    translations: ['fan', 'ai'],
    tagIds: [3, 9],
  };

  it('has one row per filter value it matches, each with its sort keys and filter masks', () => {
    const rows = facetRowsOf(game);
    expect(rows.map((r) => r.facet)).toEqual([
      'all',
      'tag:3',
      'tag:9',
      'platform:windows',
      'platform:switch',
      'translation:fan',
      'translation:ai',
      'year:2010',
      'tag:3+translation:fan',
      'tag:3+translation:ai',
      'tag:9+translation:fan',
      'tag:9+translation:ai',
    ]);
    expect(rows[0]).toEqual({
      facet: 'all',
      galgame_id: 7,
      nsfw: 1,
      release_key: 20100305,
      rating_avg: 812,
      view_count: 40,
      platform_mask: 1 | 32,
      translation_mask: 2 | 8,
    });
  });

  it('has none unless published; an undated game has no year and sorts last', () => {
    expect(facetRowsOf({ ...game, status: 'draft' })).toEqual([]);
    const undated = facetRowsOf({ ...game, release_date: null, release_year: null });
    expect(undated.some((r) => r.facet.startsWith('year:'))).toBe(false);
    expect(undated[0]?.release_key).toBe(0);
    expect(releaseKey('2026-12-31')).toBeGreaterThan(releaseKey('2026-02-01'));
    expect(releaseKey('TBD')).toBe(0);
  });
});

describe('every writer keeps the facets exact', () => {
  let t: TestDatabase;
  const targets = appTargets();
  const tags: number[] = [];
  let producer: number;
  let person: number;
  let character: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    for (const name of ['纯爱', '校园', '奇幻']) tags.push(await upsertTag(t.db, { name }));
    producer = await upsertProducer(t.db, { name: 'Studio A' });
    person = await upsertPerson(t.db, { name: 'Writer A' });
    character = await upsertCharacter(t.db, { name: 'Heroine A' });
  });
  afterAll(async () => t.destroy());

  const download = (translationType: 'fan' | 'ai' | 'official') => ({
    language: 'zh-Hans' as const,
    platform: 'windows' as const,
    translationType,
    links: [{ url: 'https://example.org/x', password: 'pw' }],
  });

  it('the catalogue writer: new games, drafts, edits of links, dates and flags, and status changes', async () => {
    await saveGalgame(t.db, {
      bangumiId: 1,
      title: 'A',
      releaseDate: '2011-04-01',
      platforms: ['windows'],
      tags: [{ tagId: tags[0]! }, { tagId: tags[1]! }],
      producers: [{ producerId: producer, role: 'developer' }],
      staff: [{ personId: person, role: 'scenario' }],
      characters: [{ characterId: character, role: 'main', voicePersonId: person }],
      downloads: [download('fan')],
    });
    await saveGalgame(t.db, { bangumiId: 2, title: 'B', nsfw: true, platforms: ['windows', 'switch'] });
    await saveGalgame(t.db, { bangumiId: 3, title: 'Draft', status: 'draft', tags: [{ tagId: tags[0]! }] });
    expect(await facetDrift(t.db)).toEqual([]);

    // Re-saved with other tags, platforms, date, flag and downloads.
    await saveGalgame(t.db, {
      bangumiId: 1,
      title: 'A',
      releaseDate: '2012-08-15',
      nsfw: true,
      platforms: ['mac'],
      tags: [{ tagId: tags[1]! }, { tagId: tags[2]! }],
      producers: [{ producerId: producer, role: 'publisher' }],
      staff: [{ personId: person, role: 'art' }],
      downloads: [download('ai'), download('official')],
    });
    expect(await facetDrift(t.db)).toEqual([]);
    // Unpublished, then published again.
    await saveGalgame(t.db, { bangumiId: 2, title: 'B', status: 'pending', platforms: ['windows'] });
    expect(await facetDrift(t.db)).toEqual([]);
    expect(await t.db.selectFrom('galgame_facet').select('facet').where('galgame_id', '=', 2).execute()).toEqual([]);
    await saveGalgame(t.db, { bangumiId: 3, title: 'Draft', status: 'published', tags: [{ tagId: tags[0]! }] });
    await saveGalgame(t.db, { bangumiId: 2, title: 'B', status: 'published', platforms: ['linux'] });
    expect(await facetDrift(t.db)).toEqual([]);
    const counts = await t.db.selectFrom('tag').select(['id', 'game_count']).orderBy('id').execute();
    expect(counts.map((c) => c.game_count)).toEqual([1, 1, 1]);
  });

  it('ratings, favourites, link reports, views and the removal of a user', async () => {
    const game = await saveGalgame(t.db, { title: 'Rated', releaseDate: '2020-01-01', tags: [{ tagId: tags[0]! }] });
    const users = [];
    for (const name of ['rater_one', 'rater_two']) {
      users.push(await createUser(t.db, { name, email: `${name}@example.test`, passwordHash: 'x' }));
    }
    const [one, two] = users as [(typeof users)[number], (typeof users)[number]];
    await saveRating(t.db, one.id, game, { score: 9, status: 'completed', text: '', spoiler: false });
    await saveRating(t.db, two.id, game, { score: 4, status: 'playing', text: '', spoiler: false });
    expect(await facetDrift(t.db)).toEqual([]);
    const facet = await t.db
      .selectFrom('galgame_facet')
      .select('rating_avg')
      .where('galgame_id', '=', game)
      .where('facet', '=', 'all')
      .executeTakeFirstOrThrow();
    expect(facet.rating_avg).toBe(650);
    await deleteRating(t.db, two.id, game);
    expect(await facetDrift(t.db)).toEqual([]);

    const deps = { db: t.db, targets };
    const viewer = { id: one.id, group: one.user_group };
    await addFavorite(deps, viewer, { type: 'galgame', id: game });
    await removeFavorite(deps, one.id, { type: 'galgame', id: game });
    await addFavorite(deps, viewer, { type: 'galgame', id: game });
    const link = await t.db.selectFrom('download_link').select('id').executeTakeFirstOrThrow();
    await reportLink(t.db, link.id, two.id, 'dead');
    expect(await facetDrift(t.db)).toEqual([]);

    const views = createViewCounter(t.db, createLogger('silent'), 60_000);
    views.hit(game);
    views.hit(game);
    views.hit(1);
    await views.stop();
    expect(await facetDrift(t.db)).toEqual([]);

    await removeUser(deps, one.id);
    expect(await facetDrift(t.db)).toEqual([]);
  });

  it('saves at the same time (one database connection each on PostgreSQL)', async () => {
    const first = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        saveGalgame(t.db, {
          title: `Parallel ${i}`,
          releaseDate: `2015-0${1 + i}-01`,
          platforms: ['windows', i % 2 ? 'android' : 'ios'],
          tags: tags.map((tagId) => ({ tagId })),
          downloads: [download(i % 2 ? 'fan' : 'ai')],
        }),
      ),
      saveGalgame(t.db, { bangumiId: 1, title: 'A', releaseDate: '2013-01-01', tags: [{ tagId: tags[2]! }] }),
      saveRating(t.db, first.id, 1, { score: 7, status: 'completed', text: '', spoiler: false }),
    ]);
    expect(await facetDrift(t.db)).toEqual([]);
  });

  it('the generator', async () => {
    await generateCatalogue(t.db, { count: 300, seed: 3, tags: 8, producers: 5, batch: 70 });
    expect(await facetDrift(t.db)).toEqual([]);
  });
});
