import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionData, SessionUser } from '../../src/shared/auth.ts';
import { createMediaApp } from '../../src/server/modules/media/media.app.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { call, data, post, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/** Numbers written any way but as a JSON number, in a body. */
const NOT_JSON_NUMBERS: [string, unknown][] = [
  ['true', true],
  ['[5]', [5]],
  ['"0x0A"', '0x0A'],
  ['"1e3"', '1e3'],
  ['" 5"', ' 5'],
  ['"5"', '5'],
  ['null', null],
  ['5.5', 5.5],
];
/** Ids written any way but plain decimal digits, in a path or query. */
const NOT_DECIMAL_IDS = ['0x0A', '1e3', '%205', '012', '+5', '-1', '5.0', '0', '1%00', '９'];

describe('strict input on every route', () => {
  let app: TestApp;
  let token: string;
  let gameId: number;
  beforeAll(async () => {
    app = await createTestApp();
    gameId = await saveGalgame(app.ctx.db, { title: 'Strict Input', releaseDate: '2024-01-01' });
    token = (await registerUser(app, 'Strict')).session.hikariAccessToken;
  });
  afterAll(async () => app.close());

  const expect400 = (r: { res: Response; body: { code: string } }) => {
    expect(r.res.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_FAILED');
  };

  // Ids are 32-bit integer columns on PostgreSQL: a larger id must be refused before any query, on
  // either database, instead of failing the query.
  describe('ids beyond what a row can have', () => {
    const TOO_BIG = 2_147_483_648;
    it('refuses them in paths, queries and bodies of the catalogue and users', async () => {
      expect400(await call(app, 'GET', `/user/profile/${TOO_BIG}`));
      expect400(await call(app, 'GET', `/galgame/${TOO_BIG}/ratings`));
      expect400(await call(app, 'GET', `/user/favorites/check?itemType=galgame&itemId=${TOO_BIG}`, token));
      expect400(await call(app, 'POST', '/user/favorites', token, { itemType: 'galgame', itemId: TOO_BIG }));
      expect400(await call(app, 'DELETE', `/user/favorites/post/${TOO_BIG}`, token));
      expect((await call(app, 'GET', `/user/profile/${TOO_BIG - 1}`)).res.status).toBe(404);
    });
  });

  describe('numbers in bodies are JSON numbers', () => {
    it.each(NOT_JSON_NUMBERS)('refuses a rating score of %s', async (_name, score) => {
      expect400(await call(app, 'PUT', `/galgame/${gameId}/rating`, token, { score, status: 'playing' }));
      expect((await call(app, 'GET', `/galgame/${gameId}/rating`, token)).body).toMatchObject({
        data: { rating: null },
      });
    });

    it.each(NOT_JSON_NUMBERS)('refuses a favourite itemId of %s', async (_name, itemId) => {
      expect400(await call(app, 'POST', '/user/favorites', token, { itemType: 'galgame', itemId }));
    });

    it('accepts real JSON numbers', async () => {
      expect(
        (await call(app, 'PUT', `/galgame/${gameId}/rating`, token, { score: 7, status: 'playing' })).res.status,
      ).toBe(200);
      expect(
        (await call(app, 'POST', '/user/favorites', token, { itemType: 'galgame', itemId: gameId })).res.status,
      ).toBe(200);
      expect400(
        await call(app, 'PUT', `/galgame/${gameId}/rating`, token, { score: 7, status: 'playing', spoiler: 'yes' }),
      );
    });
  });

  describe('ids and numbers in paths and queries are decimal digits', () => {
    it.each(NOT_DECIMAL_IDS)('refuses the galgame id %s', async (id) => {
      expect400(await call(app, 'GET', `/galgame/${id}/ratings`));
      expect400(await call(app, 'GET', `/galgame/${id}/downloads`));
      expect400(await call(app, 'PUT', `/galgame/${id}/rating`, token, { score: 5, status: 'playing' }));
      expect400(await call(app, 'DELETE', `/user/favorites/galgame/${id}`, token));
      expect400(await call(app, 'POST', `/galgame/download-link/${id}/report`, token, {}));
      expect400(await call(app, 'GET', `/user/favorites/check?itemType=galgame&itemId=${id}`, token));
      expect400(await call(app, 'GET', `/favorite/galgames?userId=${id}`));
      expect400(await call(app, 'GET', `/user/profile/${id}`));
    });

    it.each(['0x02', '1e1', '%202', '+2', '2.0', '-1', '0'])('refuses page=%s and limit=%s', async (n) => {
      expect400(await call(app, 'GET', `/galgame/${gameId}/ratings?page=${n}`));
      expect400(await call(app, 'GET', `/galgame/${gameId}/ratings?limit=${n}`));
      expect400(await call(app, 'GET', `/user/favorites?page=${n}`, token));
    });

    it('accepts plain decimal ids and numbers', async () => {
      expect((await call(app, 'GET', `/galgame/${gameId}/ratings?page=1&limit=5`)).res.status).toBe(200);
      expect(
        (await call(app, 'GET', `/user/favorites/check?itemType=galgame&itemId=${gameId}`, token)).res.status,
      ).toBe(200);
      expect((await call(app, 'GET', '/galgame/999999/ratings')).res.status).toBe(404);
    });

    it('refuses image sizes, quality and blur written other than in decimal', async () => {
      const media = createMediaApp(app.ctx);
      for (const q of ['w=0x40', 'w=1e2', 'h=%2064', 'q=+80', 'w=64.0', 'blur=1e1', 'blur=-2', 'blur=0x5']) {
        const res = await media.request(`/img?url=${encodeURIComponent('/media/none.png')}&${q}`);
        expect(res.status).toBe(400);
        expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
      }
      // The same request with plain decimals gets past the parameters (to the missing source).
      const plain = await media.request(`/img?url=${encodeURIComponent('/media/none.png')}&w=64&q=80&blur=1.5`);
      expect(plain.status).toBe(404);
    });
  });

  describe("members' spaces and notifications", () => {
    const spaceLists = ['comments', 'dynamic', 'ratings', 'following', 'followers'];
    it.each([...NOT_DECIMAL_IDS, '2147483648'])('refuses the user id %s on every space route', async (id) => {
      expect400(await call(app, 'GET', `/user/statistics/${id}`));
      for (const list of spaceLists) expect400(await call(app, 'GET', `/v2/user/${id}/${list}`));
      expect400(await call(app, 'GET', `/comments/${id}/thread`));
    });

    it.each(['0x02', '1e1', '%202', '+2', '2.0', '-1', '0', '100000'])('refuses page and limit %s', async (n) => {
      for (const list of spaceLists) {
        expect400(await call(app, 'GET', `/v2/user/1/${list}?page=${n}`));
        expect400(await call(app, 'GET', `/v2/user/1/${list}?limit=${n}`));
      }
      expect400(await call(app, 'GET', `/v2/user/notifications?page=${n}`, token));
      expect400(await call(app, 'GET', `/v2/user/notifications?limit=${n}`, token));
    });

    it('refuses unknown filters, bodies with anything in them and malformed notification ids', async () => {
      expect400(await call(app, 'GET', '/v2/user/1/ratings?status=everything'));
      expect400(await call(app, 'GET', '/v2/user/notifications?filter=%00', token));
      expect400(await call(app, 'POST', '/user/sessions/logout-others', token, { all: true }));
      expect400(await call(app, 'POST', '/v2/user/notifications/read-all', token, { ids: ['x'] }));
      for (const id of ['x', '%00', 'a'.repeat(300), '123']) {
        const answer = await call(app, 'POST', `/v2/user/notifications/${id}/read`, token, {});
        expect([400, 404]).toContain(answer.res.status);
      }
      // Nothing private answers a visitor.
      for (const [method, route] of [
        ['GET', '/v2/user/unread'],
        ['GET', '/v2/user/notifications'],
        ['GET', '/user/sessions'],
      ] as const)
        expect((await call(app, method, route)).res.status).toBe(401);
      expect((await call(app, 'GET', '/user/statistics/1')).res.status).toBe(200);
    });
  });

  describe('texts cannot hide what they say', () => {
    const HIDDEN = [
      ['NUL', 'ab\u0000cd'],
      ['a bell', 'ab\u0007cd'],
      ['DEL', 'ab\u007Fcd'],
      ['a C1 control', 'ab\u0085cd'],
      ['a right-to-left override', 'ab\u202Ecd'],
      ['a left-to-right embedding', 'ab\u202Acd'],
      ['a first-strong isolate', 'ab\u2068cd'],
      ['a pop directional isolate', 'ab\u2069cd'],
      ['a lone high surrogate', 'ab\uD800cd'],
      ['a lone low surrogate', 'ab\uDC00cd'],
    ];

    it.each(HIDDEN)('refuses a name with %s, at registration, the signup check and a rename', async (_n, bad) => {
      const name = bad.slice(0, 8);
      const check = await post(app, '/v2/user/verification-for-signup', { name, email: 'hidden@example.test' });
      expect400(check);
      expect(check.body.success ? [] : (check.body.data?.issues ?? []).map((i) => i.path)).toContain('name');
      expect400(
        await post(app, '/v2/user/register', {
          name,
          email: 'hidden@example.test',
          password: 'password-123',
          code: '123456',
          uuid: crypto.randomUUID(),
        }),
      );
      expect400(await call(app, 'PUT', '/user/profile', token, { name }));
    });

    it.each(HIDDEN)('refuses a bio, signature, rating text and report reason with %s', async (_n, bad) => {
      expect400(await call(app, 'PUT', '/user/profile', token, { bio: bad }));
      expect400(await call(app, 'PUT', '/user/profile', token, { signature: bad }));
      expect400(await call(app, 'PUT', `/galgame/${gameId}/rating`, token, { score: 6, status: 'playing', text: bad }));
      expect400(await call(app, 'POST', `/galgame/download-link/1/report`, token, { reason: bad }));
      if (bad.isWellFormed()) {
        expect400(await call(app, 'GET', `/favorite/galgames?keyword=${encodeURIComponent(bad)}`, token));
      }
      expect400(await post(app, '/v2/user/login', { account: bad, password: 'whatever-123' }));
    });

    it('keeps line breaks and tabs in multi-line texts only', async () => {
      const bio = '第一行\n\t第二行';
      const r = await call<{ user: SessionUser }>(app, 'PUT', '/user/profile', token, { bio });
      expect(data(r.body).user.bio).toBe(bio);
      const windows = await call<{ user: SessionUser }>(app, 'PUT', '/user/profile', token, { bio: 'a\r\nb' });
      expect(data(windows.body).user.bio).toBe('a\nb');
      const rated = await call<{ rating: { text: string } }>(app, 'PUT', `/galgame/${gameId}/rating`, token, {
        score: 8,
        status: 'completed',
        text: '好玩\n推荐',
      });
      expect(data(rated.body).rating.text).toBe('好玩\n推荐');
      expect400(await call(app, 'PUT', '/user/profile', token, { signature: 'one\ntwo' }));
      expect400(await call(app, 'PUT', '/user/profile', token, { signature: 'one\ttwo' }));
      expect400(await call(app, 'PUT', '/user/profile', token, { name: 'tab\tname' }));
    });
  });

  describe('names: normalised, and no look-alikes of an existing one', () => {
    beforeAll(async () => {
      await registerUser(app, 'hikari_admin');
    });

    const LOOK_ALIKES = [
      ['a Cyrillic а', 'hik\u0430ri_admin'],
      ['a Cyrillic і', 'hikari_adm\u0456n'],
      ['a Greek α', 'hikari_\u03B1dmin'],
      ['full-width letters', 'ｈｉｋａｒｉ＿ａｄｍｉｎ'],
      ['another case', 'HIKARI_ADMIN'],
      ['rn for m', 'hikari_adrnin'],
    ];

    it.each(LOOK_ALIKES)('refuses %s at the signup check, registration and a rename', async (_n, name) => {
      const check = await post(app, '/v2/user/verification-for-signup', { name, email: 'lookalike@example.test' });
      expect(data(check.body)).toEqual({ name: { available: false }, email: { available: true } });
      const email = `lookalike-${Math.random().toString(36).slice(2, 8)}@example.test`;
      const asked = await post<{ uuid: string }>(app, '/v2/email/verification-code/request', {
        email,
        type: 'register',
      });
      const reg = await post(app, '/v2/user/register', {
        name,
        email,
        password: 'password-123',
        code: await app.outbox.codeFor(email),
        uuid: data(asked.body).uuid,
      });
      expect(reg.res.status).toBe(409);
      expect(reg.body.code).toBe('NAME_TAKEN');
      const rename = await call(app, 'PUT', '/user/profile', token, { name });
      expect(rename.res.status).toBe(409);
      expect(rename.body.code).toBe('NAME_TAKEN');
    });

    it('stores names in NFKC, and lets a user keep a look-alike of their own name', async () => {
      const email = 'sora@example.test';
      const asked = await post<{ uuid: string }>(app, '/v2/email/verification-code/request', {
        email,
        type: 'register',
      });
      const password = 'password-123';
      const reg = await post<SessionData>(app, '/v2/user/register', {
        name: 'Ｓｏｒａ',
        email,
        password,
        code: await app.outbox.codeFor(email),
        uuid: data(asked.body).uuid,
      });
      const session = data(reg.body);
      expect(session.user.name).toBe('Sora');
      expect((await post(app, '/v2/user/login', { account: 'ｓｏｒａ', password })).res.status).toBe(200);
      const own = await call<{ user: SessionUser }>(app, 'PUT', '/user/profile', session.hikariAccessToken, {
        name: 'SORA',
      });
      expect(data(own.body).user.name).toBe('SORA');
      const free = await call<{ user: SessionUser }>(app, 'PUT', '/user/profile', session.hikariAccessToken, {
        name: '空_sora',
      });
      expect(data(free.body).user.name).toBe('空_sora');
    });
  });
});
