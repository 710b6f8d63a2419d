import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/shared/api.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { translator } from '../../src/shared/i18n/catalogues.ts';
import type { Locale } from '../../src/shared/i18n/index.ts';
import { freshIp, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const HAN = /\p{Script=Han}/u;

/** The API answers in the language of the `hikari_locale` cookie, like the pages; zh-CN without one. */
describe('API messages in the request language', () => {
  let app: TestApp;
  let gameId: number;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    gameId = await saveGalgame(app.ctx.db, { title: '言語のテスト', titleZh: '语言测试' });
    token = (await registerUser(app, 'Polyglot')).session.hikariAccessToken;
  });
  afterAll(async () => app.close());

  async function send(locale: Locale | null, method: string, path: string, body?: unknown, auth?: string) {
    const res = await app.request(`/api${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': freshIp(),
        ...(locale ? { cookie: `theme=dark; hikari_locale=${locale}` } : {}),
        ...(auth ? { authorization: `Bearer ${auth}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as ApiResponse<unknown> };
  }

  const invalidLogin = (locale: Locale | null) => send(locale, 'POST', '/v2/user/login', { account: '', password: '' });
  const missingGame = (locale: Locale | null) => send(locale, 'GET', '/galgame/99999999/downloads');
  const noLogin = (locale: Locale | null) => send(locale, 'GET', '/user/favorites');

  it('writes a validation failure, its field issues, a 404 and a 401 in English for an English request', async () => {
    const en = translator('en');
    const invalid = await invalidLogin('en');
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_FAILED');
    expect(invalid.body.message).toBe('User name or email is required');
    const issues = (invalid.body.data as { issues: { path: string; message: string }[] }).issues;
    expect(issues).toContainEqual({ path: 'password', message: en('validation.password.required') });

    const missing = await missingGame('en');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Galgame 99999999 not found');

    const unauthorized = await noLogin('en');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body.message).toBe('Please log in first');

    for (const answer of [invalid, missing, unauthorized]) expect(answer.body.message).not.toMatch(HAN);
    for (const issue of issues) expect(issue.message).not.toMatch(HAN);
  });

  it('writes the same answers in Chinese without a cookie, or with an unknown language', async () => {
    for (const locale of [null, 'zh-CN', 'fr' as Locale] as const) {
      expect((await invalidLogin(locale)).body.message).toBe('请输入用户名或邮箱');
      expect((await missingGame(locale)).body.message).toBe('Galgame 99999999 不存在');
      expect((await noLogin(locale)).body.message).toBe('请先登录');
    }
  });

  it('writes a 429 in the request language, with its wait', async () => {
    for (const [locale, email] of [
      ['en', 'wait-en@example.test'],
      ['zh-CN', 'wait-zh@example.test'],
    ] as const) {
      const request = () => send(locale, 'POST', '/v2/email/verification-code/request', { email, type: 'register' });
      expect((await request()).status).toBe(200);
      const again = await request();
      expect(again.status).toBe(429);
      const seconds = (again.body.data as { retryAfter: number }).retryAfter;
      expect(again.body.message).toBe(translator(locale)('server.codeCooldown', { seconds }));
      expect(HAN.test(again.body.message)).toBe(locale === 'zh-CN');
    }
  });

  it('writes success messages in the request language', async () => {
    const target = { itemType: 'galgame', itemId: gameId };
    const added = await send('en', 'POST', '/user/favorites', target, token);
    expect(added.status).toBe(200);
    expect(added.body.message).toBe('Added to favourites');
    const removed = await send(null, 'DELETE', `/user/favorites/galgame/${gameId}`, undefined, token);
    expect(removed.body.message).toBe('已取消收藏');
  });

  it('writes the refusals of the contract routes and the target registry in the request language', async () => {
    const missing = await send('en', 'POST', '/user/favorites', { itemType: 'galgame', itemId: 99999999 }, token);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('The item to favourite does not exist');
    const zhMissing = await send(null, 'POST', '/user/favorites', { itemType: 'galgame', itemId: 99999999 }, token);
    expect(zhMissing.body.message).toBe('收藏的内容不存在');
    const badType = await send('en', 'DELETE', '/user/favorites/nonsense/1', undefined, token);
    expect(badType.status).toBe(400);
    expect(badType.body.message).not.toMatch(HAN);
    const badPage = await send('en', 'GET', '/user/favorites?page=0', undefined, token);
    expect(badPage.status).toBe(400);
    expect(badPage.body.message).not.toMatch(HAN);
    const rated = await send('en', 'PUT', `/galgame/${gameId}/rating`, { score: 8, status: 'completed' }, token);
    expect(rated.status).toBe(200);
    expect(rated.body.message).toBe('Rating saved');
  });

  it('writes the answer for an unknown API address in the request language', async () => {
    const answer = await send('en', 'GET', '/no-such-endpoint');
    expect(answer.status).toBe(404);
    expect(answer.body.message).not.toMatch(HAN);
    expect(answer.body.message).toContain('/api/no-such-endpoint');
  });
});
