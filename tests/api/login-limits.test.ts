import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CodeRequestData } from '../../src/shared/auth.ts';
import * as sessions from '../../src/server/modules/auth/sessions.service.ts';
import { KNOWN_ADDRESSES_KEPT, LOGIN_LIMITS, addressKey } from '../../src/server/modules/auth/login-limits.ts';
import { hash } from '@node-rs/argon2';
import { ATTEMPT_WAIT } from '../../src/server/platform/attempt-budget.ts';
import { reserveRateLimit } from '../../src/server/platform/rate-limit.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { data, freshIp, post, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/** Start of a day: every limit window (10 min, 15 min, 1 day) starts here. */
const T0 = new Date('2026-11-24T00:00:00.000Z');
const login = (app: TestApp, account: string, password: string, ip: string) =>
  post(app, '/v2/user/login', { account, password }, { 'x-forwarded-for': ip });

describe('login limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets the owner in from a known address after a stranger's 50 failures from 50 addresses", async () => {
    const { password, email } = await registerUser(app, 'Owner');
    const home = '198.51.100.7';
    expect((await login(app, 'Owner', password, home)).res.status).toBe(200);

    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      statuses.push((await login(app, 'owner', `guess number ${i}`, `203.0.113.${i + 1}`)).res.status);
    }
    const checked = LOGIN_LIMITS.perAccountNewAddresses.limit;
    expect(statuses.filter((s) => s === 401)).toHaveLength(checked);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50 - checked);

    // The owner's known address is not held back, by name or by email.
    expect((await login(app, 'Owner', password, home)).res.status).toBe(200);
    expect((await login(app, email, password, home)).res.status).toBe(200);
    // A new address of the owner waits like the stranger's, with a message that says what to do…
    const travelling = '192.0.2.44';
    const held = await login(app, 'Owner', password, travelling);
    expect(held.res.status).toBe(429);
    expect(held.body.message).toContain('忘记密码');
    // …and a password reset with the mailed code makes that address known.
    const asked = await post<CodeRequestData>(app, '/user/reset-password-code', { email });
    const reset = await post(
      app,
      '/user/reset-password',
      { email, code: await app.outbox.codeFor(email), uuid: data(asked.body).uuid, password: 'a brand new password' },
      { 'x-forwarded-for': travelling },
    );
    expect(reset.res.status).toBe(200);
    expect((await login(app, 'Owner', 'a brand new password', travelling)).res.status).toBe(200);
  });

  it('one stranger address is stopped after 6 failures; the owner from another address is not', async () => {
    const { password } = await registerUser(app, 'Pair');
    const stranger = freshIp();
    for (let i = 0; i < LOGIN_LIMITS.perAccountAddress.limit; i++) {
      expect((await login(app, 'Pair', 'wrong password', stranger)).res.status).toBe(401);
    }
    expect((await login(app, 'Pair', password, stranger)).res.status).toBe(429);
    expect((await login(app, 'Pair', password, freshIp())).res.status).toBe(200);
  });

  it('keeps 1000 guesses spread over 100 addresses to 10 checked passwords per 15 minutes', async () => {
    const { password } = await registerUser(app, 'Crowd');
    const guesses = Array.from({ length: 1000 }, (_, i) => ({ ip: `100.64.${i % 100}.9`, password: `guess-${i}` }));
    const statuses: number[] = [];
    for (let i = 0; i < guesses.length; i += 50) {
      const batch = guesses.slice(i, i + 50);
      statuses.push(
        ...(await Promise.all(batch.map((g) => login(app, 'Crowd', g.password, g.ip)))).map((r) => r.res.status),
      );
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perAccountNewAddresses.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1000 - LOGIN_LIMITS.perAccountNewAddresses.limit);
    // Even the right password from one of those addresses waits: nobody there has proven anything.
    expect((await login(app, 'Crowd', password, '100.64.3.9')).res.status).toBe(429);
  }, 90_000);

  it('over a day, new addresses get at most 50 password checks at one account', async () => {
    await registerUser(app, 'Daylong');
    const deps = sessions.authDepsOf(app.ctx);
    let checked = 0;
    // Twelve 15-minute windows (3 hours), 15 guesses each from fresh addresses.
    for (let window = 0; window < 12; window++) {
      const at = new Date(T0.getTime() + window * LOGIN_LIMITS.perAccountNewAddresses.windowMs);
      for (let i = 0; i < 15; i++) {
        const attempt = sessions.login(
          { ...deps, now: () => at },
          { account: 'Daylong', password: 'nope-nope', ip: freshIp() },
        );
        const error = await attempt.then(
          () => null,
          (e: unknown) => e as { code: string },
        );
        if (error?.code === 'INVALID_CREDENTIALS') checked++;
        else expect(error?.code).toBe('RATE_LIMITED');
      }
    }
    expect(checked).toBe(LOGIN_LIMITS.perAccountNewAddressesDaily.limit);
  });

  it('one address failing at many accounts is stopped, other addresses are not', async () => {
    const { password } = await registerUser(app, 'Bystander');
    const sprayer = freshIp();
    for (let i = 0; i < LOGIN_LIMITS.perAddress.limit; i++) {
      expect((await login(app, `nobody${i}`, 'wrong password', sprayer)).res.status).toBe(401);
    }
    const stopped = await login(app, 'Bystander', password, sprayer);
    expect(stopped.res.status).toBe(429);
    expect(Number(stopped.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(app, 'Bystander', password, freshIp())).res.status).toBe(200);
  });

  it('treats an IPv6 /64 as one address, known and limited alike', async () => {
    const { password } = await registerUser(app, 'Sixer');
    expect((await login(app, 'Sixer', password, '2001:db8:1:2::10')).res.status).toBe(200);
    for (let i = 0; i < 50; i++) await login(app, 'Sixer', 'wrong password', `2001:db8:ff:${i}::1`);
    // Another address in the owner's /64 is known…
    expect((await login(app, 'Sixer', password, '2001:db8:1:2:abcd::99')).res.status).toBe(200);
    // …and a stranger rotating addresses inside one /64 is one address.
    await registerUser(app, 'Sixer2');
    const stranger = (i: number) => `2001:db8:dead:beef::${(i + 1).toString(16)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(app, 'Sixer2', 'wrong password', stranger(i))).res.status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    expect(addressKey('2001:DB8:dead:beef:1:2:3:4')).toBe('2001:db8:dead:beef::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  it('remembers at most a fixed number of addresses per account, storing only keyed hashes', async () => {
    const { password, session } = await registerUser(app, 'Roamer');
    for (let i = 0; i < KNOWN_ADDRESSES_KEPT + 5; i++) {
      vi.setSystemTime(new Date(T0.getTime() + i * 1000));
      expect((await login(app, 'Roamer', password, `192.0.2.${100 + i}`)).res.status).toBe(200);
    }
    const rows = await app.ctx.db
      .selectFrom('login_known_address')
      .selectAll()
      .where('user_id', '=', session.user._id)
      .execute();
    expect(rows).toHaveLength(KNOWN_ADDRESSES_KEPT);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.address_hash))).toBe(true);
  });

  describe('logins arriving together from one address', () => {
    // argon2id at its lowest cost: the test is about the counters, not the hash.
    const cheapHash = hash('a shared school password', { algorithm: 2, memoryCost: 1024, timeCost: 1 });
    const members = async (prefix: string, count: number) => {
      const passwordHash = await cheapHash;
      for (let i = 0; i < count; i++)
        await createUser(app.ctx.db, { name: `${prefix}${i}`, email: `${prefix}${i}@example.test`, passwordHash });
      return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    };
    const addressCounter = (ip: string) =>
      app.ctx.db.selectFrom('rate_limit').select(['count', 'pending']).where('key', '=', `login:addr:${ip}`);

    it('lets 60 members behind one address log in at once, using none of its failure budget', async () => {
      const school = freshIp();
      const names = await members('pupil', 60);
      const answers = await Promise.all(names.map((name) => login(app, name, 'a shared school password', school)));
      expect(answers.map((a) => a.res.status)).toEqual(names.map(() => 200));
      expect(await addressCounter(school).executeTakeFirst()).toEqual({ count: 0, pending: 0 });

      // Ten of them mistyping while fifty log in: the fifty get in, the ten are told their password is wrong.
      const mixed = await Promise.all(
        names.map((name, i) => login(app, name, i < 10 ? 'a wrong password' : 'a shared school password', school)),
      );
      const statuses = mixed.map((a) => a.res.status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(50).fill(200));
      expect(await addressCounter(school).executeTakeFirst()).toEqual({ count: 10, pending: 0 });
    });

    it('checks no more than the budget of 100 guesses launched at once, and answers the rest 429', async () => {
      const sprayer = freshIp();
      const names = await members('target', 100);
      const answers = await Promise.all(names.map((name) => login(app, name, 'guess', sprayer)));
      const statuses = answers.map((a) => a.res.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perAddress.limit);
      expect(statuses.filter((s) => s === 429)).toHaveLength(100 - LOGIN_LIMITS.perAddress.limit);
      for (const refused of answers.filter((a) => a.res.status === 429)) {
        expect(refused.body.code).toBe('RATE_LIMITED');
        expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // The budget is spent: a right password from there waits for the window like a guess.
      expect((await login(app, names[0]!, 'a shared school password', sprayer)).res.status).toBe(429);
      expect(await addressCounter(sprayer).executeTakeFirst()).toEqual({
        count: LOGIN_LIMITS.perAddress.limit,
        pending: 0,
      });
    });

    it('waits for attempts in flight only so long: a budget held by a lost process is refused', async () => {
      const [name] = await members('held', 1);
      const ip = freshIp();
      // Attempts a crashed process counted and never settled.
      for (let i = 0; i < LOGIN_LIMITS.perAddress.limit; i++)
        await reserveRateLimit(app.ctx.db, `login:addr:${ip}`, LOGIN_LIMITS.perAddress, T0.getTime());
      const deps = { ...sessions.authDepsOf(app.ctx), loginWait: { ...ATTEMPT_WAIT, maxMs: 0 } };
      const held = await sessions
        .login(deps, { account: name!, password: 'a shared school password', ip })
        .catch((e: unknown) => e);
      expect(held).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(await addressCounter(ip).executeTakeFirst()).toEqual({ count: 20, pending: 20 });
    });
  });

  describe('lookups that tell whether an account exists', () => {
    it('limits the register code request and the signup check per address', async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < LOGIN_LIMITS.perAddress.limit + 1; i++) {
        const path = i % 2 ? '/v2/user/verification-for-signup' : '/v2/email/verification-code/request';
        const body =
          i % 2
            ? { name: `probe${i}`, email: `probe${i}@example.test` }
            : { email: `probe${i}@example.test`, type: 'register' };
        statuses.push((await post(app, path, body, { 'x-forwarded-for': ip })).res.status);
      }
      expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    });

    it('limits lookups of one email from many addresses', async () => {
      await registerUser(app, 'Famous'); // its code request was the first lookup of the email
      const statuses: number[] = [];
      for (let i = 1; i < LOGIN_LIMITS.perAccountNewAddresses.limit + 1; i++) {
        const r = await post(app, '/v2/email/verification-code/request', {
          email: 'famous@example.test',
          type: 'register',
        });
        statuses.push(r.res.status);
      }
      expect(statuses.slice(0, -1).every((s) => s === 409)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      const check = await post(app, '/v2/user/verification-for-signup', {
        name: 'someone',
        email: 'famous@example.test',
      });
      expect(check.res.status).toBe(429);
    });
  });
});
