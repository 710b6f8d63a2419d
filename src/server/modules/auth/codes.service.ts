import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { CODE_MAX_ATTEMPTS, CODE_RESEND_SECONDS, CODE_TTL_SECONDS, type CodePurpose } from '../../../shared/auth.ts';
import type { Db } from '../../db/database.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { messageRef } from '../../../shared/i18n/index.ts';

export interface IssuedCode {
  uuid: string;
  /** The plain code, to be mailed; never stored. */
  code: string;
  expiresIn: number;
  resendAfter: number;
}

function codeHash(secret: string, uuid: string, code: string): string {
  return createHmac('sha256', secret).update(`${uuid}:${code}`).digest('hex');
}

/**
 * What a code is bound to: the address it was mailed to, what it may be used for, and the account it
 * was issued for (null for registration, where there is no account yet). A code is accepted only
 * where all three match.
 */
export interface CodeBinding {
  email: string;
  purpose: CodePurpose;
  userId: string | null;
}

/**
 * Issues a 6-digit code for an email, purpose and account (10-minute expiry). A new code for the same
 * email and purpose within 60 s is refused with CODE_COOLDOWN; issuing a code retires the earlier ones
 * of the same binding.
 */
export async function issueCode(db: Db, secret: string, binding: CodeBinding, now = new Date()): Promise<IssuedCode> {
  const { email, purpose, userId } = binding;
  const latest = await db
    .selectFrom('one_time_code')
    .select('created_at')
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (latest) {
    const wait = Math.ceil((new Date(latest.created_at).getTime() + CODE_RESEND_SECONDS * 1000 - now.getTime()) / 1000);
    if (wait > 0)
      throw new HttpError(429, 'CODE_COOLDOWN', messageRef('server.codeCooldown', { seconds: wait }), {
        retryAfter: wait,
      });
  }
  const uuid = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('one_time_code')
      .set({ consumed_at: now.toISOString() })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('user_id', userId === null ? 'is' : '=', userId)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('one_time_code')
      .values({
        id: uuid,
        email,
        purpose,
        user_id: userId,
        code_hash: codeHash(secret, uuid, code),
        expires_at: new Date(now.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
        created_at: now.toISOString(),
        verified_at: null,
        consumed_at: null,
      })
      .execute();
  });
  return { uuid, code, expiresIn: CODE_TTL_SECONDS, resendAfter: CODE_RESEND_SECONDS };
}

export interface CodeCheck extends CodeBinding {
  uuid: string;
  code: string;
}

const invalid = () =>
  new HttpError(400, 'CODE_INVALID', 'server.codeInvalid', fieldIssue('code', 'server.codeInvalid'));

/**
 * Checks a code. A wrong code uses one of its 5 attempts; after 5 it is dead. With `consume`, a correct
 * code is used up atomically (only one caller can consume it). Runs on `db` or inside the caller's
 * transaction; attempt counting must happen outside a transaction that may roll back.
 */
export async function checkCode(
  db: Db,
  secret: string,
  input: CodeCheck,
  options: { consume: boolean; now?: Date },
): Promise<void> {
  const now = options.now ?? new Date();
  // Reserve one attempt before comparing, in one conditional update: parallel guesses each take a
  // slot, so no more than 5 comparisons ever happen for a code.
  const reserved = await db
    .updateTable('one_time_code')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', input.uuid)
    .where('email', '=', input.email)
    .where('purpose', '=', input.purpose)
    .where('user_id', input.userId === null ? 'is' : '=', input.userId)
    .where('consumed_at', 'is', null)
    .where('attempts', '<', CODE_MAX_ATTEMPTS)
    .where('expires_at', '>', now.toISOString())
    .returning(['id', 'code_hash', 'verified_at'])
    .executeTakeFirst();
  if (!reserved) {
    const row = await db
      .selectFrom('one_time_code')
      .select(['consumed_at', 'expires_at', 'attempts'])
      .where('id', '=', input.uuid)
      .where('email', '=', input.email)
      .where('purpose', '=', input.purpose)
      .where('user_id', input.userId === null ? 'is' : '=', input.userId)
      .executeTakeFirst();
    if (!row || row.consumed_at) throw invalid();
    if (new Date(row.expires_at).getTime() <= now.getTime()) {
      throw new HttpError(400, 'CODE_EXPIRED', 'server.codeExpired', {
        issues: [{ path: 'code', message: 'server.codeExpired' }],
      });
    }
    throw new HttpError(400, 'CODE_TOO_MANY_ATTEMPTS', 'server.codeTooManyAttempts', {
      issues: [{ path: 'code', message: 'server.codeTooManyAttempts' }],
    });
  }
  const row = reserved;
  const expected = Buffer.from(row.code_hash, 'hex');
  const actual = Buffer.from(codeHash(secret, input.uuid, input.code), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw invalid();
  // A right code gives its attempt back: only wrong guesses count towards the 5.
  await db
    .updateTable('one_time_code')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('id', '=', row.id)
    .execute();
  if (!options.consume) {
    await db.updateTable('one_time_code').set({ verified_at: now.toISOString() }).where('id', '=', row.id).execute();
    return;
  }
  const result = await db
    .updateTable('one_time_code')
    .set({ consumed_at: now.toISOString(), verified_at: row.verified_at ?? now.toISOString() })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw invalid();
}

/**
 * Uses up a code that checkCode accepted for the same binding; false when another request used it
 * first (or the binding does not match).
 */
export async function consumeCode(db: Db, uuid: string, binding: CodeBinding, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('one_time_code')
    .set({ consumed_at: now.toISOString() })
    .where('id', '=', uuid)
    .where('email', '=', binding.email)
    .where('purpose', '=', binding.purpose)
    .where('user_id', binding.userId === null ? 'is' : '=', binding.userId)
    .where('consumed_at', 'is', null)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
