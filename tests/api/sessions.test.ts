import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { RefreshData, SessionData, SessionUser } from '../../src/shared/auth.ts';
import * as sessions from '../../src/server/modules/auth/sessions.service.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { setUserStatus } from '../../src/server/modules/users/users.service.ts';
import { call, data, freshIp, post, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('sessions API', () => {
  let app: TestApp;
  let deps: sessions.AuthDeps;
  beforeAll(async () => {
    app = await createTestApp();
    deps = sessions.authDepsOf(app.ctx);
  });
  afterAll(async () => app.close());

  describe('login and tokens', () => {
    let session: SessionData;
    const password = 'correct horse battery';
    beforeAll(async () => {
      session = (await registerUser(app, 'Nanami', password)).session;
    });

    it('logs in by name (any case) or email', async () => {
      expect(
        data((await post<SessionData>(app, '/v2/user/login', { account: 'nanami', password })).body).user.name,
      ).toBe('Nanami');
      expect(
        data((await post<SessionData>(app, '/v2/user/login', { account: 'NANAMI@example.test', password })).body).user
          .name,
      ).toBe('Nanami');
    });

    it('answers an unknown user and a wrong password the same way', async () => {
      const unknown = await post(app, '/v2/user/login', { account: 'nobody', password });
      const wrong = await post(app, '/v2/user/login', { account: 'Nanami', password: 'wrong password' });
      expect(unknown.res.status).toBe(401);
      expect(wrong.res.status).toBe(401);
      expect(unknown.body).toEqual(wrong.body);
      expect(unknown.body.code).toBe('INVALID_CREDENTIALS');
    });

    it('limits failures per address and account, without locking the owner out (429 with Retry-After)', async () => {
      // A fixed clock at the start of every limit window, so no window ends during the test.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-23T12:00:00.000Z'));
      onTestFinished(() => void vi.useRealTimers());
      await registerUser(app, 'Target', password);
      // One address guessing at one account is stopped after 6 failures, even with the right password…
      const stranger = freshIp();
      for (let i = 0; i < sessions.LIMITS.perAccountAddress.limit; i++) {
        const r = await post(
          app,
          '/v2/user/login',
          { account: 'Target', password: 'bad password' },
          { 'x-forwarded-for': stranger },
        );
        expect(r.res.status).toBe(401);
      }
      const limited = await post(
        app,
        '/v2/user/login',
        { account: 'Target', password },
        { 'x-forwarded-for': stranger },
      );
      expect(limited.res.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
      expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
      // …while the owner, from an address of their own, still logs in.
      expect((await post(app, '/v2/user/login', { account: 'Target', password })).res.status).toBe(200);

      // Parallel wrong passwords from many new addresses cannot slip under the per-account limit.
      await registerUser(app, 'Burster', password);
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => post(app, '/v2/user/login', { account: 'burster', password: 'bad password' })),
      );
      const checked = sessions.LIMITS.perAccountNewAddresses.limit;
      const failed = burst.filter((r) => r.res.status === 401).length;
      expect(failed).toBeGreaterThan(0);
      expect(failed).toBeLessThanOrEqual(checked);
      expect(burst.filter((r) => r.res.status === 429)).toHaveLength(20 - failed);
      // Another spelling of the same account shares its limit.
      expect((await post(app, '/v2/user/login', { account: 'BURSTER@example.test', password })).res.status).toBe(429);

      // One address failing at many accounts is stopped as well.
      const ip = freshIp();
      for (let i = 0; i < sessions.LIMITS.perAddress.limit; i++) {
        await post(
          app,
          '/v2/user/login',
          { account: `ghost${i}`, password: 'bad password' },
          { 'x-forwarded-for': ip },
        );
      }
      const byIp = await post(app, '/v2/user/login', { account: 'Nanami', password }, { 'x-forwarded-for': ip });
      expect(byIp.res.status).toBe(429);
    });

    it.each([
      ['no token', undefined],
      ['garbage', 'abc.def.ghi'],
      ['a refresh token', 'REFRESH'],
    ])('refuses the profile with %s (401)', async (_name, token) => {
      const r = await call(app, 'GET', '/v2/user/profile', token === 'REFRESH' ? session.hikariRefreshToken : token);
      expect(r.res.status).toBe(401);
      expect(r.body.success).toBe(false);
    });

    it('refuses a token with alg none, one signed with another key, and an expired one', async () => {
      const none = new UnsecuredJWT({ _id: session.user._id, hikariUserGroup: 'superAdmin' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .encode();
      expect((await call(app, 'GET', '/v2/user/profile', none)).res.status).toBe(401);
      const forged = await new SignJWT({ _id: session.user._id, hikariUserGroup: 'superAdmin' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
      expect((await call(app, 'GET', '/v2/user/profile', forged)).res.status).toBe(401);
      const hs512 = await new SignJWT({ _id: session.user._id, hikariUserGroup: 'user' })
        .setProtectedHeader({ alg: 'HS512' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(app.ctx.config.jwtSecret));
      expect((await call(app, 'GET', '/v2/user/profile', hs512)).res.status).toBe(401);
      const expired = await signAccessToken(
        app.ctx.config.jwtSecret,
        { id: session.user._id, group: 'user' },
        Date.now() - 2 * 3600_000,
      );
      const r = await call(app, 'GET', '/v2/user/profile', expired);
      expect(r.res.status).toBe(401);
      expect(r.body.code).toBe('TOKEN_EXPIRED');
    });

    it('rotates refresh tokens; a rotated token presented later revokes the whole family', async () => {
      const s = data((await post<SessionData>(app, '/v2/user/login', { account: 'Nanami', password })).body);
      const first = await post<RefreshData>(app, '/user/refresh-token', { token: s.hikariRefreshToken });
      expect(first.body.code).toBe('TOKEN_REFRESHED');
      const r1 = data(first.body);
      expect(r1.hikariRefreshToken).not.toBe(s.hikariRefreshToken);
      expect(r1.refreshTokenExpiry).toBe(s.refreshTokenExpiry);
      // The answer also stores the new pair as cookies (for refreshes sent while a page unloads).
      const cookies = first.res.headers.getSetCookie();
      expect(
        cookies.some(
          (c) =>
            c.startsWith(`hikari-access-token=${r1.hikariAccessToken};`) && /Secure/.test(c) && /SameSite=None/.test(c),
        ),
      ).toBe(true);
      expect(cookies.some((c) => c.startsWith(`hikari-refresh-token=${r1.hikariRefreshToken};`))).toBe(true);
      expect(data((await call<SessionUser>(app, 'GET', '/v2/user/profile', r1.hikariAccessToken)).body).name).toBe(
        'Nanami',
      );

      // Within the grace window a second use is treated as a tab race: refused, nothing revoked.
      const race = await post(app, '/user/refresh-token', { token: s.hikariRefreshToken });
      expect(race.res.status).toBe(409);
      expect(race.body.code).toBe('TOKEN_ALREADY_ROTATED');

      // Later, the same old token is theft: the family is revoked, the successor dies with it.
      const later = { ...deps, now: () => new Date(Date.now() + sessions.ROTATION_GRACE_MS + 1000) };
      await expect(sessions.refresh(later, s.hikariRefreshToken)).rejects.toMatchObject({
        code: 'REFRESH_TOKEN_REUSED',
      });
      const successor = await post(app, '/user/refresh-token', { token: r1.hikariRefreshToken });
      expect(successor.res.status).toBe(401);
      expect(successor.body.code).toBe('REFRESH_TOKEN_INVALID');
    });

    it('two refreshes racing with the same token: exactly one successor', async () => {
      const s = data((await post<SessionData>(app, '/v2/user/login', { account: 'Nanami', password })).body);
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => post<RefreshData>(app, '/user/refresh-token', { token: s.hikariRefreshToken })),
      );
      const statuses = results.map((r) => r.res.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      const family = await app.ctx.db
        .selectFrom('refresh_token')
        .select(['family_id'])
        .where('used_at', 'is', null)
        .execute();
      const winner = data(results.find((r) => r.res.status === 200)!.body);
      const live = await app.ctx.db
        .selectFrom('refresh_token')
        .innerJoin('refresh_family', 'refresh_family.id', 'refresh_token.family_id')
        .select('refresh_token.id')
        .where('refresh_token.used_at', 'is', null)
        .where('refresh_family.revoked_at', 'is', null)
        .where(
          'refresh_family.id',
          '=',
          (
            await app.ctx.db
              .selectFrom('refresh_token')
              .select('family_id')
              .where(
                'token_hash',
                '=',
                (await import('../../src/server/modules/auth/tokens.ts')).hashToken(winner.hikariRefreshToken),
              )
              .executeTakeFirstOrThrow()
          ).family_id,
        )
        .execute();
      expect(family.length).toBeGreaterThan(0);
      expect(live).toHaveLength(1);
    });

    it('logout revokes the refresh family', async () => {
      const s = data((await post<SessionData>(app, '/v2/user/login', { account: 'Nanami', password })).body);
      expect((await post(app, '/user/logout', { hikariRefreshToken: s.hikariRefreshToken })).res.status).toBe(200);
      expect((await post(app, '/user/refresh-token', { token: s.hikariRefreshToken })).res.status).toBe(401);
      // Logging out twice, or with nothing, still succeeds.
      expect((await post(app, '/user/logout', { hikariRefreshToken: s.hikariRefreshToken })).res.status).toBe(200);
      expect((await post(app, '/user/logout', {})).res.status).toBe(200);
    });

    it('logout also ends the access tokens of that login, and only of that login', async () => {
      const one = data((await post<SessionData>(app, '/v2/user/login', { account: 'Nanami', password })).body);
      const two = data((await post<SessionData>(app, '/v2/user/login', { account: 'Nanami', password })).body);
      const profile = (token: string) =>
        app.request('/api/v2/user/profile', { headers: { authorization: `Bearer ${token}` } });
      expect((await profile(one.hikariAccessToken)).status).toBe(200);
      await post(app, '/user/logout', { hikariRefreshToken: one.hikariRefreshToken });
      const after = await profile(one.hikariAccessToken);
      expect(after.status).toBe(401);
      expect(((await after.json()) as { code: string }).code).toBe('TOKEN_INVALID');
      expect((await profile(two.hikariAccessToken)).status).toBe(200);
    });

    it('a banned user cannot log in, refresh or use a token', async () => {
      const { session: s, password: pw } = await registerUser(app, 'Banned');
      await setUserStatus(deps, s.user._id, 'banned');
      const login = await post(app, '/v2/user/login', { account: 'Banned', password: pw });
      expect(login.res.status).toBe(403);
      expect(login.body.code).toBe('ACCOUNT_BANNED');
      expect((await post(app, '/user/refresh-token', { token: s.hikariRefreshToken })).res.status).toBe(403);
      expect((await call(app, 'GET', '/v2/user/profile', s.hikariAccessToken)).res.status).toBe(403);
    });
  });
});
