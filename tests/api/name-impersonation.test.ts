import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionData, SessionUser } from '../../src/shared/auth.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { call, data, expectFailure, post, registerUser, type Answer } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Names that draw like a staff member's: with characters that draw nothing, or with look-alike letters
 * (small capitals, other scripts' capitals, styled letters). Each is refused at the signup check, at
 * registration and at a rename, with a readable message, and no account or name changes.
 */

/** Names holding a character that draws nothing (or changes the direction of the rest). */
const HIDDEN: [string, string][] = [
  ['a Hangul filler', 'hikari_admin\u3164'],
  ['a half-width Hangul filler', 'hikari_admin\uFFA0'],
  ['a choseong filler', '\u115Fhikari_admin'],
  ['a jungseong filler', 'hikari_\u1160admin'],
  ['a zero-width space', 'hikari_\u200Badmin'],
  ['a zero-width joiner', 'hikari\u200D_admin'],
  ['a word joiner', 'hikari\u2060_admin'],
  ['a soft hyphen', 'hikari_ad\u00ADmin'],
  ['blank braille', 'hikari_admin\u2800'],
  ['a variation selector', 'hikari_admin\uFE0F'],
  ['a tag character', 'hikari_admin\u{E0061}'],
  ['a right-to-left override', '\u202Ehikari_admin'],
  ['an isolate', 'hikari_admin\u2066'],
  ['a no-break space', 'hikari\u00A0admin'],
  ['an ideographic space', 'hikari\u3000admin'],
  ['a combining mark after _', 'hikari_\u0301admin'],
  ['only fillers', '\u3164\u3164\u3164'],
];

/** Names that show every character but draw like hikari_admin. */
const LOOK_ALIKES: [string, string][] = [
  ['a small capital A', 'hikari_\u1D00dmin'],
  ['small capitals only', '\u029C\u026A\u1D0B\u1D00\u0280\u026A_\u1D00\u1D05\u1D0D\u026A\u0274'],
  ['Cyrillic capitals', '\u041D\u0406\u041A\u0410R\u0406_\u0410D\u041C\u0406N'],
  ['a Greek capital Eta', '\u0397IKARI_ADMIN'],
  ['mathematical bold letters', '𝐡𝐢𝐤𝐚𝐫𝐢_𝐚𝐝𝐦𝐢𝐧'],
  ['modifier letters', 'ʰⁱᵏᵃʳⁱ_ᵃᵈᵐⁱⁿ'],
  ['a kra for k', 'hi\u0138ari_admin'],
  ['a dotless i', 'h\u0131kari_admin'],
];

describe('names that impersonate hikari_admin', () => {
  let app: TestApp;
  let member: SessionData;

  beforeAll(async () => {
    app = await createTestApp();
    await registerUser(app, 'hikari_admin');
    member = (await registerUser(app, 'tsubame')).session;
  });
  afterAll(async () => app.close());

  const userCount = async () => (await app.ctx.db.selectFrom('users').select('id').execute()).length;

  /** Asks for a code at a new address and registers `name` with it. */
  async function register(name: string): Promise<Answer> {
    const email = `n${Math.random().toString(36).slice(2, 10)}@example.test`;
    const asked = await post<{ uuid: string }>(app, '/v2/email/verification-code/request', { email, type: 'register' });
    return post(app, '/v2/user/register', {
      name,
      email,
      password: 'password-123',
      code: await app.outbox.codeFor(email),
      uuid: data(asked.body).uuid,
    });
  }

  const ownName = async () =>
    data((await call<SessionUser>(app, 'GET', '/v2/user/profile', member.hikariAccessToken)).body).name;

  it.each(HIDDEN)('refuses a name with %s everywhere, saying why', async (what, name) => {
    const before = await userCount();
    const check = await post(app, '/v2/user/verification-for-signup', { name, email: 'free@example.test' });
    expectFailure(check, 400, 'VALIDATION_FAILED');
    const registered = await register(name);
    expectFailure(registered, 400, 'VALIDATION_FAILED');
    expect(registered.body.message).not.toMatch(/^validation\./);
    if (what.endsWith('filler')) {
      expect(registered.body.message).toBe('用户名不能包含看不见的字符（零宽字符、韩文填充字符、空白点字符等）');
    }
    const renamed = await call(app, 'PUT', '/user/profile', member.hikariAccessToken, { name });
    expectFailure(renamed, 400, 'VALIDATION_FAILED');
    expect(await userCount()).toBe(before);
    expect(await ownName()).toBe('tsubame');
  });

  it.each(LOOK_ALIKES)('takes a name with %s for the name it draws like', async (_what, name) => {
    const before = await userCount();
    const check = await post(app, '/v2/user/verification-for-signup', { name, email: 'free@example.test' });
    expect(data(check.body)).toEqual({ name: { available: false }, email: { available: true } });
    const registered = await register(name);
    expectFailure(registered, 409, 'NAME_TAKEN');
    expect(registered.body.message).toBe('用户名已被使用');
    const renamed = await call(app, 'PUT', '/user/profile', member.hikariAccessToken, { name });
    expectFailure(renamed, 409, 'NAME_TAKEN');
    expect(await userCount()).toBe(before);
    expect(await ownName()).toBe('tsubame');
  });

  it('answers the hidden-character message in English too', async () => {
    const res = await app.request('/api/v2/user/verification-for-signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'hikari_locale=en', 'x-forwarded-for': '10.77.0.1' },
      body: JSON.stringify({ name: 'hikari_admin\u3164', email: 'free@example.test' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^A user name cannot contain invisible/);
  });

  it('refuses hidden characters from callers that skip the name rule (scripts, the seed)', async () => {
    const before = await userCount();
    await expect(
      createUser(app.ctx.db, { name: 'hikari_admin\u3164', email: 'script@example.test', passwordHash: 'x' }),
    ).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await userCount()).toBe(before);
  });

  it('keeps names in every script working, and a member keeping a name is no rename', async () => {
    for (const name of ['光之', '한글이름', 'ひかり', 'カタカナ', 'Ελένη', 'Ünal_2', 'émile']) {
      const registered = await register(name);
      expect(registered.res.status, JSON.stringify(registered.body)).toBe(201);
      expect((data(registered.body) as SessionData).user.name).toBe(name);
    }
    const kept = await call<{ user: SessionUser }>(app, 'PUT', '/user/profile', member.hikariAccessToken, {
      name: 'tsubame',
      bio: '还在',
    });
    expect(data(kept.body).user).toMatchObject({ name: 'tsubame', bio: '还在' });
  });
});
