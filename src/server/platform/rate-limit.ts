import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { HttpError } from './errors.ts';
import { type MessageRef } from '../../shared/i18n/index.ts';

export interface RateRule {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateState {
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Counts one hit against `key` in a fixed window, atomically (one upsert), in the database so every
 * app instance shares the counters. Returns the count including this hit.
 */
export async function hitRateLimit(db: Db, key: string, rule: RateRule, now = Date.now()): Promise<RateState> {
  const windowStart = now - (now % rule.windowMs);
  const row = await db
    .insertInto('rate_limit')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limit.window_start = ${windowStart} then rate_limit.count + 1 else 1 end`,
        pending: sql<number>`case when rate_limit.window_start = ${windowStart} then rate_limit.pending else 0 end`,
        window_start: windowStart,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), retryAfter: Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)) };
}

/** The current count without adding a hit. */
export async function peekRateLimit(db: Db, key: string, rule: RateRule, now = Date.now()): Promise<RateState> {
  const windowStart = now - (now % rule.windowMs);
  const row = await db
    .selectFrom('rate_limit')
    .select(['count', 'window_start'])
    .where('key', '=', key)
    .executeTakeFirst();
  const count = row && Number(row.window_start) === windowStart ? Number(row.count) : 0;
  return { count, retryAfter: Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)) };
}

export function rateLimited(retryAfter: number, message: MessageRef = 'server.rateLimited'): HttpError {
  return new HttpError(429, 'RATE_LIMITED', message, { retryAfter });
}

/** Adds a hit and throws 429 when it goes over the limit. */
export async function enforceRateLimit(db: Db, key: string, rule: RateRule, now = Date.now()): Promise<void> {
  const state = await hitRateLimit(db, key, rule, now);
  if (state.count > rule.limit) throw rateLimited(state.retryAfter);
}

/**
 * `enforceRateLimit` that remembers, in this process, the counters it found over their limit: the rest
 * of that window is refused without touching the database (a fixed window starts over only when it
 * ends), so a flood past a budget costs one Map lookup a request. Remembers at most `maxKeys` counters.
 */
export function createRateGate(maxKeys = 10_000) {
  const closed = new Map<string, number>();
  return async function pass(
    db: Db,
    key: string,
    rule: RateRule,
    now = Date.now(),
    message: (retryAfter: number) => MessageRef = () => 'server.rateLimited',
  ): Promise<void> {
    const windowEnd = now - (now % rule.windowMs) + rule.windowMs;
    const refuse = (retryAfter: number) => rateLimited(retryAfter, message(retryAfter));
    if (closed.get(key) === windowEnd) throw refuse(Math.max(1, Math.ceil((windowEnd - now) / 1000)));
    const state = await hitRateLimit(db, key, rule, now);
    if (state.count <= rule.limit) return;
    closed.delete(key);
    if (closed.size >= maxKeys) closed.delete(closed.keys().next().value!);
    closed.set(key, windowEnd);
    throw refuse(state.retryAfter);
  };
}

/** Deletes counters whose window ended long ago (run occasionally). */
export async function pruneRateLimits(db: Db, olderThanMs: number, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('rate_limit')
    .where('window_start', '<', now - olderThanMs)
    .execute();
}

/** Takes back one hit in the current window (an attempt that turned out fine, e.g. a right password). */
export async function releaseRateLimit(db: Db, key: string, rule: RateRule, now = Date.now()): Promise<void> {
  const windowStart = now - (now % rule.windowMs);
  await db
    .updateTable('rate_limit')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('count', '>', 0)
    .execute();
}

export interface ReservedState extends RateState {
  /** Of `count`, the attempts still in flight (this one included). */
  pending: number;
}

/**
 * Counts one attempt whose outcome is not known yet (a password about to be checked): it counts against
 * the limit at once, so parallel attempts cannot all slip under it, and is marked in flight until
 * `settleRateLimit`. `count - pending` is then what has really been used up.
 */
export async function reserveRateLimit(db: Db, key: string, rule: RateRule, now = Date.now()): Promise<ReservedState> {
  const windowStart = now - (now % rule.windowMs);
  const same = sql<boolean>`rate_limit.window_start = ${windowStart}`;
  const row = await db
    .insertInto('rate_limit')
    .values({ key, window_start: windowStart, count: 1, pending: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${same} then rate_limit.count + 1 else 1 end`,
        pending: sql<number>`case when ${same} then rate_limit.pending + 1 else 1 end`,
        window_start: windowStart,
      }),
    )
    .returning(['count', 'pending'])
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.count),
    pending: Number(row.pending),
    retryAfter: Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)),
  };
}

/**
 * Ends a reserved attempt made at `reservedAt`: `kept` leaves its count (it failed), `released` takes it
 * back (it turned out fine). Nothing happens once its window has ended (the counter started over).
 */
export async function settleRateLimit(
  db: Db,
  key: string,
  rule: RateRule,
  reservedAt: number,
  outcome: 'kept' | 'released',
): Promise<void> {
  const windowStart = reservedAt - (reservedAt % rule.windowMs);
  await db
    .updateTable('rate_limit')
    .set((eb) => ({
      pending: eb('pending', '-', 1),
      count: outcome === 'released' ? eb('count', '-', 1) : eb.ref('count'),
    }))
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('pending', '>', 0)
    .execute();
}
