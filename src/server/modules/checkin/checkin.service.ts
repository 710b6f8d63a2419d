import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import {
  CHECK_IN_POINTS_MAX,
  CHECK_IN_POINTS_MIN,
  MAKE_UP_MONTHLY_LIMIT,
  currentStreak,
  makeUpCost,
  type CheckInRecord,
  type CheckInStatus,
  type UserCheckInStatus,
} from '../../../shared/checkin/checkin-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { addDays, monthRange, siteToday, type SiteDate } from '../../../shared/site-day.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import { changePoints, notEnoughPoints } from '../points/points.service.ts';

/**
 * Daily check-in and make-up check-in (issue 15, decision 025). Days are site days (Asia/Shanghai).
 *
 * - A check-in inserts the day's row first: the key (user_id, date) lets exactly one of any number of
 *   simultaneous attempts through, on one server process or many; the others find the row and are
 *   refused. The points, the streak and the ledger row follow in the same transaction.
 * - A make-up locks the member's row first (PostgreSQL; SQLite runs one writer at a time), then checks
 *   the month's make-ups, the day and the balance, and writes the day, the charge and the streak in one
 *   transaction: a refusal or a failure anywhere leaves nothing behind.
 * - Streaks: `check_in_streak` counts the run of consecutive recorded days ending on
 *   `check_in_streak_end`, the latest recorded day. A made-up day counts like any other: when it fills
 *   the gap between two runs they become one, and if that run reaches the latest day it is the current
 *   streak. The streak shown is 0 once a whole day passed without a record. The longest streak is the
 *   longest run there ever was.
 */

/** A check-in's points: uniformly 1–10. */
export type PointsDraw = () => number;
const drawPoints: PointsDraw = () => randomInt(CHECK_IN_POINTS_MIN, CHECK_IN_POINTS_MAX + 1);

interface StreakState {
  hikari_point: number;
  check_in_streak: number;
  longest_check_in_streak: number;
  check_in_streak_end: string | null;
}

/**
 * The member's row for an update in this transaction: locked on PostgreSQL until it ends. FOR NO KEY
 * UPDATE, the lock the UPDATE itself takes: it does not wait for the key-share lock a check-in's insert
 * holds on the row (its foreign key), so a check-in and a make-up of one member cannot deadlock.
 */
async function lockMember(trx: Db, userId: string): Promise<StreakState> {
  const query = trx
    .selectFrom('users')
    .select(['hikari_point', 'check_in_streak', 'longest_check_in_streak', 'check_in_streak_end'])
    .where('id', '=', userId);
  const row = await (dialectOf(trx) === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return {
    hikari_point: Number(row.hikari_point),
    check_in_streak: Number(row.check_in_streak),
    longest_check_in_streak: Number(row.longest_check_in_streak),
    check_in_streak_end: row.check_in_streak_end,
  };
}

/** Runs `work` in `db`'s transaction, or in a new one. */
const inTransaction = <T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

const alreadyCheckedIn = () => new HttpError(409, 'ALREADY_CHECKED_IN', 'server.checkIn.already');

/** Checks the member in for today; answers the points earned. */
export async function checkIn(
  db: Db,
  userId: string,
  now = new Date(),
  draw: PointsDraw = drawPoints,
): Promise<{ points: number; balance: number }> {
  const today = siteToday(now);
  const points = draw();
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('check_in')
      .values({ user_id: userId, date: today, is_make_up: 0, points, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'date']).doNothing())
      .returning('date')
      .executeTakeFirst();
    if (!inserted) throw alreadyCheckedIn();
    // One UPDATE moves the balance and the streak (it reads the row as it was before it): the run goes
    // on when it ended yesterday, else starts again.
    const streak = sql<number>`(case when check_in_streak_end = ${addDays(today, -1)} then check_in_streak + 1 else 1 end)`;
    const { balance } = await changePoints(trx, { userId, amount: points, reason: 'check_in', reference: today }, now, {
      check_in_streak: streak,
      longest_check_in_streak: sql<number>`(case when ${streak} > longest_check_in_streak then ${streak} else longest_check_in_streak end)`,
      check_in_streak_end: today,
      last_check_in_at: now.toISOString(),
    });
    return { points, balance };
  });
}

const notAllowed = (key: 'server.checkIn.makeUpNotPast' | 'server.checkIn.makeUpOtherMonth') =>
  new HttpError(422, 'MAKE_UP_NOT_ALLOWED', key);

