import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightnovelCard, LightnovelCardPage } from '../../src/shared/lightnovel/lightnovel.ts';
import type { LightnovelRatingResult, LightnovelRatingView } from '../../src/shared/lightnovel/ratings.contract.ts';
import type { FavoriteList } from '../../src/shared/catalogue/catalogue.contract.ts';
import type { Db } from '../../src/server/db/database.ts';
import { nextId } from '../../src/server/db/ids.ts';
import { removeUser } from '../../src/server/modules/users/users.removal.ts';
import { call, data, expectFailure, freshIp, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const at = '2026-12-01T00:00:00.000Z';

/** A series straight in the database (the catalogue's writer is not what these tests are about). */
async function addSeries(
  db: Db,
  values: { name: string; nameZh?: string; aliases?: string[]; status?: 'published' | 'draft' },
): Promise<number> {
  const id = await db.transaction().execute((trx) => nextId(trx, 'lightnovel_id'));
  await db
    .insertInto('lightnovel')
    .values({
      id,
      name: values.name,
      name_zh: values.nameZh ?? '',
      aliases: JSON.stringify(values.aliases ?? []),
      status: values.status ?? 'published',
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** The series' stored aggregates and the ones counted from its ratings. */
async function aggregates(db: Db, id: number) {
  const series = await db
    .selectFrom('lightnovel')
    .select(['rating_count', 'rating_sum', 'rating_avg', 'score_hist'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const scores = (
    await db.selectFrom('lightnovel_rating').select('score').where('lightnovel_id', '=', id).execute()
  ).map((r) => r.score);
  const sum = scores.reduce((a, b) => a + b, 0);
  return {
    stored: {
      count: series.rating_count,
      sum: series.rating_sum,
      avg: series.rating_avg,
      hist: JSON.parse(series.score_hist) as number[],
    },
    counted: {
      count: scores.length,
      sum,
      avg: scores.length ? Math.round((sum * 100) / scores.length) : 0,
      hist: Array.from({ length: 10 }, (_, i) => scores.filter((s) => s === i + 1).length),
    },
  };
}

describe('light-novel ratings and favourite lists', () => {
  let app: TestApp;
  let db: Db;
  let seriesId: number;
  let otherId: number;
  let draftId: number;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    seriesId = await addSeries(db, {
      name: '星見坂図書室の四季',
      nameZh: '星见坂图书室的四季',
      aliases: ['Hoshimizaka'],
    });
    otherId = await addSeries(db, { name: '雨夜の手紙', nameZh: '雨夜信笺' });
    draftId = await addSeries(db, { name: '下書きの物語', status: 'draft' });
    const { session } = await registerUser(app, 'Reader');
    token = session.hikariAccessToken;
    userId = session.user.userId;
  });
  afterAll(async () => app.close());

  const rate = (id: number, body: unknown, as = token) =>
    call<LightnovelRatingResult>(app, 'PUT', `/lightnovel/${id}/rating`, as, body);

  it('rates, replaces and deletes one rating per member and series', async () => {
    const first = await rate(seriesId, { score: 7, text: '安静又温暖' });
    expect(first.res.status).toBe(200);
    expect(data(first.body).summary).toEqual({
      ratingAvg: 7,
      ratingCount: 1,
      scoreHistogram: [0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
    });
    expect(data(first.body).rating).toMatchObject({ score: 7, text: '安静又温暖', lightnovelId: seriesId });

    const second = data((await rate(seriesId, { score: 9 })).body);
    expect(second.summary).toEqual({ ratingAvg: 9, ratingCount: 1, scoreHistogram: [0, 0, 0, 0, 0, 0, 0, 0, 1, 0] });
    expect(second.rating).toMatchObject({ score: 9, text: '' });

    const mine = data(
      (await call<{ rating: LightnovelRatingView | null }>(app, 'GET', `/lightnovel/${seriesId}/rating`, token)).body,
    );
    expect(mine.rating?.score).toBe(9);
    expect(mine.rating?.user.userId).toBe(userId);

    const list = data(
      (await call<{ ratings: LightnovelRatingView[] }>(app, 'GET', `/lightnovel/${seriesId}/ratings?page=1&limit=5`))
        .body,
    );
    expect(list.ratings.map((r) => r.score)).toEqual([9]);

    const removed = data(
      (await call<LightnovelRatingResult>(app, 'DELETE', `/lightnovel/${seriesId}/rating`, token)).body,
    );
    expect(removed).toEqual({
      summary: { ratingAvg: null, ratingCount: 0, scoreHistogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
      rating: null,
    });
    // Deleting again changes nothing.
    expect((await call(app, 'DELETE', `/lightnovel/${seriesId}/rating`, token)).res.status).toBe(200);
    const after = await aggregates(db, seriesId);
    expect(after.stored).toEqual(after.counted);
  });

  it('keeps the count, sum, average and histogram exact under 20 concurrent ratings', async () => {
    const raters = await Promise.all(Array.from({ length: 20 }, (_, i) => registerUser(app, `NovelRater${i}`)));
    const results = await Promise.all(
      raters.map((r, i) => rate(otherId, { score: (i % 10) + 1 }, r.session.hikariAccessToken)),
    );
    expect(results.every((r) => r.res.status === 200)).toBe(true);
    // Half change their minds at the same moment while two delete theirs.
    await Promise.all([
      ...raters.slice(0, 10).map((r) => rate(otherId, { score: 10, text: '好看' }, r.session.hikariAccessToken)),
      ...raters.slice(18).map((r) => call(app, 'DELETE', `/lightnovel/${otherId}/rating`, r.session.hikariAccessToken)),
    ]);
    const { stored, counted } = await aggregates(db, otherId);
    expect(counted.count).toBe(18);
    expect(stored).toEqual(counted);
  });

  it('refuses scores that are not whole numbers from 1 to 10, and unsafe or long texts', async () => {
    for (const score of [0, 11, 1.5, '7', -1, null, true]) {
      expectFailure(await rate(seriesId, { score }), 400, 'VALIDATION_FAILED');
    }
    expectFailure(await rate(seriesId, {}), 400, 'VALIDATION_FAILED');
    expectFailure(await rate(seriesId, { score: 8, text: 'x'.repeat(501) }), 400, 'VALIDATION_FAILED');
    expectFailure(await rate(seriesId, { score: 8, text: 'bad\u0007bell' }), 400, 'VALIDATION_FAILED');
    expectFailure(await rate(seriesId, { score: 8, text: 'flip\u202Eme' }), 400, 'VALIDATION_FAILED');
    expectFailure(await rate(seriesId, { score: 8, text: 42 }), 400, 'VALIDATION_FAILED');
    expect((await rate(seriesId, { score: 8, text: 'x'.repeat(500) })).res.status).toBe(200);
    expect((await rate(seriesId, { score: 8, text: '第一行\n第二行' })).res.status).toBe(200);
    const after = await aggregates(db, seriesId);
    expect(after.stored).toEqual(after.counted);
  });

  it('answers 404 for unknown and draft series, 400 for ids written otherwise', async () => {
    for (const id of [draftId, 999_999]) {
      expectFailure(await rate(id, { score: 5 }), 404, 'NOT_FOUND');
      expectFailure(await call(app, 'DELETE', `/lightnovel/${id}/rating`, token), 404, 'NOT_FOUND');
      expectFailure(await call(app, 'GET', `/lightnovel/${id}/ratings`), 404, 'NOT_FOUND');
    }
    expect(
      (await db.selectFrom('lightnovel_rating').select('id').where('lightnovel_id', '=', draftId).execute()).length,
    ).toBe(0);
    for (const id of ['0', '012', '1e3', '0x0A', '99999999999']) {
      expectFailure(await rate(id as unknown as number, { score: 5 }), 400, 'VALIDATION_FAILED');
    }
  });

  it('needs a member for rating, and refuses cross-site requests', async () => {
    expectFailure(
      await call(app, 'PUT', `/lightnovel/${seriesId}/rating`, undefined, { score: 5 }),
      401,
      'UNAUTHORIZED',
    );
    expectFailure(await call(app, 'GET', `/lightnovel/${seriesId}/rating`), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'DELETE', `/lightnovel/${seriesId}/rating`), 401, 'UNAUTHORIZED');
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }] as Record<
      string,
      string
    >[]) {
      const res = await app.request(`/api/lightnovel/${seriesId}/rating`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'x-forwarded-for': freshIp(),
          ...headers,
        },
        body: JSON.stringify({ score: 1 }),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    }
    expect(
      (await call<{ rating: LightnovelRatingView }>(app, 'GET', `/lightnovel/${seriesId}/rating`, token)).body,
    ).toMatchObject({
      data: { rating: { score: 8 } },
    });
  });

  it('lists favourite series, with and without login, by userId and keyword', async () => {
    const { session } = await registerUser(app, 'Collector');
    const own = session.hikariAccessToken;
    for (const id of [seriesId, otherId]) {
      expect((await call(app, 'POST', '/user/favorites', own, { itemType: 'lightnovel', itemId: id })).res.status).toBe(
        200,
      );
    }
    expectFailure(
      await call(app, 'POST', '/user/favorites', own, { itemType: 'lightnovel', itemId: draftId }),
      404,
      'NOT_FOUND',
    );
    const titles = (page: LightnovelCardPage) => page.items.map((c: LightnovelCard) => c.titleZh);

    // The caller's own, then anyone's by userId (public, also without login), newest favourite first.
    const mine = data((await call<LightnovelCardPage>(app, 'GET', '/favorite/lightnovels', own)).body);
    expect(titles(mine)).toEqual(['雨夜信笺', '星见坂图书室的四季']);
    expect(mine.pagination).toMatchObject({ page: 1, total: 2 });
    const publicList = data(
      (await call<LightnovelCardPage>(app, 'GET', `/favorite/lightnovels?limit=1&userId=${session.user.userId}`)).body,
    );
    expect(titles(publicList)).toEqual(['雨夜信笺']);
    expect(publicList.pagination).toMatchObject({ total: 2, totalPages: 2, limit: 1 });
    const byObjectId = data(
      (await call<LightnovelCardPage>(app, 'GET', `/favorite/lightnovels?userId=${session.user._id}`)).body,
    );
    expect(byObjectId.pagination.total).toBe(2);

    // The keyword looks in the original, Chinese and other names.
    for (const [keyword, expected] of [
      ['图书室', ['星见坂图书室的四季']],
      ['手紙', ['雨夜信笺']],
      ['hoshimi', ['星见坂图书室的四季']],
      ['100%', []],
      // The other names are stored as a JSON list; its quotes and commas match nothing.
      ['"', []],
      ['","', []],
    ] as const) {
      const page = data(
        (
          await call<LightnovelCardPage>(
            app,
            'GET',
            `/favorite/lightnovels?userId=${session.user.userId}&keyword=${encodeURIComponent(keyword)}`,
          )
        ).body,
      );
      expect(titles(page), keyword).toEqual(expected);
    }

    expectFailure(await call(app, 'GET', '/favorite/lightnovels'), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', '/favorite/lightnovels?userId=987654'), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', '/favorite/lightnovels?userId=abc'), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', `/favorite/lightnovels?userId=${userId}&limit=101`), 400, 'VALIDATION_FAILED');

    // The caller's whole favourites list carries the series' cards.
    const all = data((await call<FavoriteList>(app, 'GET', '/user/favorites?page=1&limit=10', own)).body);
    expect(all.items.map((i) => [i.itemType, i.lightnovel?.titleZh ?? null, i.galgame])).toEqual([
      ['lightnovel', '雨夜信笺', null],
      ['lightnovel', '星见坂图书室的四季', null],
    ]);

    // A series that is no longer published leaves the public list.
    await db.updateTable('lightnovel').set({ status: 'draft' }).where('id', '=', otherId).execute();
    const hidden = data(
      (await call<LightnovelCardPage>(app, 'GET', `/favorite/lightnovels?userId=${session.user.userId}`)).body,
    );
    expect(titles(hidden)).toEqual(['星见坂图书室的四季']);
    await db.updateTable('lightnovel').set({ status: 'published' }).where('id', '=', otherId).execute();
  });

  it('removing a member removes their ratings and recounts the series in the same transaction', async () => {
    const leaving = await registerUser(app, 'Leaving');
    const staying = await registerUser(app, 'Staying');
    await rate(seriesId, { score: 2 }, leaving.session.hikariAccessToken);
    await rate(otherId, { score: 1, text: '再见' }, leaving.session.hikariAccessToken);
    await rate(seriesId, { score: 10 }, staying.session.hikariAccessToken);
    const before = await aggregates(db, seriesId);
    expect(before.stored).toEqual(before.counted);

    const removed = await removeUser({ db, targets: app.ctx.targets }, leaving.session.user._id);
    expect(removed.name).toBe('Leaving');
    const left = await db
      .selectFrom('lightnovel_rating')
      .select('id')
      .where('user_id', '=', leaving.session.user._id)
      .execute();
    expect(left).toEqual([]);
    for (const id of [seriesId, otherId]) {
      const { stored, counted } = await aggregates(db, id);
      expect(stored).toEqual(counted);
    }
    expect((await aggregates(db, seriesId)).stored.count).toBe(before.stored.count - 1);
    const summary = data(
      (await call<{ ratings: LightnovelRatingView[] }>(app, 'GET', `/lightnovel/${seriesId}/ratings`)).body,
    );
    expect(summary.ratings.some((r) => r.user.name === 'Leaving')).toBe(false);
  });
});
