import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeRequestData, SessionData, SessionUser } from '../../src/shared/auth.ts';
import * as account from '../../src/server/modules/auth/account.service.ts';
import { authDepsOf } from '../../src/server/modules/auth/sessions.service.ts';
import { call, data, freshIp, post, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Every flow that mails a code: a code is good only for the purpose, the email and the account it was
 * issued for. Each test uses a real code from the outbox in a place it was not issued for.
 */
describe('one-time codes are bound to purpose, email and account', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  const requestCode = async (email: string, type: string) => {
    const r = await post<CodeRequestData>(app, '/v2/email/verification-code/request', { email, type });
    return { uuid: data(r.body).uuid, code: await app.outbox.codeFor(email) };
  };
  const changeEmailCode = async (token: string, email: string, password = 'correct horse battery') => {
    const r = await call<CodeRequestData>(app, 'POST', '/v2/user/change-email/request', token, { email, password });
    return { uuid: data(r.body).uuid, code: await app.outbox.codeFor(email) };
  };
  const profile = async (token: string) => data((await call<SessionUser>(app, 'GET', '/v2/user/profile', token)).body);

  describe('change_email', () => {
    it('the public code request refuses change_email with a clear 400 and mails nothing', async () => {
      const before = (await app.outbox.sent()).length;
      const r = await post(app, '/v2/email/verification-code/request', {
        email: 'attacker@example.test',
        type: 'change_email',
      });
      expect(r.res.status).toBe(400);
      expect(r.body.code).toBe('CODE_PURPOSE_NOT_ALLOWED');
      expect(r.body.message).toContain('当前密码');
      expect((await app.outbox.sent()).length).toBe(before);
    });

    it('a stolen access token cannot move the account: codes from elsewhere do not change its email', async () => {
      const victim = (await registerUser(app, 'Victim')).session;
      const attacker = (await registerUser(app, 'Attacker')).session;
      const target = 'attacker-inbox@example.test';
      // A register code for the attacker's inbox…
      const register = await requestCode(target, 'register');
      // …and a change_email code the attacker's own account asked for, with its own password.
      const own = await changeEmailCode(attacker.hikariAccessToken, target);
      for (const stolen of [register, own]) {
        const r = await call(app, 'POST', '/v2/user/change-email/update', victim.hikariAccessToken, {
          email: target,
          ...stolen,
        });
        expect(r.res.status).toBe(400);
        expect(r.body.code).toBe('CODE_INVALID');
      }
      // The email stays the owner's, so a password reset still goes to the owner, not the attacker.
      expect((await profile(victim.hikariAccessToken)).email).toBe('victim@example.test');
    });

    it('a change_email code is good only for the email it was sent to', async () => {
      const { session } = await registerUser(app, 'Chooser');
      const asked = await changeEmailCode(session.hikariAccessToken, 'first-choice@example.test');
      const r = await call(app, 'POST', '/v2/user/change-email/update', session.hikariAccessToken, {
        email: 'second-choice@example.test',
        ...asked,
      });
      expect(r.body.code).toBe('CODE_INVALID');
      const right = await call<{ user: SessionUser }>(
        app,
        'POST',
        '/v2/user/change-email/update',
        session.hikariAccessToken,
        { email: 'first-choice@example.test', ...asked },
      );
      expect(data(right.body).user.email).toBe('first-choice@example.test');
    });

    it('the verify endpoint checks a change_email code only for the logged-in account it belongs to', async () => {
      const a = (await registerUser(app, 'Verifier')).session;
      const b = (await registerUser(app, 'Other')).session;
      const email = 'verifier-new@example.test';
      const asked = await changeEmailCode(a.hikariAccessToken, email);
      const body = { email, type: 'change_email', ...asked };
      const anonymous = await post(app, '/v2/email/verification-code/verify', body);
      expect(anonymous.res.status).toBe(401);
      const otherUser = await call(app, 'POST', '/v2/email/verification-code/verify', b.hikariAccessToken, body);
      expect(otherUser.body.code).toBe('CODE_INVALID');
      const owner = await call(app, 'POST', '/v2/email/verification-code/verify', a.hikariAccessToken, body);
      expect(data(owner.body)).toEqual({ verified: true });
    });
  });

  describe('register', () => {
    it('a register code is good only for its email and for registering', async () => {
      const x = await requestCode('reg-x@example.test', 'register');
      const otherEmail = await post(app, '/v2/user/register', {
        name: 'RegY',
        email: 'reg-y@example.test',
        password: 'password-123',
        ...x,
      });
      expect(otherEmail.body.code).toBe('CODE_INVALID');
      const otherPurpose = await post(app, '/v2/email/verification-code/verify', {
        email: 'reg-x@example.test',
        type: 'reset_password',
        ...x,
      });
      expect(otherPurpose.body.code).toBe('CODE_INVALID');
      const right = await post<SessionData>(app, '/v2/user/register', {
        name: 'RegX',
        email: 'reg-x@example.test',
        password: 'password-123',
        ...x,
      });
      expect(right.res.status).toBe(201);
    });

    it('a reset or change_email code cannot register an account', async () => {
      const { session } = await registerUser(app, 'Holder');
      const change = await changeEmailCode(session.hikariAccessToken, 'free-address@example.test');
      const r = await post(app, '/v2/user/register', {
        name: 'Squatter',
        email: 'free-address@example.test',
        password: 'password-123',
        ...change,
      });
      expect(r.body.code).toBe('CODE_INVALID');
    });
  });

  describe('reset_password', () => {
    it('a reset code is good only for the email it was sent to', async () => {
      const a = await registerUser(app, 'ResetA');
      await registerUser(app, 'ResetB');
      const asked = await post<CodeRequestData>(app, '/user/reset-password-code', { email: a.email });
      const code = { uuid: data(asked.body).uuid, code: await app.outbox.codeFor(a.email) };
      const onB = await post(app, '/user/reset-password', {
        email: 'resetb@example.test',
        password: 'taken over now',
        ...code,
      });
      expect(onB.body.code).toBe('CODE_INVALID');
      expect((await post(app, '/v2/user/login', { account: 'ResetB', password: 'taken over now' })).res.status).toBe(
        401,
      );
      const asRegister = await post(app, '/v2/email/verification-code/verify', {
        email: a.email,
        type: 'register',
        ...code,
      });
      expect(asRegister.body.code).toBe('CODE_INVALID');
    });

    it('a reset code belongs to the account that had the email, not to whoever has it later', async () => {
      const first = await registerUser(app, 'FirstOwner');
      const asked = await post<CodeRequestData>(app, '/user/reset-password-code', { email: first.email });
      const stale = { uuid: data(asked.body).uuid, code: await app.outbox.codeFor(first.email) };
      // The first owner moves to another address; someone else registers the freed one.
      const moved = await changeEmailCode(first.session.hikariAccessToken, 'first-owner-new@example.test');
      await call(app, 'POST', '/v2/user/change-email/update', first.session.hikariAccessToken, {
        email: 'first-owner-new@example.test',
        ...moved,
      });
      // (A minute later: the address's first register code was sent moments ago.)
      const later = { ...authDepsOf(app.ctx), now: () => new Date(Date.now() + 61_000) };
      const issued = await account.requestCode(later, { email: first.email, purpose: 'register', ip: freshIp() });
      const reg = { uuid: issued.uuid, code: await app.outbox.codeFor(first.email) };
      const second = await post<SessionData>(app, '/v2/user/register', {
        name: 'SecondOwner',
        email: first.email,
        password: 'second owner pass',
        ...reg,
      });
      expect(second.res.status).toBe(201);
      const r = await post(app, '/user/reset-password', { email: first.email, password: 'hijacked pass', ...stale });
      expect(r.body.code).toBe('CODE_INVALID');
      expect(
        (await post(app, '/v2/user/login', { account: 'SecondOwner', password: 'second owner pass' })).res.status,
      ).toBe(200);
    });

    it('a reset code for an email without an account is never accepted', async () => {
      const asked = await post<CodeRequestData>(app, '/user/reset-password-code', { email: 'ghost@example.test' });
      expect(asked.res.status).toBe(200);
      const verify = await post(app, '/v2/email/verification-code/verify', {
        email: 'ghost@example.test',
        type: 'reset_password',
        code: '123456',
        uuid: data(asked.body).uuid,
      });
      expect(verify.body.code).toBe('CODE_INVALID');
    });
  });

  it('stores the account each code was issued for', async () => {
    const { session, email } = await registerUser(app, 'Bound');
    await post(app, '/user/reset-password-code', { email });
    const rows = await app.ctx.db
      .selectFrom('one_time_code')
      .select(['purpose', 'user_id'])
      .where('email', '=', email)
      .orderBy('created_at')
      .execute();
    expect(rows).toEqual([
      { purpose: 'register', user_id: null },
      { purpose: 'reset_password', user_id: session.user._id },
    ]);
  });
});
