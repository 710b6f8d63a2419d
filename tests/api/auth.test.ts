import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeRequestData, SessionData, SessionUser } from '../../src/shared/auth.ts';
import * as account from '../../src/server/modules/auth/account.service.ts';
import * as sessions from '../../src/server/modules/auth/sessions.service.ts';
import { call, data, freshIp, post, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('accounts API', () => {
  let app: TestApp;
  let deps: sessions.AuthDeps;
  beforeAll(async () => {
    app = await createTestApp();
    deps = sessions.authDepsOf(app.ctx);
  });
  afterAll(async () => app.close());

  describe('registration', () => {
    it('registers with a mailed code and logs in at once', async () => {
      const { session, email } = await registerUser(app, 'Sakura');
      expect(session.user).toMatchObject({
        name: 'Sakura',
        email,
        isLogin: true,
        hikariUserGroup: 'user',
        hikariPoint: 0,
        status: 'active',
      });
      expect(session.user.userId).toBeGreaterThan(0);
      expect(session.user._id).toMatch(/^[0-9a-f]{24}$/);
      expect(session.hikariRefreshToken.length).toBeGreaterThanOrEqual(43);
      expect(new Date(session.refreshTokenExpiry).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
      const me = await call<SessionUser>(app, 'GET', '/v2/user/profile', session.hikariAccessToken);
      expect(data(me.body).name).toBe('Sakura');
    });

    it('refuses a taken name (any case) and a taken email', async () => {
      await registerUser(app, 'Mio');
      const check = await post(app, '/v2/user/verification-for-signup', { name: 'MIO', email: 'mio@example.test' });
      expect(data(check.body)).toEqual({ name: { available: false }, email: { available: false } });
      const again = await post(app, '/v2/email/verification-code/request', {
        email: 'mio@example.test',
        type: 'register',
      });
      expect(again.res.status).toBe(409);
      expect(again.body.code).toBe('EMAIL_TAKEN');
      const email = 'other-mio@example.test';
      const { uuid } = data(
        (await post<CodeRequestData>(app, '/v2/email/verification-code/request', { email, type: 'register' })).body,
      );
      const reg = await post(app, '/v2/user/register', {
        name: 'mio',
        email,
        password: 'password-123',
        code: await app.outbox.codeFor(email),
        uuid,
      });
      expect(reg.res.status).toBe(409);
      expect(reg.body.code).toBe('NAME_TAKEN');
    });

    it('refuses a wrong code, counts attempts, and kills the code after 5', async () => {
      const email = 'tries@example.test';
      const { uuid } = data(
        (await post<CodeRequestData>(app, '/v2/email/verification-code/request', { email, type: 'register' })).body,
      );
      const good = await app.outbox.codeFor(email);
      const wrong = good === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const r = await post(app, '/v2/user/register', {
          name: 'Tries',
          email,
          password: 'password-123',
          code: wrong,
          uuid,
        });
        expect(r.body.code).toBe('CODE_INVALID');
      }
      const after = await post(app, '/v2/user/register', {
        name: 'Tries',
        email,
        password: 'password-123',
        code: good,
        uuid,
      });
      expect(after.res.status).toBe(400);
      expect(after.body.code).toBe('CODE_TOO_MANY_ATTEMPTS');
    });

    it('parallel guesses cannot test more than 5 codes', async () => {
      const email = 'parallel@example.test';
      const { uuid } = data(
        (await post<CodeRequestData>(app, '/v2/email/verification-code/request', { email, type: 'register' })).body,
      );
      const good = await app.outbox.codeFor(email);
      const guesses = Array.from({ length: 40 }, (_, i) => String((Number(good) + 1 + i) % 1_000_000).padStart(6, '0'));
      const results = await Promise.all(
        guesses.map((code) => post(app, '/v2/email/verification-code/verify', { email, type: 'register', code, uuid })),
      );
      expect(results.filter((r) => r.body.code === 'CODE_INVALID')).toHaveLength(5);
      expect(results.filter((r) => r.body.code === 'CODE_TOO_MANY_ATTEMPTS')).toHaveLength(35);
      const right = await post(app, '/v2/email/verification-code/verify', {
        email,
        type: 'register',
        code: good,
        uuid,
      });
      expect(right.body.code).toBe('CODE_TOO_MANY_ATTEMPTS');
    });

    it('enforces the 60 s resend cooldown with Retry-After data', async () => {
      const email = 'cool@example.test';
      await post(app, '/v2/email/verification-code/request', { email, type: 'register' });
      const again = await post(app, '/v2/email/verification-code/request', { email, type: 'register' });
      expect(again.res.status).toBe(429);
      expect(again.body.code).toBe('CODE_COOLDOWN');
      expect(again.res.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('expires codes after 10 minutes', async () => {
      const email = 'late@example.test';
      const issued = await account.requestCode(deps, { email, purpose: 'register', ip: freshIp() });
      const code = await app.outbox.codeFor(email);
      const later = { ...deps, now: () => new Date(Date.now() + 11 * 60_000) };
      await expect(
        account.register(later, {
          name: 'Late',
          email,
          password: 'password-123',
          code,
          uuid: issued.uuid,
          ip: freshIp(),
        }),
      ).rejects.toMatchObject({ status: 400, code: 'CODE_EXPIRED' });
    });

    it('verifies a code without using it up', async () => {
      const email = 'verify@example.test';
      const { uuid } = data(
        (await post<CodeRequestData>(app, '/v2/email/verification-code/request', { email, type: 'register' })).body,
      );
      const code = await app.outbox.codeFor(email);
      expect(
        data((await post(app, '/v2/email/verification-code/verify', { email, type: 'register', code, uuid })).body),
      ).toEqual({ verified: true });
      const reg = await post<SessionData>(app, '/v2/user/register', {
        name: 'Verify',
        email,
        password: 'password-123',
        code,
        uuid,
      });
      expect(reg.res.status).toBe(201);
      const reuse = await post(app, '/v2/user/register', {
        name: 'Verify2',
        email: 'v2@example.test',
        password: 'password-123',
        code,
        uuid,
      });
      expect(reuse.body.code).toBe('CODE_INVALID');
    });

    it.each([
      ['a short password', { password: 'short' }, 'password'],
      ['a too long name', { name: 'n'.repeat(21) }, 'name'],
      ['a name with spaces', { name: 'a b' }, 'name'],
      ['a bad email', { email: 'not-an-email' }, 'email'],
      ['a bad code', { code: '12ab56' }, 'code'],
      ['a bad uuid', { uuid: 'nope' }, 'uuid'],
      ['a 129-character password', { password: 'p'.repeat(129) }, 'password'],
    ])('answers 400 with field issues for %s', async (_name, patch, field) => {
      const body = {
        name: 'Valid',
        email: 'valid@example.test',
        password: 'password-123',
        code: '123456',
        uuid: crypto.randomUUID(),
        ...patch,
      };
      const r = await post(app, '/v2/user/register', body);
      expect(r.res.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
      expect(r.body.success ? [] : (r.body.data?.issues ?? []).map((i) => i.path)).toContain(field);
    });

    it('refuses a 1 MB password fast, without hashing it', async () => {
      const started = performance.now();
      const r = await post(app, '/v2/user/login', { account: 'Sakura', password: 'x'.repeat(1024 * 1024) });
      expect([400, 413]).toContain(r.res.status);
      expect(performance.now() - started).toBeLessThan(1000);
    });
  });

  describe('passwords and email', () => {
    it('changing the password revokes every login and old access tokens, and starts a new one', async () => {
      const { session: a, password } = await registerUser(app, 'Changer');
      const b = data((await post<SessionData>(app, '/v2/user/login', { account: 'Changer', password })).body);
      await new Promise((r) => setTimeout(r, 1100));
      const wrong = await call(app, 'POST', '/user/change-password', a.hikariAccessToken, {
        oldPassword: 'nope nope',
        newPassword: 'brand new pass',
      });
      expect(wrong.res.status).toBe(400);
      const changed = await call<SessionData>(app, 'POST', '/user/change-password', a.hikariAccessToken, {
        oldPassword: password,
        newPassword: 'brand new pass',
      });
      const fresh = data(changed.body);
      for (const old of [a.hikariRefreshToken, b.hikariRefreshToken]) {
        expect((await post(app, '/user/refresh-token', { token: old })).res.status).toBe(401);
      }
      expect((await call(app, 'GET', '/v2/user/profile', b.hikariAccessToken)).res.status).toBe(401);
      expect((await call(app, 'GET', '/v2/user/profile', fresh.hikariAccessToken)).res.status).toBe(200);
      expect((await post(app, '/v2/user/login', { account: 'Changer', password })).res.status).toBe(401);
      expect((await post(app, '/v2/user/login', { account: 'Changer', password: 'brand new pass' })).res.status).toBe(
        200,
      );
    });

    it('resets a forgotten password with a mailed code; unknown emails look the same', async () => {
      const { email, session } = await registerUser(app, 'Forgetful');
      const asked = await post<CodeRequestData>(app, '/user/reset-password-code', { email });
      const unknown = await post<CodeRequestData>(app, '/user/reset-password-code', { email: 'nobody@example.test' });
      expect(asked.res.status).toBe(200);
      expect(unknown.res.status).toBe(200);
      expect(Object.keys(data(unknown.body)).sort()).toEqual(Object.keys(data(asked.body)).sort());
      await expect(app.outbox.codeFor('nobody@example.test')).rejects.toThrow();
      const code = await app.outbox.codeFor(email);
      const reset = await post(app, '/user/reset-password', {
        email,
        code,
        uuid: data(asked.body).uuid,
        password: 'remembered now',
      });
      expect(reset.res.status).toBe(200);
      expect((await post(app, '/user/refresh-token', { token: session.hikariRefreshToken })).res.status).toBe(401);
      expect((await post(app, '/v2/user/login', { account: email, password: 'remembered now' })).res.status).toBe(200);
    });

    it('changes the email after confirming a code sent to the new address', async () => {
      const { session } = await registerUser(app, 'Mover');
      const newEmail = 'moved@example.test';
      const wrong = await call(app, 'POST', '/v2/user/change-email/request', session.hikariAccessToken, {
        email: newEmail,
        password: 'not mine',
      });
      expect(wrong.res.status).toBe(400);
      const asked = await call<CodeRequestData>(
        app,
        'POST',
        '/v2/user/change-email/request',
        session.hikariAccessToken,
        {
          email: newEmail,
          password: 'correct horse battery',
        },
      );
      const code = await app.outbox.codeFor(newEmail);
      const updated = await call<{ user: SessionUser }>(
        app,
        'POST',
        '/v2/user/change-email/update',
        session.hikariAccessToken,
        {
          email: newEmail,
          code,
          uuid: data(asked.body).uuid,
        },
      );
      expect(
        (await app.outbox.sent()).some((m) => m.to === 'mover@example.test' && m.subject.includes('邮箱已更换')),
      ).toBe(true);
      expect(data(updated.body).user.email).toBe(newEmail);
      // The old address is told.
      expect(
        (await app.outbox.sent()).some((m) => m.to === 'mover@example.test' && m.subject.includes('邮箱已更换')),
      ).toBe(true);
      expect(
        (await call(app, 'POST', '/v2/user/change-email/request', undefined, { email: 'x@example.test' })).res.status,
      ).toBe(401);
    });
  });

  describe('profiles and settings', () => {
    it('reads public profiles by userId or _id, without private fields', async () => {
      const { session } = await registerUser(app, 'Public');
      for (const id of [String(session.user.userId), session.user._id]) {
        const r = await call<{ user: Record<string, unknown> }>(app, 'GET', `/user/profile/${id}`);
        const user = data(r.body).user;
        expect(user.name).toBe('Public');
        expect(user).not.toHaveProperty('email');
        expect(user).not.toHaveProperty('hikariPoint');
      }
      expect((await call(app, 'GET', '/user/profile/999999')).res.status).toBe(404);
    });

    it('updates the own profile and settings, with validation', async () => {
      const { session } = await registerUser(app, 'Editor');
      const t = session.hikariAccessToken;
      const r = await call<{ user: SessionUser }>(app, 'PUT', '/user/profile', t, {
        bio: '喜欢夏日的故事。',
        signature: '今天也要元气满满',
        avatar: 'https://lain.bgm.tv/a.jpg',
      });
      expect(data(r.body).user).toMatchObject({
        bio: '喜欢夏日的故事。',
        signature: '今天也要元气满满',
        avatar: 'https://lain.bgm.tv/a.jpg',
      });
      expect((await call(app, 'PUT', '/user/profile', t, { avatar: 'javascript:alert(1)' })).res.status).toBe(400);
      expect((await call(app, 'PUT', '/user/profile', t, { bio: 'x'.repeat(501) })).res.status).toBe(400);
      expect((await call(app, 'PUT', '/user/profile', t, { hikariPoint: 99999 })).res.status).toBe(400);
      expect((await call(app, 'PUT', '/user/profile', t, { name: 'sakura' })).body.code).toBe('NAME_TAKEN');
      expect((await call(app, 'PUT', '/user/profile', undefined, { bio: 'x' })).res.status).toBe(401);

      const s = await call<{ userSetting: Record<string, unknown> }>(app, 'PUT', '/user/user-setting', t, {
        nsfw: 'hide',
        locale: 'en',
      });
      expect(data(s.body).userSetting).toEqual({ locale: 'en', nsfw: 'hide', emailNotifications: true });
      expect((await call(app, 'PUT', '/user/user-setting', t, { nsfw: 'sometimes' })).res.status).toBe(400);
    });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.request('/api/v2/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
  });
});
