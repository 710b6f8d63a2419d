import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadView, GalgameCard, Pagination, RatingSummary } from '../../src/shared/catalogue.ts';
import { saveGalgame, upsertProducer, upsertTag } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { call, data, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('catalogue API: favourites, ratings, downloads', () => {
  let app: TestApp;
  let gameId: number;
  let hiddenId: number;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    app = await createTestApp();
    const db = app.ctx.db;
    const producerId = await upsertProducer(db, { name: '試験工房', nameZh: '试验工房' });
    const tagId = await upsertTag(db, { name: 'summer', nameZh: '夏日' });
    gameId = await saveGalgame(db, {
      title: '夏空のテスト',
      titleZh: '夏空测试',
      releaseDate: '2025-07-01',
      platforms: ['windows'],
      tags: [{ tagId, votes: 10 }],
      producers: [{ producerId, role: 'developer' }],
      downloads: [
        {
          language: 'zh-Hans',
          platform: 'windows',
          translationType: 'fan',
          translationGroup: '试验汉化组',
          sizeBytes: 1024,
          links: [
            { label: '网盘 A', url: 'https://example.com/a', password: 'hk2026' },
            { label: '网盘 B', url: 'https://example.org/b' },
          ],
        },
      ],
    });
    hiddenId = await saveGalgame(db, { title: '下書き', status: 'draft' });
    const { session } = await registerUser(app, 'Collector');
    token = session.hikariAccessToken;
    userId = session.user.userId;
  });
  afterAll(async () => app.close());

  it('favourites are idempotent under double clicks, and counted once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        call<{ isFavorited: boolean; favoriteCount: number }>(app, 'POST', '/user/favorites', token, {
          itemType: 'galgame',
          itemId: gameId,
        }),
      ),
    );
    expect(results.every((r) => r.res.status === 200)).toBe(true);
    const check = data(
      (
        await call<{ isFavorited: boolean; favoriteCount: number }>(
          app,
          'GET',
          `/user/favorites/check?itemType=galgame&itemId=${gameId}`,
          token,
        )
      ).body,
    );
    expect(check).toEqual({ isFavorited: true, favoriteCount: 1 });
    const list = data(
      (
        await call<{ items: { itemId: number; galgame: GalgameCard | null }[] }>(
          app,
          'GET',
          '/user/favorites?page=1&limit=10',
          token,
        )
      ).body,
    );
    expect(list.items.map((i) => i.itemId)).toEqual([gameId]);
    expect(list.items[0]?.galgame?.titleZh).toBe('夏空测试');

    // Public list, readable without logging in.
    const pub = data(
      (
        await call<{ items: GalgameCard[]; pagination: Pagination }>(
          app,
          'GET',
          `/favorite/galgames?userId=${userId}&page=1&limit=10`,
        )
      ).body,
    );
    expect(pub.items.map((g) => g.id)).toEqual([gameId]);
    const keyword = data(
      (
        await call<{ items: GalgameCard[] }>(
          app,
          'GET',
          `/favorite/galgames?userId=${userId}&keyword=${encodeURIComponent('测试')}`,
        )
      ).body,
    );
    expect(keyword.items).toHaveLength(1);
    const upper = data(
      (
        await call<{ items: GalgameCard[] }>(
          app,
          'GET',
          `/favorite/galgames?userId=${userId}&keyword=${encodeURIComponent('夏空のテ')}`,
        )
      ).body,
    );
    expect(upper.items).toHaveLength(1);
    const percent = data(
      (
        await call<{ items: GalgameCard[] }>(
          app,
          'GET',
          `/favorite/galgames?userId=${userId}&keyword=${encodeURIComponent('%')}`,
        )
      ).body,
    );
    expect(percent.items).toHaveLength(0);
    const none = data(
      (await call<{ items: GalgameCard[] }>(app, 'GET', `/favorite/galgames?userId=${userId}&keyword=nothing`)).body,
    );
    expect(none.items).toHaveLength(0);

    const removed = await Promise.all(
      [1, 2].map(() =>
        call<{ isFavorited: boolean; favoriteCount: number }>(
          app,
          'DELETE',
          `/user/favorites/galgame/${gameId}`,
          token,
        ),
      ),
    );
    expect(removed.map((r) => data(r.body))).toEqual([
      { isFavorited: false, favoriteCount: 0 },
      { isFavorited: false, favoriteCount: 0 },
    ]);
  });

  it('refuses favourites of missing or unpublished items, and without login', async () => {
    expect(
      (await call(app, 'POST', '/user/favorites', token, { itemType: 'galgame', itemId: 999999 })).res.status,
    ).toBe(404);
    expect(
      (await call(app, 'POST', '/user/favorites', token, { itemType: 'galgame', itemId: hiddenId })).res.status,
    ).toBe(404);
    expect((await call(app, 'POST', '/user/favorites', token, { itemType: 'movie', itemId: gameId })).res.status).toBe(
      400,
    );
    expect(
      (await call(app, 'POST', '/user/favorites', undefined, { itemType: 'galgame', itemId: gameId })).res.status,
    ).toBe(401);
    expect((await call(app, 'GET', '/favorite/galgames')).res.status).toBe(400);
  });

  it('keeps the average and histogram exact under 20 concurrent raters', async () => {
    const raters = await Promise.all(Array.from({ length: 20 }, (_, i) => registerUser(app, `Rater${i}`)));
    const scores = raters.map((_, i) => (i % 10) + 1);
    const results = await Promise.all(
      raters.map((r, i) =>
        call<{ summary: RatingSummary }>(app, 'PUT', `/galgame/${gameId}/rating`, r.session.hikariAccessToken, {
          score: scores[i],
          status: 'completed',
        }),
      ),
    );
    expect(results.every((r) => r.res.status === 200)).toBe(true);
    // Half of them change their minds at the same moment; one deletes.
    await Promise.all(
      raters.slice(0, 10).map((r) =>
        call(app, 'PUT', `/galgame/${gameId}/rating`, r.session.hikariAccessToken, {
          score: 10,
          status: 'completed',
          text: '神作',
          spoiler: false,
        }),
      ),
    );
    await call(app, 'DELETE', `/galgame/${gameId}/rating`, raters[19]!.session.hikariAccessToken);

    const rows = await app.ctx.db.selectFrom('rating').select('score').where('galgame_id', '=', gameId).execute();
    const game = await app.ctx.db
      .selectFrom('galgame')
      .select(['rating_count', 'rating_sum', 'rating_avg', 'score_hist'])
      .where('id', '=', gameId)
      .executeTakeFirstOrThrow();
    const sum = rows.reduce((s, r) => s + r.score, 0);
    const hist = Array.from({ length: 10 }, (_, i) => rows.filter((r) => r.score === i + 1).length);
    expect(game.rating_count).toBe(19);
    expect(game.rating_sum).toBe(sum);
    expect(game.rating_avg).toBe(Math.round((sum * 100) / 19));
    expect(JSON.parse(game.score_hist)).toEqual(hist);
  });

  it('one rating per user and game: a second save edits it', async () => {
    const first = await call<{ summary: RatingSummary }>(app, 'PUT', `/galgame/${gameId}/rating`, token, {
      score: 7,
      status: 'playing',
    });
    const count = data(first.body).summary.ratingCount;
    const second = await call<{ summary: RatingSummary; rating: { score: number; text: string; spoiler: boolean } }>(
      app,
      'PUT',
      `/galgame/${gameId}/rating`,
      token,
      {
        score: 9,
        status: 'completed',
        text: '结局让我哭了',
        spoiler: true,
      },
    );
    expect(data(second.body).summary.ratingCount).toBe(count);
    expect(data(second.body).rating).toMatchObject({ score: 9, text: '结局让我哭了', spoiler: true });
    for (const bad of [
      { score: 0, status: 'completed' },
      { score: 11, status: 'completed' },
      { score: 5.5, status: 'completed' },
      { score: 5, status: 'bored' },
    ]) {
      expect((await call(app, 'PUT', `/galgame/${gameId}/rating`, token, bad)).res.status).toBe(400);
    }
    expect((await call(app, 'PUT', `/galgame/999999/rating`, token, { score: 5, status: 'plan' })).res.status).toBe(
      404,
    );
    const list = data(
      (await call<{ ratings: { user: { name: string } }[] }>(app, 'GET', `/galgame/${gameId}/ratings?page=1&limit=5`))
        .body,
    );
    expect(list.ratings.length).toBe(5);
  });

  it('shows extraction passwords only to logged-in viewers', async () => {
    const anon = data(
      (await call<{ downloads: DownloadView[] }>(app, 'GET', `/galgame/${gameId}/downloads`)).body,
    ).downloads;
    expect(anon[0]?.links.map((l) => [l.password, l.hasPassword])).toEqual([
      [null, true],
      [null, false],
    ]);
    const member = data(
      (await call<{ downloads: DownloadView[] }>(app, 'GET', `/galgame/${gameId}/downloads`, token)).body,
    ).downloads;
    expect(member[0]?.links[0]?.password).toBe('hk2026');
    expect((await call(app, 'GET', `/galgame/${hiddenId}/downloads`)).res.status).toBe(404);
    expect((await call(app, 'GET', `/galgame/abc/downloads`)).res.status).toBe(400);
  });

  it('marks a link suspect after 3 reports from different users; repeats do not count', async () => {
    const linkId = data((await call<{ downloads: DownloadView[] }>(app, 'GET', `/galgame/${gameId}/downloads`)).body)
      .downloads[0]!.links[1]!.id;
    const reporters = await Promise.all([0, 1, 2].map((i) => registerUser(app, `Reporter${i}`)));
    const first = await call<{ reportCount: number; suspect: boolean }>(
      app,
      'POST',
      `/galgame/download-link/${linkId}/report`,
      reporters[0]!.session.hikariAccessToken,
      { reason: '链接打不开' },
    );
    expect(data(first.body)).toMatchObject({ reportCount: 1, suspect: false });
    const again = await call<{ reportCount: number }>(
      app,
      'POST',
      `/galgame/download-link/${linkId}/report`,
      reporters[0]!.session.hikariAccessToken,
      {},
    );
    expect(data(again.body).reportCount).toBe(1);
    await Promise.all(
      reporters
        .slice(1)
        .map((r) => call(app, 'POST', `/galgame/download-link/${linkId}/report`, r.session.hikariAccessToken, {})),
    );
    const view = data(
      (
        await call<{ downloads: DownloadView[] }>(
          app,
          'GET',
          `/galgame/${gameId}/downloads`,
          reporters[0]!.session.hikariAccessToken,
        )
      ).body,
    ).downloads[0]!.links[1]!;
    expect(view).toMatchObject({ reportCount: 3, suspect: true, reportedByMe: true });
    expect((await call(app, 'POST', `/galgame/download-link/${linkId}/report`, undefined, {})).res.status).toBe(401);
    expect((await call(app, 'POST', `/galgame/download-link/999999/report`, token, {})).res.status).toBe(404);
  });

  it("answers 404 for a report of an unpublished game's link, and counts nothing", async () => {
    const db = app.ctx.db;
    const draft = await saveGalgame(db, {
      title: '下書きの DL',
      status: 'draft',
      downloads: [
        { language: 'ja', platform: 'windows', translationType: 'none', links: [{ url: 'https://x.test/d' }] },
      ],
    });
    const link = await db
      .selectFrom('download_link as l')
      .innerJoin('galgame_download as d', 'd.id', 'l.download_id')
      .select(['l.id', 'l.report_count'])
      .where('d.galgame_id', '=', draft)
      .executeTakeFirstOrThrow();
    const answer = await call(app, 'POST', `/galgame/download-link/${link.id}/report`, token, { reason: '失效' });
    expect(answer.res.status).toBe(404);
    const after = await db.selectFrom('link_report').select('link_id').where('link_id', '=', link.id).execute();
    expect(after).toEqual([]);
  });
});
