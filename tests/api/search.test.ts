import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiResponse } from '../../src/shared/api.ts';
import type { SearchResultPage, SearchSuggestion, TrendingItem } from '../../src/shared/search/search-model.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { indexVersion, INDEX_VERSION } from '../../src/server/modules/search/search.index.ts';
import { SEARCH_LIMITS } from '../../src/server/modules/search/search.limits.ts';
import { searchPageLimit } from '../../src/server/modules/search/search.page.ts';
import { translator } from '../../src/shared/i18n/catalogues.ts';
import { translateRef } from '../../src/shared/i18n/index.ts';
import { blockKeyword, recordSearch, trendingKeywords } from '../../src/server/modules/search/search.trending.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { data, expectFailure, type Answer } from '../support/accounts.ts';
import { createTestApp, jobsSettled, type TestApp } from '../support/test-app.ts';

// The search API (spec §7 Search v2, decision 024): validation, results, trending that one client
// cannot push, suggestions, and the index rebuilt at start when its version changes.
describe('search API', () => {
  let app: TestApp;

  const get = async <T>(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<Answer & { body: ApiResponse<T> }> => {
    const res = await app.request(`/api${path}`, { headers: { 'x-forwarded-for': '10.20.0.1', ...headers } });
    return { res, body: (await res.json()) as ApiResponse<T> };
  };

  beforeAll(async () => {
    app = await createTestApp();
    for (const [title, titleZh] of [
      ['サクラノ詩', '樱之诗'],
      ['サクラノ刻', '樱之刻'],
      ['WHITE ALBUM2', '白色相簿2'],
      ['Summer Pockets', '夏日口袋'],
    ] as const) {
      await saveGalgame(app.ctx.db, { title, titleZh, releaseDate: '2020-01-01' });
    }
  });
  afterAll(() => app?.close());

  it('rebuilds the index once at start when it was built by other rules', async () => {
    await jobsSettled(app, { name: 'search.reindex', seconds: 10, what: 'the index rebuild' });
    expect(await indexVersion(app.ctx.db)).toBe(INDEX_VERSION);
  });

  it('finds, counts and highlights', async () => {
    const result = data((await get<SearchResultPage>('/search?keyword=%E6%AB%BB')).body);
    expect(result.items.map((i) => (i.type === 'galgame' ? i.galgame.titleZh : ''))).toEqual(['樱之诗', '樱之刻']);
    expect(result.counts.galgame).toBe(2);
    expect(result.relativeMatch).toBe(true);
    expect(result.items[0]?.matched.ranges).toEqual([[0, 1]]);
    const producer = data((await get<SearchResultPage>('/search?keyword=key&type=producer')).body);
    expect(producer).toMatchObject({ relativeMatch: false, items: [] });
  });

  it.each([
    ['/search', 'no keyword'],
    ['/search?keyword=', 'blank keyword'],
    ['/search?keyword=%20%20', 'spaces only'],
    [`/search?keyword=${'恋'.repeat(101)}`, 'too long'],
    ['/search?keyword=a%00b', 'control character'],
    ['/search?keyword=a%E2%80%AEb', 'bidi override'],
    ['/search?keyword=fate&type=novelx', 'unknown type'],
    ['/search?keyword=fate&relative_match=yes', 'relative_match not true/false'],
    ['/search?keyword=fate&page=0', 'page 0'],
    ['/search?keyword=fate&page=51', 'page past the last one'],
    ['/search?keyword=fate&limit=51', 'limit too big'],
    ['/search/suggest', 'no prefix'],
    [`/search/suggest?prefix=${'a'.repeat(51)}`, 'prefix too long'],
    ['/search/suggest?prefix=a&limit=21', 'suggest limit too big'],
    ['/search/trending?window=1y', 'unknown window'],
    ['/search/trending?limit=21', 'trending limit too big'],
  ])('refuses %s (%s) with 400', async (path) => {
    expectFailure(await get(path), 400, 'VALIDATION_FAILED');
  });

  it('answers punctuation-only keywords with no results instead of an error', async () => {
    const result = data((await get<SearchResultPage>('/search?keyword=%22%27%25*')).body);
    expect(result).toMatchObject({ items: [], pagination: { total: 0 } });
  });

  it('counts a searcher once per keyword and hour: one client cannot push a keyword', async () => {
    for (let i = 0; i < 20; i++) await get('/search?keyword=%E5%A4%8F%E6%97%A5', { 'x-forwarded-for': '10.30.0.1' });
    for (const ip of ['10.30.0.2', '10.30.0.3']) await get('/search?keyword=%E6%A8%B1', { 'x-forwarded-for': ip });
    // A member counts by account, whatever address they come from.
    const user = await createUser(app.ctx.db, { name: 'searcher', email: 's@example.test', passwordHash: 'x' });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    for (const ip of ['10.30.1.1', '10.30.1.2', '10.30.1.3'])
      await get('/search?keyword=%E5%A4%8F%E6%97%A5', { 'x-forwarded-for': ip, authorization: `Bearer ${token}` });
    const trending = await trendingKeywords(app.ctx.db, { limit: 20, window: '24h' });
    // 櫻 was also searched by the first test's address; traditional and simplified are one keyword.
    expect(trending).toEqual([
      { keyword: '樱', count: 3 },
      { keyword: '夏日', count: 2 },
    ]);
    // Nor do searches another site's page makes its visitors' browsers send.
    for (const [ip, site] of [
      ['10.30.2.1', 'cross-site'],
      ['10.30.2.2', 'same-site'],
      ['10.30.2.3', 'cross-site'],
    ] as const)
      await get('/search?keyword=%E5%A4%8F%E6%97%A5', { 'x-forwarded-for': ip, 'sec-fetch-site': site });
    await get('/search?keyword=%E5%A4%8F%E6%97%A5', {
      'x-forwarded-for': '10.30.2.4',
      'sec-fetch-site': 'same-origin',
    });
    const after = await trendingKeywords(app.ctx.db, { limit: 20, window: '24h' });
    expect(after.find((item) => item.keyword === '夏日')).toEqual({ keyword: '夏日', count: 3 });
    // Searches that find nothing do not count.
    await get('/search?keyword=zzzz-nothing', { 'x-forwarded-for': '10.30.0.9' });
    expect((await trendingKeywords(app.ctx.db, { limit: 20, window: '24h' })).map((t) => t.keyword)).not.toContain(
      'zzzz-nothing',
    );
  });

  it('keeps blocked keywords out of trending and suggestions, and old searches out of short windows', async () => {
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await recordSearch(app.ctx.db, { keyword: 'old news', actor: 'ip:1', now: twoHoursAgo });
    await recordSearch(app.ctx.db, { keyword: 'spam word', actor: 'ip:1' });
    await recordSearch(app.ctx.db, { keyword: 'spam word', actor: 'ip:2' });
    await blockKeyword(app.ctx.db, 'SPAM  word');
    const lastHour = (await trendingKeywords(app.ctx.db, { limit: 20, window: '1h' })).map((t) => t.keyword);
    expect(lastHour).not.toContain('old news');
    expect(lastHour).not.toContain('spam word');
    expect((await trendingKeywords(app.ctx.db, { limit: 20, window: '24h' })).map((t) => t.keyword)).toContain(
      'old news',
    );
    const suggestions = data((await get<SearchSuggestion[]>('/search/suggest?prefix=spam')).body);
    expect(suggestions).toEqual([]);
  });

  it('serves trending to anyone, limited', async () => {
    const items = data((await get<TrendingItem[]>('/search/trending?limit=1')).body);
    expect(items).toHaveLength(1);
  });

  describe('budgets per address', () => {
    // A window boundary: every 10-second budget starts here.
    const T0 = new Date('2026-12-01T00:00:00.000Z');
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(T0);
    });
    afterEach(() => vi.useRealTimers());

    it('answers a burst past a budget with 429 RATE_LIMITED and Retry-After; other addresses search on', async () => {
      const flooder = { 'x-forwarded-for': '10.40.0.1', cookie: 'hikari_locale=en' };
      const paths = {
        search: '/search?keyword=zzzz-nothing',
        suggest: '/search/suggest?prefix=zzzz',
        trending: '/search/trending?limit=5',
      } as const;
      for (const [call, path] of Object.entries(paths) as [keyof typeof paths, string][]) {
        const { limit } = SEARCH_LIMITS[call];
        const answers = await Promise.all(Array.from({ length: limit + 20 }, () => get(path, flooder)));
        expect(answers.filter((a) => a.res.status === 200)).toHaveLength(limit);
        const refused = answers.filter((a) => a.res.status !== 200);
        expect(refused).toHaveLength(20);
        for (const answer of refused) expectFailure(answer, 429, 'RATE_LIMITED');
        expect(refused[0]!.res.headers.get('retry-after')).toBe('10');
        expect(refused[0]!.body.message).toBe('Too many searches; please try again in 10 s');
      }
      // Other addresses search on; the flooder again in the next window, told how long to wait before it.
      expect((await get(paths.search, { 'x-forwarded-for': '10.40.0.2' })).res.status).toBe(200);
      vi.setSystemTime(T0.getTime() + 7_000);
      expect((await get(paths.search, flooder)).res.headers.get('retry-after')).toBe('3');
      vi.setSystemTime(T0.getTime() + 10_000);
      expect((await get(paths.search, flooder)).res.status).toBe(200);
    });

    it('counts opening /search in the same budget as the API, and tells the page how long to wait', async () => {
      const ip = '10.40.2.1';
      for (let i = 0; i < SEARCH_LIMITS.search.limit / 2; i++)
        expect((await get('/search?keyword=zzzz-nothing', { 'x-forwarded-for': ip })).res.status).toBe(200);
      vi.setSystemTime(T0.getTime() + 4_000);
      const page = { app: app.ctx, clientIp: ip };
      for (let i = 0; i < SEARCH_LIMITS.search.limit / 2; i++) expect(await searchPageLimit(page)).toBeNull();
      const limited = await searchPageLimit(page);
      expect(limited?.retryAfter).toBe(6);
      expect(translateRef(translator('zh-CN'), limited!.message)).toBe('搜索太频繁了，请 6 秒后再试');
      expect((await get('/search?keyword=zzzz-nothing', { 'x-forwarded-for': ip })).res.status).toBe(429);
    });

    it('never refuses people typing: six at the fastest the browser asks, one address, a minute long', async () => {
      const statuses = new Set<number>();
      for (let tick = 0; tick < 5 * 60; tick++) {
        vi.setSystemTime(T0.getTime() + tick * 200);
        const typed = await Promise.all(
          Array.from({ length: 6 }, (_, person) =>
            get(`/search/suggest?prefix=${'sakura'.slice(0, 1 + ((tick + person) % 6))}`, {
              'x-forwarded-for': '10.40.1.1',
            }),
          ),
        );
        for (const answer of typed) statuses.add(answer.res.status);
        // Each of them submits a search every two seconds, and a page of trending now and then.
        if (tick % 10 === 0) {
          for (let person = 0; person < 6; person++)
            statuses.add((await get('/search?keyword=sakura', { 'x-forwarded-for': '10.40.1.1' })).res.status);
          statuses.add((await get('/search/trending', { 'x-forwarded-for': '10.40.1.1' })).res.status);
        }
      }
      expect([...statuses]).toEqual([200]);
    }, 60_000);
  });

  it('suggests titles by prefix, then popular searches', async () => {
    const suggestions = data((await get<SearchSuggestion[]>('/search/suggest?prefix=%E6%AB%BB&limit=5')).body);
    expect(suggestions.map((s) => s.keyword)).toEqual(['樱之诗', '樱之刻', '樱']);
    const none = data((await get<SearchSuggestion[]>('/search/suggest?prefix=%25')).body);
    expect(none).toEqual([]);
  });
});
