import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { dialectOf, type Database } from '../../db/database.ts';
import { HttpError } from '../errors.ts';
import type { JsonValue } from '../bus/bus.ts';
import { messageRef } from '../../../shared/i18n/index.ts';

/** Job name → payload type. Declare payloads as `type` aliases of plain JSON. */
export type JobMap = Record<string, JsonValue>;

/** Any Kysely handle: the application's `db`, or the caller's transaction. */
export type DbOrTrx = Kysely<Database>;

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date | number;
  /** Attempts before the job is dead (default 5). */
  maxAttempts?: number;
  /** While a job with this name and key is waiting, enqueueing another returns it instead. */
  dedupeKey?: string;
  /** The current time in ms (tests pass a fixed clock). */
  now?: number;
}

export interface EnqueueResult {
  id: string;
  /** True when an equal job (same name and dedupe key) was already waiting; no new job was written. */
  deduplicated: boolean;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
/** Payloads are small descriptions of work (ids, options), not the data itself. */
export const MAX_JOB_PAYLOAD_BYTES = 64 * 1024;
const NAME_PATTERN = /^[a-z][a-z0-9_]*([.:-][a-z0-9_]+)*$/;
/** The dedupe key of the instances `scheduleRecurring` enqueues. */
export const SCHEDULE_DEDUPE_KEY = 'schedule';

export const iso = (ms: number) => new Date(ms).toISOString();

export function assertJobName(name: string): void {
  if (typeof name !== 'string' || name.length > 100 || !NAME_PATTERN.test(name)) {
    throw new TypeError(
      `Job name ${JSON.stringify(name)} is not valid: use lower-case words of a-z, 0-9 and _ joined by . : or - ` +
        '(e.g. "mail.send"), at most 100 characters.',
    );
  }
}

function encodeJobPayload(name: string, payload: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (error) {
    throw new TypeError(`Payload of job "${name}" is not plain JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw new TypeError(`Payload of job "${name}" is not plain JSON (got ${typeof payload}).`);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_JOB_PAYLOAD_BYTES) {
    throw new HttpError(
      413,
      'PAYLOAD_TOO_LARGE',
      messageRef('server.jobPayloadTooLarge', { name, bytes, limit: MAX_JOB_PAYLOAD_BYTES }),
    );
  }
  return text;
}

function toMs(value: Date | number, what: string): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (!Number.isFinite(ms)) throw new RangeError(`${what} is not a valid time.`);
  return ms;
}

/**
 * Writes a job. Pass the caller's transaction to make the job part of it: it becomes visible to
 * workers only when the transaction commits, and a rollback leaves no job.
 */
export async function enqueue<P extends JsonValue>(
  db: DbOrTrx,
  name: string,
  payload: P,
  options: EnqueueOptions = {},
): Promise<EnqueueResult> {
  assertJobName(name);
  const text = encodeJobPayload(name, payload);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
    throw new RangeError(`maxAttempts of job "${name}" must be a whole number from 1 to 100 (got ${maxAttempts}).`);
  }
  const dedupeKey = options.dedupeKey ?? null;
  if (dedupeKey !== null && (typeof dedupeKey !== 'string' || dedupeKey.length < 1 || dedupeKey.length > 200)) {
    throw new RangeError(`dedupeKey of job "${name}" must be a string of 1 to 200 characters.`);
  }
  const now = toMs(options.now ?? Date.now(), 'now');
  const runAt = options.runAt === undefined ? now : toMs(options.runAt, `runAt of job "${name}"`);

  // A waiting twin can start running between the insert and the look-up; then insert again.
  for (let tries = 0; tries < 3; tries++) {
    const id = randomBytes(12).toString('hex');
    const inserted = await db
      .insertInto('job')
      .values({
        id,
        name,
        payload: text,
        max_attempts: maxAttempts,
        run_at: iso(runAt),
        dedupe_key: dedupeKey,
        created_at: iso(now),
        updated_at: iso(now),
      })
      // Never a unique-violation error: on PostgreSQL that would abort the caller's transaction.
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, deduplicated: false };
    const waiting = db
      .selectFrom('job')
      .select('id')
      .where('name', '=', name)
      .where('dedupe_key', '=', dedupeKey)
      .where('status', 'in', ['queued', 'failed']);
    // On PostgreSQL a worker could claim the twin before the caller's transaction commits and run it
    // without the caller's rows: locking it keeps the claim (FOR UPDATE SKIP LOCKED) off it until then.
    // One that is being claimed is waited for and, now running, no longer matches: a new job is written.
    // SQLite needs nothing: the caller's write transaction holds the only writer until it commits.
    const twin = await (dialectOf(db) === 'postgres' ? waiting.forUpdate() : waiting).executeTakeFirst();
    if (twin) return { id: twin.id, deduplicated: true };
  }
  throw new Error(`Job "${name}" could not be enqueued: its dedupe key kept changing hands.`);
}

/**
 * Makes sure the next instance of a recurring job is waiting. Instances run on slots every
 * `everyMs` counted from the epoch (so every process agrees on them), at most one waiting at a time.
 * Returns the time (ms) of the waiting instance; nothing needs checking before then.
 */
export async function scheduleRecurring(db: DbOrTrx, name: string, everyMs: number, now: number): Promise<number> {
  assertJobName(name);
  if (!Number.isInteger(everyMs) || everyMs < 1000) {
    throw new RangeError(`The interval of recurring job "${name}" must be a whole number of ms, at least 1000.`);
  }
  const slot = Math.floor(now / everyMs) * everyMs + everyMs;
  const latest = await db
    .selectFrom('job')
    .select('run_at')
    .where('name', '=', name)
    .where('dedupe_key', '=', SCHEDULE_DEDUPE_KEY)
    .orderBy('run_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  // An instance for this slot already exists (waiting, running or even done): a process whose clock is a
  // little behind must not add a second one.
  if (latest && latest.run_at >= iso(slot)) return Date.parse(latest.run_at);
  const { id, deduplicated } = await enqueue(
    db,
    name,
    { scheduledFor: iso(slot) },
    { runAt: slot, dedupeKey: SCHEDULE_DEDUPE_KEY, now },
  );
  if (!deduplicated) return slot;
  const waiting = await db.selectFrom('job').select('run_at').where('id', '=', id).executeTakeFirst();
  return waiting ? Date.parse(waiting.run_at) : now;
}

/** Deletes done jobs older than `doneBefore` and dead ones older than `deadBefore`; returns how many. */
export async function pruneJobs(db: DbOrTrx, cutoffs: { doneBefore: number; deadBefore: number }): Promise<number> {
  const result = await db
    .deleteFrom('job')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'done'), eb('updated_at', '<', iso(cutoffs.doneBefore))]),
        eb.and([eb('status', '=', 'dead'), eb('updated_at', '<', iso(cutoffs.deadBefore))]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
