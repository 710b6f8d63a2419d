import { sql, type UpdateObject } from 'kysely';
import type { PointEntry, PointHistoryPage, PointReason } from '../../../shared/checkin/checkin-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import type { Database, Db } from '../../db/database.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';

/**
 * The one way HikariPoint moves (decision 025). Every change raises the member's balance and ledger
 * number in one UPDATE and appends the ledger row that UPDATE numbered, in one transaction: both are
 * written or neither is, and the sum of a member's rows is their balance.
 */
export interface PointChange {
  userId: string;
  /** Points added (positive) or taken (negative); never 0. */
  amount: number;
  reason: PointReason;
  /** What the change is about: the checked-in or made-up date, an operator's note. */
  reference?: string | null;
}

export interface PointBalance {
  balance: number;
  seq: number;
}

/** The answer when a charge is larger than the balance. */
export const notEnoughPoints = (cost: number, balance: number) =>
  new HttpError(409, 'INSUFFICIENT_POINTS', messageRef('server.checkIn.notEnoughPoints', { cost, balance }));

/** Other columns of the member's row the caller changes in the same UPDATE (one write, not two). */
export type MemberUpdate = Omit<UpdateObject<Database, 'users'>, 'hikari_point' | 'point_seq'>;

/**
 * Applies one change in `db`'s transaction (or a new one). A charge larger than the balance is refused
 * with INSUFFICIENT_POINTS and writes nothing. Callers that charge for something (a make-up) write that
 * thing in the same transaction, so a refusal or a failure leaves neither.
 */
export async function changePoints(
  db: Db,
  change: PointChange,
  now = new Date(),
  also: MemberUpdate = {},
): Promise<PointBalance> {
  if (!db.isTransaction) return db.transaction().execute((trx) => changePoints(trx, change, now, also));
  const { userId, amount } = change;
  if (!Number.isSafeInteger(amount) || amount === 0) throw new RangeError(`Not a point change: ${amount}`);
  // Literal amounts: SQLite's driver would bind a JavaScript number as a real.
  const moved = await db
    .updateTable('users')
    .set({
      ...also,
      hikari_point: sql<number>`hikari_point + ${sql.lit(amount)}`,
      point_seq: sql<number>`point_seq + 1`,
    })
    .where('id', '=', userId)
    .where(sql<boolean>`hikari_point + ${sql.lit(amount)} >= 0`)
    .returning(['hikari_point', 'point_seq'])
    .executeTakeFirst();
  if (!moved) {
    const user = await db.selectFrom('users').select('hikari_point').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    throw notEnoughPoints(-amount, Number(user.hikari_point));
  }
  const balance = Number(moved.hikari_point);
  const seq = Number(moved.point_seq);
  await db
    .insertInto('point_ledger')
    .values({
      user_id: userId,
      seq,
      amount,
      reason: change.reason,
      reference: change.reference ?? null,
      balance_after: balance,
      created_at: now.toISOString(),
    })
    .execute();
  return { balance, seq };
}

/** The member's ledger, newest first (the points history page). */
export async function pointHistory(db: Db, userId: string, request: PageRequest): Promise<PointHistoryPage> {
  const mine = db.selectFrom('point_ledger').where('user_id', '=', userId);
  const [page, user] = await Promise.all([
    paginate(
      request,
      mine.selectAll().orderBy('seq', 'desc'),
      mine.select((eb) => eb.fn.countAll<number>().as('total')),
    ),
    db.selectFrom('users').select('hikari_point').where('id', '=', userId).executeTakeFirst(),
  ]);
  const items: PointEntry[] = page.items.map((row) => ({
    _id: String(row.seq),
    amount: Number(row.amount),
    reason: row.reason,
    reference: row.reference,
    balanceAfter: Number(row.balance_after),
    createdAt: row.created_at,
  }));
  return { items, pagination: page.pagination, hikariPoint: Number(user?.hikari_point ?? 0) };
}

/** A member whose balance is not the sum of their ledger rows. */
export interface PointMismatch {
  userId: number;
  name: string;
  balance: number;
  ledgerSum: number;
  /** The last row's number on the account, and the number of rows (equal unless rows are missing). */
  pointSeq: number;
  rows: number;
}

/**
 * The ledger's invariant for every member (`npm run points:verify`): the balance equals the sum of the
 * rows, and the rows are numbered 1…point_seq without gaps. Answers the members where it does not hold.
 */
export async function verifyPoints(db: Db): Promise<{ checked: number; mismatches: PointMismatch[] }> {
  const sums = db
    .selectFrom('point_ledger')
    .select((eb) => [
      'user_id',
      eb.fn.sum<number>('amount').as('total'),
      eb.fn.countAll<number>().as('rows'),
      eb.fn.max<number>('seq').as('last_seq'),
    ])
    .groupBy('user_id')
    .as('l');
  const rows = await db
    .selectFrom('users as u')
    .leftJoin(sums, 'l.user_id', 'u.id')
    .select([
      'u.user_id',
      'u.name',
      'u.hikari_point',
      'u.point_seq',
      sql<number>`coalesce(l.total, 0)`.as('total'),
      sql<number>`coalesce(l.rows, 0)`.as('rows'),
      sql<number>`coalesce(l.last_seq, 0)`.as('last_seq'),
    ])
    .execute();
  const mismatches: PointMismatch[] = [];
  for (const row of rows) {
    const balance = Number(row.hikari_point);
    const ledgerSum = Number(row.total);
    const pointSeq = Number(row.point_seq);
    const count = Number(row.rows);
    if (balance !== ledgerSum || pointSeq !== count || Number(row.last_seq) !== count) {
      mismatches.push({ userId: row.user_id, name: row.name, balance, ledgerSum, pointSeq, rows: count });
    }
  }
  return { checked: rows.length, mismatches };
}
