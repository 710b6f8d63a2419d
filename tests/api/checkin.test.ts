import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiFailure } from '../../src/shared/api.ts';
import type {
  CheckInRecord,
  CheckInResult,
  CheckInStatus,
  PointHistoryPage,
  UserCheckInStatus,
} from '../../src/shared/checkin/checkin-model.ts';
import { connectDatabase, type DatabaseHandle } from '../../src/server/db/connect.ts';
import { dialectOf } from '../../src/server/db/database.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { checkIn } from '../../src/server/modules/checkin/checkin.service.ts';
import { verifyPoints } from '../../src/server/modules/points/points.service.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { call, data, expectFailure, type Answer } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

interface Member {
  id: string;
  userId: number;
}

// Daily check-in and make-ups (spec §7 Check-in v2, decision 025) on the HikariPoint ledger: one
// check-in a site day whatever runs at once, make-ups charged once, refusals and failures that leave
// nothing behind, and the day turning at 00:00 in Shanghai.
describe('check-in API', () => {
  let app: TestApp;
  let second: DatabaseHandle;
  let count = 0;

  /** A member with `points` HikariPoint (granted through the ledger). */
  async function member(points = 0): Promise<Member> {
    count += 1;
    const name = `ci_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, {
      name,
      email: `${name}@example.test`,
      passwordHash: 'x',
      hikariPoint: points,
    });
    return { id: user.id, userId: user.user_id };
  }
  /** A token made at the (possibly fake) current time. */
  const token = (who: Member) => signAccessToken(app.ctx.config.jwtSecret, { id: who.id, group: 'user' });
  const checkInCall = async (who: Member) =>
    call<CheckInResult>(app, 'POST', '/v2/user/check-in', await token(who), {});
  const makeUpCall = async (who: Member, date: unknown) =>
    call<CheckInResult>(app, 'POST', '/v2/user/check-in/make-up', await token(who), { date });
  const status = async (who: Member) =>
    data((await call<CheckInStatus>(app, 'GET', '/v2/user/check-in/status', await token(who))).body);
  const records = async (who: Member, month = '') =>
    data(
      (
        await call<CheckInRecord[]>(
          app,
          'GET',
          `/v2/user/check-in/records${month ? `?month=${month}` : ''}`,
          await token(who),
        )
      ).body,
    );

  /** What the database holds for a member: balance, check-in rows, ledger rows. */
  async function stored(who: Member) {
    const db = app.ctx.db;
    const user = await db
      .selectFrom('users')
      .select(['hikari_point', 'check_in_streak', 'longest_check_in_streak', 'point_seq'])
      .where('id', '=', who.id)
      .executeTakeFirstOrThrow();
    const days = await db
      .selectFrom('check_in')
      .select(['date', 'is_make_up', 'points'])
      .where('user_id', '=', who.id)
      .orderBy('date')
      .execute();
    const ledger = await db
      .selectFrom('point_ledger')
      .select(['seq', 'amount', 'reason', 'reference', 'balance_after'])
      .where('user_id', '=', who.id)
      .orderBy('seq')
      .execute();
    const sum = ledger.reduce((total, row) => total + Number(row.amount), 0);
    return {
      balance: Number(user.hikari_point),
      streak: Number(user.check_in_streak),
      longest: Number(user.longest_check_in_streak),
      seq: Number(user.point_seq),
      days: days.map((d) => ({ date: d.date, makeUp: Number(d.is_make_up) === 1, points: Number(d.points) })),
      ledger: ledger.map((l) => ({
        ...l,
        seq: Number(l.seq),
        amount: Number(l.amount),
        balance_after: Number(l.balance_after),
      })),
      sum,
    };
  }

  /** 12:00 in Shanghai on a site date. */
  const noonOf = (date: string) => new Date(`${date}T04:00:00Z`);
  const at = (instant: Date | string) => vi.setSystemTime(typeof instant === 'string' ? new Date(instant) : instant);

  /** Check-ins on given days (through the service, at noon of each day). */
  async function checkInOn(who: Member, dates: string[]) {
    for (const date of dates) await checkIn(app.ctx.db, who.id, noonOf(date));
  }

  const failureMessage = (answer: Answer) => (answer.body as ApiFailure).message;

  beforeAll(async () => {
    app = await createTestApp();
    // A second connection of its own, as a second server process would have.
    second = connectDatabase(app.database.target, { poolSize: 5 });
  });
  afterAll(async () => {
    await second.close();
    await app.close();
  });
  afterEach(() => vi.useRealTimers());

  it('checks in once a day for 1–10 points, in the spec’s answer, and keeps the ledger', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(noonOf('2026-11-24'));
    const who = await member(5);
    expect(await status(who)).toMatchObject({
      isCheckIn: false,
      checkInStreak: 0,
      hikariPoint: 5,
      today: '2026-11-24',
    });
    const answer = await checkInCall(who);
    expect(answer.res.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, message: '签到成功' });
    const { points } = data(answer.body);
    expect(points).toBeGreaterThanOrEqual(1);
    expect(points).toBeLessThanOrEqual(10);
    expect(Number.isInteger(points)).toBe(true);

    const again = await checkInCall(who);
    expectFailure(again, 409, 'ALREADY_CHECKED_IN');
    expect(failureMessage(again)).toBe('今天已经签到过了');

    const after = await stored(who);
    expect(after.balance).toBe(5 + points);
    expect(after.days).toEqual([{ date: '2026-11-24', makeUp: false, points }]);
    expect(after.ledger).toEqual([
      { seq: 1, amount: 5, reason: 'grant', reference: null, balance_after: 5 },
      { seq: 2, amount: points, reason: 'check_in', reference: '2026-11-24', balance_after: 5 + points },
    ]);
    expect(after.sum).toBe(after.balance);

    const userStatus = await call<UserCheckInStatus>(app, 'GET', '/v2/user/status', await token(who));
    expect(data(userStatus.body)).toEqual({ isCheckIn: true, checkInStreak: 1, hikariPoint: 5 + points });
    expect(await records(who)).toEqual([{ date: '2026-11-24', isMakeUp: false }]);
    expect(await records(who, '2026-10')).toEqual([]);

    const history = data(
      (await call<PointHistoryPage>(app, 'GET', '/v2/user/points/history?limit=1', await token(who))).body,
    );
    expect(history.hikariPoint).toBe(5 + points);
    expect(history.pagination).toMatchObject({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(history.items).toEqual([
      {
        _id: '2',
        amount: points,
        reason: 'check_in',
        reference: '2026-11-24',
        balanceAfter: 5 + points,
        createdAt: noonOf('2026-11-24').toISOString(),
      },
    ]);
  });

  it('gives exactly one credit to 50 parallel check-ins of one member, from two server processes', async () => {
    const who = await member();
    const viaApi = Array.from({ length: 25 }, () => checkInCall(who));
    const viaSecondProcess = Array.from({ length: 25 }, () =>
      checkIn(second.db, who.id).then(
        () => 'ok',
        (error: { code?: string }) => error.code ?? String(error),
      ),
    );
    const [answers, direct] = await Promise.all([Promise.all(viaApi), Promise.all(viaSecondProcess)]);
    const apiOk = answers.filter((a) => a.res.status === 200).length;
    const directOk = direct.filter((d) => d === 'ok').length;
    expect(apiOk + directOk).toBe(1);
    for (const answer of answers.filter((a) => a.res.status !== 200)) expectFailure(answer, 409, 'ALREADY_CHECKED_IN');
    expect(direct.filter((d) => d !== 'ok').every((d) => d === 'ALREADY_CHECKED_IN')).toBe(true);
    const after = await stored(who);
    expect(after.days).toHaveLength(1);
    expect(after.ledger).toHaveLength(1);
    expect(after.balance).toBe(after.days[0]!.points);
    expect(after.sum).toBe(after.balance);
  });

  it('turns the day at 00:00 in Shanghai, not at midnight UTC, and keeps the streak', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2026-11-24T15:59:59.000Z'); // 23:59:59 on the 24th in Shanghai
    const who = await member();
    expect(data((await checkInCall(who)).body).points).toBeGreaterThan(0);
    expectFailure(await checkInCall(who), 409, 'ALREADY_CHECKED_IN');
    at('2026-11-24T16:00:00.000Z'); // 00:00 on the 25th
    expect((await status(who)).isCheckIn).toBe(false);
    expect(data((await checkInCall(who)).body).points).toBeGreaterThan(0);
    expect(await status(who)).toMatchObject({ isCheckIn: true, checkInStreak: 2, longestCheckInStreak: 2 });
    // Still the 25th in Shanghai at 15:59 UTC; on the 26th (no check-in yet) the streak is alive.
    at('2026-11-25T15:59:00.000Z');
    expectFailure(await checkInCall(who), 409, 'ALREADY_CHECKED_IN');
    at('2026-11-26T04:00:00.000Z');
    expect(await status(who)).toMatchObject({ isCheckIn: false, checkInStreak: 2 });
    // A whole day missed: the streak is gone, the longest stays, and the next check-in starts at 1.
    at('2026-11-27T04:00:00.000Z');
    expect(await status(who)).toMatchObject({ isCheckIn: false, checkInStreak: 0, longestCheckInStreak: 2 });
    await checkInCall(who);
    expect(await status(who)).toMatchObject({ isCheckIn: true, checkInStreak: 1, longestCheckInStreak: 2 });
    expect((await records(who)).map((r) => r.date)).toEqual(['2026-11-24', '2026-11-25', '2026-11-27']);
  });

  it('charges (make-ups so far + 1) × 30, at most 3 a month, and refuses the rest without a change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(noonOf('2026-11-24'));
    const who = await member(200);
    const first = await makeUpCall(who, '2026-11-03');
    expect(first.body).toMatchObject({ success: true, message: '补签成功' });
    expect(data(first.body)).toEqual({ points: 30 });
    expect((await status(who)).makeUpCost).toBe(60);
    const confirmed = await call<CheckInResult>(app, 'POST', '/v2/user/check-in/make-up', await token(who), {
      date: '2026-11-05',
      cost: 60,
    });
    expect(data(confirmed.body)).toEqual({ points: 60 });
    // A cost confirmed in another tab before that tab's make-up is refused, not charged.
    const stale = await call(app, 'POST', '/v2/user/check-in/make-up', await token(who), {
      date: '2026-11-09',
      cost: 60,
    });
    expectFailure(stale, 409, 'MAKE_UP_COST_CHANGED');
    expect(failureMessage(stale)).toBe('补签费用已变为 90 HikariPoint，请重新确认');
    expect(data((await makeUpCall(who, '2026-11-07')).body)).toEqual({ points: 90 });
    const before = await stored(who);
    expect(before.balance).toBe(20);
    expect(await status(who)).toMatchObject({ makeUpCount: 3, makeUpLimit: 3 });

    const fourth = await makeUpCall(who, '2026-11-09');
    expectFailure(fourth, 409, 'MAKE_UP_LIMIT');
    expect(failureMessage(fourth)).toBe('本月的补签次数已用完（每月最多 3 次）');
    expect(await stored(who)).toEqual(before);
    expect(await records(who)).toEqual([
      { date: '2026-11-03', isMakeUp: true },
      { date: '2026-11-05', isMakeUp: true },
      { date: '2026-11-07', isMakeUp: true },
    ]);
    // Next month the count starts again (and the cost with it).
    at(noonOf('2026-12-10'));
    expect(await status(who)).toMatchObject({ makeUpCount: 0, makeUpCost: 30 });
  });

  it('refuses a make-up the balance cannot pay, and one for today, the future, another month or a recorded day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(noonOf('2026-11-24'));
    const poor = await member(29);
    const short = await makeUpCall(poor, '2026-11-10');
    expectFailure(short, 409, 'INSUFFICIENT_POINTS');
    expect(failureMessage(short)).toBe('HikariPoint 不足：需要 30，当前只有 29');
    expect(await stored(poor)).toMatchObject({ balance: 29, days: [], seq: 1 });

    const who = await member(500);
    await checkInOn(who, ['2026-11-20']);
    const snapshot = await stored(who);
    for (const [date, code, status] of [
      ['2026-11-24', 'MAKE_UP_NOT_ALLOWED', 422],
      ['2026-11-25', 'MAKE_UP_NOT_ALLOWED', 422],
      ['2026-10-31', 'MAKE_UP_NOT_ALLOWED', 422],
      ['2026-11-20', 'ALREADY_CHECKED_IN', 409],
    ] as const) {
      expectFailure(await makeUpCall(who, date), status, code);
    }
    for (const bad of [
      '2026-11-31',
      '2026-2-1',
      '20261120',
      '',
      'x'.repeat(5000),
      20261120,
      null,
      ['2026-11-20'],
      true,
    ])
      expectFailure(await makeUpCall(who, bad), 400, 'VALIDATION_FAILED');
    expectFailure(
      await call(app, 'POST', '/v2/user/check-in/make-up', await token(who), { date: '2026-11-10', extra: 1 }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await call(app, 'POST', '/v2/user/check-in', await token(who), { any: 1 }), 400, 'VALIDATION_FAILED');
    for (const month of ['2026-13', '0050-01', '2026-1', '2026-11-01', '%00'])
      expectFailure(
        await call(app, 'GET', `/v2/user/check-in/records?month=${month}`, await token(who)),
        400,
        'VALIDATION_FAILED',
      );
    for (const cost of ['30', 0, -30, 1.5, 10_000_000])
      expectFailure(
        await call(app, 'POST', '/v2/user/check-in/make-up', await token(who), { date: '2026-11-10', cost }),
        400,
        'VALIDATION_FAILED',
      );
    expect(await stored(who)).toEqual(snapshot);
    // Visitors are asked to log in.
    for (const [method, path] of [
      ['POST', '/v2/user/check-in'],
      ['POST', '/v2/user/check-in/make-up'],
      ['GET', '/v2/user/check-in/status'],
      ['GET', '/v2/user/check-in/records'],
      ['GET', '/v2/user/status'],
      ['GET', '/v2/user/points/history'],
    ] as const)
      expectFailure(await call(app, method, path, undefined, method === 'POST' ? {} : undefined), 401, 'UNAUTHORIZED');
  });

  it('charges once for 20 parallel make-ups of the same day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(noonOf('2026-11-24'));
    const who = await member(100);
    const answers = await Promise.all(Array.from({ length: 20 }, () => makeUpCall(who, '2026-11-12')));
    expect(answers.filter((a) => a.res.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.res.status !== 200)) expectFailure(answer, 409, 'ALREADY_CHECKED_IN');
    const after = await stored(who);
    expect(after.balance).toBe(70);
    expect(after.days).toEqual([{ date: '2026-11-12', makeUp: true, points: 30 }]);
    expect(after.ledger.map((l) => [l.reason, l.amount])).toEqual([
      ['grant', 100],
      ['make_up', -30],
    ]);
  });

  it('joins two runs when a make-up fills the gap between them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(noonOf('2026-11-24'));
    const who = await member(300);
    await checkInOn(who, ['2026-11-17', '2026-11-18', '2026-11-20', '2026-11-21', '2026-11-23', '2026-11-24']);
    expect(await status(who)).toMatchObject({ checkInStreak: 2, longestCheckInStreak: 2 });
    // Filling the 22nd joins 20–21 with 23–24: the current streak is 5.
    await makeUpCall(who, '2026-11-22');
    expect(await status(who)).toMatchObject({ checkInStreak: 5, longestCheckInStreak: 5 });
    // Filling the 19th joins 17–18 with the current run: 8.
    await makeUpCall(who, '2026-11-19');
    expect(await status(who)).toMatchObject({ checkInStreak: 8, longestCheckInStreak: 8 });

    // A make-up in an old gap that does not reach the latest day leaves the current streak alone.
    const other = await member(300);
    await checkInOn(other, ['2026-11-02', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-24']);
    await makeUpCall(other, '2026-11-03');
    expect(await status(other)).toMatchObject({ checkInStreak: 1, longestCheckInStreak: 5 });
    // A make-up of yesterday continues today's run.
    await makeUpCall(other, '2026-11-23');
    expect(await status(other)).toMatchObject({ checkInStreak: 2, longestCheckInStreak: 5 });
    expect((await verifyPoints(app.ctx.db)).mismatches).toEqual([]);
  });

  it('leaves neither the day nor the points when the ledger write fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(noonOf('2026-11-24'));
    const who = await member(100);
    const before = await stored(who);
    const postgres = dialectOf(app.ctx.db) === 'postgres';
    // A failure between the writes: the ledger refuses the row after the day and the balance were written.
    if (postgres) {
      await sql`create function fail_ledger() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`.execute(
        app.ctx.db,
      );
      await sql`create trigger fail_ledger before insert on point_ledger for each row execute function fail_ledger()`.execute(
        app.ctx.db,
      );
    } else {
      await sql`create trigger fail_ledger before insert on point_ledger begin select raise(abort, 'injected failure'); end`.execute(
        app.ctx.db,
      );
    }
    try {
      expectFailure(await checkInCall(who), 500, 'INTERNAL_ERROR');
      expectFailure(await makeUpCall(who, '2026-11-10'), 500, 'INTERNAL_ERROR');
      expect(await stored(who)).toEqual(before);
    } finally {
      await sql`drop trigger fail_ledger${sql.raw(postgres ? ' on point_ledger' : '')}`.execute(app.ctx.db);
      if (postgres) await sql`drop function fail_ledger()`.execute(app.ctx.db);
    }
    expect(data((await checkInCall(who)).body).points).toBeGreaterThan(0);
    expect(data((await makeUpCall(who, '2026-11-10')).body).points).toBe(30);
  });

  it('finds a balance that is not the sum of its ledger', async () => {
    const who = await member(40);
    const before = await verifyPoints(app.ctx.db);
    expect(before.mismatches).toEqual([]);
    expect(before.checked).toBeGreaterThan(0);
    await app.ctx.db.updateTable('users').set({ hikari_point: 41 }).where('id', '=', who.id).execute();
    const after = await verifyPoints(app.ctx.db);
    expect(after.mismatches).toEqual([expect.objectContaining({ userId: who.userId, balance: 41, ledgerSum: 40 })]);
    await app.ctx.db.updateTable('users').set({ hikari_point: 40 }).where('id', '=', who.id).execute();
  });
});