/** How many days the member made up in the month of `date`. */
async function makeUpsInMonth(db: Db, userId: string, date: SiteDate): Promise<number> {
  const { first, last } = monthRange(date.slice(0, 7));
  const row = await db
    .selectFrom('check_in')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('date', '>=', first)
    .where('date', '<=', last)
    .where('is_make_up', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Consecutive recorded days right before `date` (however far back they go). */
async function runBefore(db: Db, userId: string, date: SiteDate): Promise<number> {
  const batch = 64;
  let count = 0;
  let expected = addDays(date, -1);
  for (;;) {
    const rows = await db
      .selectFrom('check_in')
      .select('date')
      .where('user_id', '=', userId)
      .where('date', '<=', expected)
      .orderBy('date', 'desc')
      .limit(batch)
      .execute();
    for (const row of rows) {
      if (row.date !== expected) return count;
      count += 1;
      expected = addDays(expected, -1);
    }
    if (rows.length < batch) return count;
  }
}

/** Consecutive recorded days right after `date`, up to `today`. */
async function runAfter(db: Db, userId: string, date: SiteDate, today: SiteDate): Promise<number> {
  const rows = await db
    .selectFrom('check_in')
    .select('date')
    .where('user_id', '=', userId)
    .where('date', '>', date)
    .where('date', '<=', today)
    .orderBy('date', 'asc')
    .execute();
  let count = 0;
  for (const row of rows) {
    if (row.date !== addDays(date, count + 1)) break;
    count += 1;
  }
  return count;
}

/** Makes up a missed past day of this month; answers the points charged. */
export async function makeUp(
  db: Db,
  userId: string,
  date: SiteDate,
  now = new Date(),
  confirmedCost?: number,
): Promise<{ points: number; balance: number; streak: number }> {
  const today = siteToday(now);
  if (date >= today) throw notAllowed('server.checkIn.makeUpNotPast');
  if (date.slice(0, 7) !== today.slice(0, 7)) throw notAllowed('server.checkIn.makeUpOtherMonth');
  return inTransaction(db, async (trx) => {
    const state = await lockMember(trx, userId);
    const made = await makeUpsInMonth(trx, userId, date);
    if (made >= MAKE_UP_MONTHLY_LIMIT) {
      throw new HttpError(
        409,
        'MAKE_UP_LIMIT',
        messageRef('server.checkIn.makeUpLimit', { max: MAKE_UP_MONTHLY_LIMIT }),
      );
    }
    const cost = makeUpCost(made);
    if (confirmedCost !== undefined && confirmedCost !== cost) {
      throw new HttpError(409, 'MAKE_UP_COST_CHANGED', messageRef('server.checkIn.costChanged', { cost }));
    }
    if (await checkedInOn(trx, userId, date))
      throw new HttpError(409, 'ALREADY_CHECKED_IN', 'server.checkIn.makeUpRecorded');
    if (state.hikari_point < cost) throw notEnoughPoints(cost, state.hikari_point);

    // A check-in of that day still in flight (it was today a moment ago) may commit first: no row, no charge.
    const inserted = await trx
      .insertInto('check_in')
      .values({ user_id: userId, date, is_make_up: 1, points: cost, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'date']).doNothing())
      .returning('date')
      .executeTakeFirst();
    if (!inserted) throw new HttpError(409, 'ALREADY_CHECKED_IN', 'server.checkIn.makeUpRecorded');
    const before = await runBefore(trx, userId, date);
    const after = await runAfter(trx, userId, date, today);
    const run = before + 1 + after;
    const runEnd = addDays(date, after);
    const latest = state.check_in_streak_end === null || runEnd >= state.check_in_streak_end;
    const streak = {
      check_in_streak: latest ? run : state.check_in_streak,
      check_in_streak_end: latest ? runEnd : state.check_in_streak_end,
    };
    const { balance } = await changePoints(trx, { userId, amount: -cost, reason: 'make_up', reference: date }, now, {
      ...streak,
      longest_check_in_streak: Math.max(state.longest_check_in_streak, run),
    });
    return { points: cost, balance, streak: currentStreak(streak.check_in_streak, streak.check_in_streak_end, today) };
  });
}

/** Whether the member has a record (check-in or make-up) on a site date. */
export async function checkedInOn(db: Db, userId: string, date: SiteDate): Promise<boolean> {
  const row = await db
    .selectFrom('check_in')
    .select('date')
    .where('user_id', '=', userId)
    .where('date', '=', date)
    .executeTakeFirst();
  return row !== undefined;
}

async function memberRow(db: Db, userId: string): Promise<StreakState> {
  const row = await db
    .selectFrom('users')
    .select(['hikari_point', 'check_in_streak', 'longest_check_in_streak', 'check_in_streak_end'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return row;
}

/** Spec §3 user status: checked in today, the current streak, the balance. */
export async function userCheckInStatus(db: Db, userId: string, now = new Date()): Promise<UserCheckInStatus> {
  const today = siteToday(now);
  const [row, isCheckIn] = await Promise.all([memberRow(db, userId), checkedInOn(db, userId, today)]);
  return {
    isCheckIn,
    checkInStreak: currentStreak(Number(row.check_in_streak), row.check_in_streak_end, today),
    hikariPoint: Number(row.hikari_point),
  };
}

/** The user status and what the calendar shows: streaks, this month's make-ups and the next one's cost. */
export async function checkInStatus(db: Db, userId: string, now = new Date()): Promise<CheckInStatus> {
  const today = siteToday(now);
  const [row, isCheckIn, made] = await Promise.all([
    memberRow(db, userId),
    checkedInOn(db, userId, today),
    makeUpsInMonth(db, userId, today),
  ]);
  return {
    isCheckIn,
    checkInStreak: currentStreak(Number(row.check_in_streak), row.check_in_streak_end, today),
    longestCheckInStreak: Number(row.longest_check_in_streak),
    hikariPoint: Number(row.hikari_point),
    today,
    makeUpCount: made,
    makeUpLimit: MAKE_UP_MONTHLY_LIMIT,
    makeUpCost: makeUpCost(made),
  };
}

/** The member's records of a month (`YYYY-MM`, default this month), oldest first. */
export async function checkInRecords(
  db: Db,
  userId: string,
  month?: string,
  now = new Date(),
): Promise<CheckInRecord[]> {
  const { first, last } = monthRange(month ?? siteToday(now).slice(0, 7));
  const rows = await db
    .selectFrom('check_in')
    .select(['date', 'is_make_up'])
    .where('user_id', '=', userId)
    .where('date', '>=', first)
    .where('date', '<=', last)
    .orderBy('date', 'asc')
    .execute();
  return rows.map((row) => ({ date: row.date, isMakeUp: Number(row.is_make_up) === 1 }));
}
