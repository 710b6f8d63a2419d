import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { upsertPerson, upsertProducer } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { createLightnovelViews } from '../../src/server/modules/lightnovel/lightnovel.service.ts';
import {
  deleteVolume,
  refreshReleasedVolumes,
  saveLightnovel,
  saveVolume,
} from '../../src/server/modules/lightnovel/lightnovel.writer.ts';
import type { LightnovelCardPage, LightnovelDetail, VolumeDetail } from '../../src/shared/lightnovel/lightnovel.ts';
import { call, data, expectFailure } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// The light-novel catalogue over HTTP: list filters, sorts and validation, series and volume details,
// drafts hidden from everyone but their creator and reviewers, and the counts the writer keeps.
describe('light-novel catalogue API', () => {
  let app: TestApp;
  let db: Db;
  const ids: Record<string, number> = {};
  let labelA: number;
  let labelB: number;
  let publisher: number;
  let creator: { id: string; token: string };
  let editorToken: string;
  let strangerToken: string;

  async function member(name: string, group: 'user' | 'editor' = 'user') {
    const user = await createUser(db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    if (group !== 'user') await db.updateTable('users').set({ user_group: group }).where('id', '=', user.id).execute();
    return { id: user.id, token: await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group }) };
  }
  const list = async (search: string) =>
    data((await call<LightnovelCardPage>(app, 'GET', `/lightnovel/list${search}`)).body);
  const names = (page: LightnovelCardPage) => page.items.map((s) => s.titleZh);

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    creator = await member('ln_creator');
    editorToken = (await member('ln_editor', 'editor')).token;
    strangerToken = (await member('ln_stranger')).token;
    const author = await upsertPerson(db, { name: '試験 作家', nameZh: '试验作家' });
    const artist = await upsertPerson(db, { name: '試験 絵師', nameZh: '试验画师' });
    publisher = await upsertProducer(db, { name: '試験書房' });
    labelA = await upsertProducer(db, { name: '試験文庫' });
    labelB = await upsertProducer(db, { name: '別文庫' });
    const series = async (key: string, input: Parameters<typeof saveLightnovel>[1]) => {
      ids[key] = await saveLightnovel(db, input);
    };
    await series('alpha', {
      name: 'アルファ',
      nameZh: '阿尔法',
      serialStatus: 'serialising',
      staff: [
        { personId: author, role: 'author' },
        { personId: artist, role: 'illustrator' },
      ],
      producers: [
        { producerId: publisher, role: 'publisher' },
        { producerId: labelA, role: 'label' },
      ],
    });
    await series('beta', {
      name: 'ベータ',
      nameZh: '贝塔',
      serialStatus: 'finished',
      producers: [{ producerId: labelB, role: 'label' }],
    });
    await series('gamma', { name: 'ガンマ', nameZh: '伽马', serialStatus: 'serialising' });
    await series('draft', { name: '下書き', nameZh: '草稿', status: 'draft', createdBy: creator.id });
    const alpha = ids.alpha ?? 0;
    // Written out of order on purpose: the series page orders them.
    ids.alphaExtra = await saveVolume(db, { lightnovelId: alpha, kind: 'extra', number: 1, releaseDate: '2025-08-01' });
    ids.alpha2 = await saveVolume(db, {
      lightnovelId: alpha,
      number: 2,
      releaseDate: '2025-03-01',
      isbn: '978-4-0000-0002-0',
    });
    ids.alpha1 = await saveVolume(db, {
      lightnovelId: alpha,
      number: 1,
      releaseDate: '2024-05-01',
      pages: 300,
      price: '¥700',
    });
    await saveVolume(db, { lightnovelId: ids.beta ?? 0, number: 1, releaseDate: '2023-01-10' });
    ids.draft1 = await saveVolume(db, { lightnovelId: ids.draft ?? 0, number: 1, releaseDate: '2026-01-01' });
    await db
      .updateTable('lightnovel_volume')
      .set({ epub_key: 'epub/test.epub' })
      .where('id', '=', ids.alpha1)
      .execute();
    await db
      .updateTable('lightnovel')
      .set({ view_count: 50, favorite_count: 1, rating_avg: 700, rating_count: 3 })
      .where('id', '=', ids.beta ?? 0)
      .execute();
    await db
      .updateTable('lightnovel')
      .set({ view_count: 10, favorite_count: 9, rating_avg: 900, rating_count: 3 })
      .where('id', '=', ids.gamma ?? 0)
      .execute();
  });
  afterAll(async () => app.close());

  it('lists published series by their latest volume, undated last; drafts never', async () => {
    const page = await list('');
    expect(names(page)).toEqual(['阿尔法', '贝塔', '伽马']);
    expect(page.pagination).toMatchObject({ page: 1, total: 3, totalPages: 1 });
    expect(page.items[0]).toMatchObject({
      volumeCount: 3,
      latestVolumeDate: '2025-08-01',
      serialStatus: 'serialising',
    });
  });

  it('sorts by rating, views, favourites and newest', async () => {
    expect(names(await list('?sort=rating'))).toEqual(['伽马', '贝塔', '阿尔法']);
    expect(names(await list('?sort=views'))).toEqual(['贝塔', '伽马', '阿尔法']);
    expect(names(await list('?sort=favorites'))).toEqual(['伽马', '贝塔', '阿尔法']);
    expect(names(await list('?sort=newest'))).toEqual(['伽马', '贝塔', '阿尔法']);
  });

  it('filters by status, label, publisher, year of the latest volume and EPUB', async () => {
    expect(names(await list('?status=serialising'))).toEqual(['阿尔法', '伽马']);
    expect(names(await list(`?label=${labelA}`))).toEqual(['阿尔法']);
    expect(names(await list(`?label=${labelB}`))).toEqual(['贝塔']);
    expect(names(await list(`?publisher=${publisher}`))).toEqual(['阿尔法']);
    expect(names(await list(`?label=${publisher}`))).toEqual([]);
    expect(names(await list('?year=2023'))).toEqual(['贝塔']);
    expect(names(await list('?epub=1'))).toEqual(['阿尔法']);
    expect(names(await list(`?status=finished&label=${labelB}&year=2023`))).toEqual(['贝塔']);
    const past = await list('?page=5');
    expect(past.items).toEqual([]);
  });

  it.each([
    ['status=ongoing'],
    ['sort=title'],
    ['label=abc'],
    ['label=012'],
    ['publisher=-1'],
    ['year=1800'],
    ['year=20x5'],
    ['epub=yes'],
    ['page=0'],
    ['page=1.5'],
    ['colour=red'],
  ])('answers 400 for %s', async (search) => {
    expectFailure(await call(app, 'GET', `/lightnovel/list?${search}`), 400, 'VALIDATION_FAILED');
  });

  it('shows a series with its people, producers and volumes in order', async () => {
    const detail = data((await call<LightnovelDetail>(app, 'GET', `/lightnovel/series/${ids.alpha}`)).body);
    expect(detail.staff.map((p) => [p.role, p.nameZh])).toEqual([
      ['author', '试验作家'],
      ['illustrator', '试验画师'],
    ]);
    expect(detail.producers.map((p) => [p.role, p.id])).toEqual([
      ['publisher', publisher],
      ['label', labelA],
    ]);
    expect(detail.volumes.map((v) => [v.kind, v.number, v.hasEpub])).toEqual([
      ['main', 1, true],
      ['main', 2, false],
      ['extra', 1, false],
    ]);
  });

  it('shows a volume with its series and neighbours', async () => {
    const second = data((await call<VolumeDetail>(app, 'GET', `/lightnovel/volumes/${ids.alpha2}`)).body);
    expect(second).toMatchObject({ number: 2, isbn: '978-4-0000-0002-0', hasEpub: false });
    expect(second.series.titleZh).toBe('阿尔法');
    expect(second.previous?.id).toBe(ids.alpha1);
    expect(second.next?.id).toBe(ids.alphaExtra);
    const first = data((await call<VolumeDetail>(app, 'GET', `/lightnovel/volumes/${ids.alpha1}`)).body);
    expect(first).toMatchObject({ pages: 300, price: '¥700', hasEpub: true, previous: null });
    expectFailure(await call(app, 'GET', '/lightnovel/volumes/999999'), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', '/lightnovel/series/0'), 400, 'VALIDATION_FAILED');
  });

  it('shows a draft only to its creator and reviewers', async () => {
    const series = `/lightnovel/series/${ids.draft}`;
    const volume = `/lightnovel/volumes/${ids.draft1}`;
    for (const path of [series, volume]) {
      expectFailure(await call(app, 'GET', path), 404, 'NOT_FOUND');
      expectFailure(await call(app, 'GET', path, strangerToken), 404, 'NOT_FOUND');
      expect((await call(app, 'GET', path, creator.token)).res.status).toBe(200);
      expect((await call(app, 'GET', path, editorToken)).res.status).toBe(200);
    }
  });

  it('keeps the volume count and latest date exact as volumes change', async () => {
    const gamma = ids.gamma ?? 0;
    const stats = () =>
      db
        .selectFrom('lightnovel')
        .select(['volume_count', 'latest_volume_date'])
        .where('id', '=', gamma)
        .executeTakeFirstOrThrow();
    expect(await stats()).toMatchObject({ volume_count: 0, latest_volume_date: null });
    const one = await saveVolume(db, { lightnovelId: gamma, number: 1, releaseDate: '2026-02-01' });
    const two = await saveVolume(db, { lightnovelId: gamma, number: 2, releaseDate: '2026-06-01' });
    expect(await stats()).toMatchObject({ volume_count: 2, latest_volume_date: '2026-06-01' });
    // Saving the same series, kind and number again updates it in place.
    expect(await saveVolume(db, { lightnovelId: gamma, number: 2, releaseDate: '2026-04-01' })).toBe(two);
    expect(await stats()).toMatchObject({ volume_count: 2, latest_volume_date: '2026-04-01' });
    await deleteVolume(db, two);
    expect(await stats()).toMatchObject({ volume_count: 1, latest_volume_date: '2026-02-01' });
    await deleteVolume(db, one);
    expect(await stats()).toMatchObject({ volume_count: 0, latest_volume_date: null });
  });

  it('takes an announced volume as the latest only once its day has come, and counts concurrent volumes exactly', async () => {
    const gamma = ids.gamma ?? 0;
    const stats = () =>
      db
        .selectFrom('lightnovel')
        .select(['volume_count', 'latest_volume_date'])
        .where('id', '=', gamma)
        .executeTakeFirstOrThrow();
    const before = new Date('2026-03-10T12:00:00Z');
    const one = await saveVolume(db, { lightnovelId: gamma, number: 1, releaseDate: '2026-03-01' }, before);
    const two = await saveVolume(db, { lightnovelId: gamma, number: 2, releaseDate: '2026-04-01' }, before);
    expect(await stats()).toMatchObject({ volume_count: 2, latest_volume_date: '2026-03-01' });
    expect(await refreshReleasedVolumes(db, before)).not.toContain(gamma);
    expect(await refreshReleasedVolumes(db, new Date('2026-04-01T12:00:00Z'))).toContain(gamma);
    expect(await stats()).toMatchObject({ volume_count: 2, latest_volume_date: '2026-04-01' });
    await deleteVolume(db, one);
    await deleteVolume(db, two);

    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        saveVolume(db, { lightnovelId: gamma, number: i + 1, releaseDate: '2025-01-01' }),
      ),
    );
    expect(await stats()).toMatchObject({ volume_count: 8 });
    await Promise.all(made.map((id) => deleteVolume(db, id)));
    expect(await stats()).toMatchObject({ volume_count: 0, latest_volume_date: null });
  });

  it('counts favourites and comments on series and volumes through the targets', async () => {
    const answer = await call<{ favoriteCount: number }>(app, 'POST', '/user/favorites', strangerToken, {
      itemType: 'lightnovel',
      itemId: ids.alpha,
    });
    expect(data(answer.body).favoriteCount).toBe(1);
    expectFailure(
      await call(app, 'POST', '/user/favorites', strangerToken, { itemType: 'lightnovel', itemId: ids.draft }),
      404,
      'NOT_FOUND',
    );
    const comment = await call(app, 'POST', '/comments', strangerToken, {
      targetType: 'volume',
      targetId: ids.alpha1,
      content: '第一卷的结尾太好哭了',
    });
    expect(comment.res.status, JSON.stringify(comment.body)).toBe(201);
    const row = await db
      .selectFrom('lightnovel_volume')
      .select('comment_count')
      .where('id', '=', ids.alpha1 ?? 0)
      .executeTakeFirstOrThrow();
    expect(row.comment_count).toBe(1);
  });
  it('the writer keeps the search index: published series are found, drafts are not', async () => {
    const search = async (keyword: string) =>
      data(
        (
          await call<{ items: { type: string; lightnovel?: { id: number } }[] }>(
            app,
            'GET',
            `/search?keyword=${encodeURIComponent(keyword)}&type=novel`,
          )
        ).body,
      ).items.map((hit) => hit.lightnovel?.id);
    expect(await search('阿尔法')).toEqual([ids.alpha]);
    expect(await search('草稿')).toEqual([]);
    await saveLightnovel(db, { id: ids.draft ?? 0, name: '下書き', nameZh: '草稿', status: 'published' });
    // Other keywords each time: search answers are cached for a short while.
    expect(await search('下書き')).toEqual([ids.draft]);
    await saveLightnovel(db, { id: ids.draft ?? 0, name: '下書き', nameZh: '草稿', status: 'draft' });
    expect(await search('下書')).toEqual([]);
  });

  it('counts page views of series and volumes in memory and writes them together', async () => {
    const views = createLightnovelViews(db, app.ctx.logger, 60_000);
    const read = async () => ({
      series: (
        await db
          .selectFrom('lightnovel')
          .select('view_count')
          .where('id', '=', ids.gamma ?? 0)
          .executeTakeFirstOrThrow()
      ).view_count,
      volume: (
        await db
          .selectFrom('lightnovel_volume')
          .select('view_count')
          .where('id', '=', ids.alpha2 ?? 0)
          .executeTakeFirstOrThrow()
      ).view_count,
    });
    const before = await read();
    views.series(ids.gamma ?? 0);
    views.series(ids.gamma ?? 0);
    views.volume(ids.alpha2 ?? 0);
    expect(await read()).toEqual(before);
    await views.stop();
    expect(await read()).toEqual({ series: before.series + 2, volume: before.volume + 1 });
  });
});
