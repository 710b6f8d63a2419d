import { PUBLIC_CODE_PURPOSES, type CodePurpose, type SessionData } from '../../../shared/auth.ts';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../users/users.tables.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { enforceRateLimit, hitRateLimit, rateLimited, releaseRateLimit } from '../../platform/rate-limit.ts';
import { createUser, findUserByEmail, findUserById, isEmailTaken, isNameTaken } from '../users/users.service.ts';
import { nameSkeleton } from '../users/name-skeleton.ts';
import { checkCode, consumeCode, issueCode, type CodeBinding } from './codes.service.ts';
import { admitAccountLookup, rememberAddress } from './login-limits.ts';
import { queueCodeMail, queueEmailChangedMail } from './auth.mail-job.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { LIMITS, clock, createSession, revokeAllSessions, type AuthDeps } from './sessions.service.ts';
import { wholeSecond } from './tokens.ts';
import { type MessageRef } from '../../../shared/i18n/index.ts';

// Account recovery and account changes: verification codes, registration, password reset, and
// changing the password or the email of a logged-in account.

const codeInvalid = (message: MessageRef = 'server.codeInvalid') =>
  new HttpError(400, 'CODE_INVALID', message, fieldIssue('code', message));

/**
 * The public code request: codes for registering and for resetting a forgotten password, asked for
 * by email alone. A change_email code is refused here; it comes only from requestEmailChange, after
 * the current password was checked.
 */
export async function requestCode(deps: AuthDeps, input: { email: string; purpose: CodePurpose; ip: string }) {
  const now = clock(deps);
  if (!(PUBLIC_CODE_PURPOSES as readonly CodePurpose[]).includes(input.purpose)) {
    const message = 'server.codePurposeNotAllowed';
    throw new HttpError(400, 'CODE_PURPOSE_NOT_ALLOWED', message, fieldIssue('type', message));
  }
  if (input.purpose === 'register') {
    // It says whether the email is taken, so it is limited like a login.
    await admitAccountLookup(deps.db, { targets: [`email:${input.email}`], ip: input.ip }, now);
  }
  // A reset code belongs to the account that has the email now.
  const userId =
    input.purpose === 'reset_password' ? ((await findUserByEmail(deps.db, input.email))?.id ?? null) : null;
  return sendCode(deps, { email: input.email, purpose: input.purpose, userId }, input.ip, now);
}

/** Issues a code bound to its email, purpose and account, and mails it. */
async function sendCode(deps: AuthDeps, binding: CodeBinding, ip: string, now: Date) {
  const { email, purpose } = binding;
  await enforceRateLimit(deps.db, `code:ip:${ip}`, LIMITS.codeRequestsPerIp, now.getTime());
  if (purpose === 'register' && (await isEmailTaken(deps.db, email))) {
    throw new HttpError(409, 'EMAIL_TAKEN', 'server.emailTaken', fieldIssue('email', 'server.emailTaken'));
  }
  if (purpose === 'change_email' && (await isEmailTaken(deps.db, email))) {
    throw new HttpError(409, 'EMAIL_TAKEN', 'server.emailInUse', fieldIssue('email', 'server.emailInUse'));
  }
  await enforceRateLimit(deps.db, `code:email:${email}`, LIMITS.codeRequestsPerEmail, now.getTime());
  const issued = await issueCode(deps.db, deps.secret, binding, now);
  // A reset code is mailed only to an existing account; the job is queued either way (with nobody to
  // mail), so the answer looks the same, and takes the same time, whether or not the email has one.
  const to = purpose === 'reset_password' && !binding.userId ? '' : email;
  await queueCodeMail(deps, deps.db, { to, purpose, code: issued.code, now });
  deps.jobs.poke();
  return { uuid: issued.uuid, expiresIn: issued.expiresIn, resendAfter: issued.resendAfter };
}

/**
 * Checks a code without using it up. A change_email code is checked only for its own account (the
 * caller must be logged in as it); a reset code only for the account that has the email.
 */
export async function verifyCode(
  deps: AuthDeps,
  input: { email: string; purpose: CodePurpose; uuid: string; code: string; ip: string; viewerId: string | null },
) {
  const now = clock(deps);
  await enforceRateLimit(deps.db, `code-check:ip:${input.ip}`, LIMITS.codeChecksPerIp, now.getTime());
  let userId: string | null = null;
  if (input.purpose === 'change_email') {
    if (!input.viewerId) throw new HttpError(401, 'UNAUTHORIZED', 'server.loginToVerifyEmailChange');
    userId = input.viewerId;
  } else if (input.purpose === 'reset_password') {
    const owner = await findUserByEmail(deps.db, input.email);
    if (!owner) throw codeInvalid();
    userId = owner.id;
  }
  await checkCode(
    deps.db,
    deps.secret,
    { email: input.email, purpose: input.purpose, userId, uuid: input.uuid, code: input.code },
    { consume: false, now },
  );
  return { verified: true as const };
}

/** Says whether a name and an email are free; limited like a login, per address and per target. */
export async function checkSignup(db: Db, input: { name: string; email: string; ip: string }, now = new Date()) {
  await admitAccountLookup(
    db,
    { targets: [`name:${nameSkeleton(input.name)}`, `email:${input.email}`], ip: input.ip },
    now,
  );
  const [nameTaken, emailTaken] = await Promise.all([isNameTaken(db, input.name), isEmailTaken(db, input.email)]);
  return { name: { available: !nameTaken }, email: { available: !emailTaken } };
}

export async function register(
  deps: AuthDeps,
  input: {
    name: string;
    email: string;
    password: string;
    code: string;
    uuid: string;
    ip: string;
    userAgent?: string | undefined;
  },
): Promise<SessionData> {
  const now = clock(deps);
  await enforceRateLimit(deps.db, `register:ip:${input.ip}`, LIMITS.registrationsPerIp, now.getTime());
  // The code first: without a code from that inbox, nothing is said about which names are taken.
  const binding: CodeBinding = { email: input.email, purpose: 'register', userId: null };
  await checkCode(deps.db, deps.secret, { ...binding, uuid: input.uuid, code: input.code }, { consume: false, now });
  if (await isNameTaken(deps.db, input.name)) {
    throw new HttpError(409, 'NAME_TAKEN', 'server.nameTaken', fieldIssue('name', 'server.nameTaken'));
  }
  if (await isEmailTaken(deps.db, input.email)) {
    throw new HttpError(409, 'EMAIL_TAKEN', 'server.emailTaken', fieldIssue('email', 'server.emailTaken'));
  }
  const passwordHash = await hashPassword(input.password);
  const user = await deps.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, input.uuid, binding, now))) throw codeInvalid('server.codeUsed');
    return createUser(trx, { name: input.name, email: input.email, passwordHash }, now);
  });
  await rememberAddress(deps.db, deps.secret, user.id, input.ip, now);
  return createSession(deps, user, now, input.userAgent);
}

export async function resetPassword(
  deps: AuthDeps,
  input: { email: string; code: string; uuid: string; password: string; ip: string },
): Promise<void> {
  const now = clock(deps);
  await enforceRateLimit(deps.db, `reset:ip:${input.ip}`, LIMITS.resetsPerIp, now.getTime());
  // The code must have been issued to the account that has this email now.
  const user = await findUserByEmail(deps.db, input.email);
  const binding: CodeBinding = { email: input.email, purpose: 'reset_password', userId: user?.id ?? null };
  await checkCode(deps.db, deps.secret, { ...binding, uuid: input.uuid, code: input.code }, { consume: false, now });
  if (!user) throw codeInvalid();
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, input.uuid, binding, now))) throw codeInvalid('server.codeUsed');
    await trx
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        password_changed_at: wholeSecond(now).toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', user.id)
      .execute();
    await revokeAllSessions(trx, deps.events, user.id, 'password_reset', now);
  });
  // The mailed code proved the owner is here: this address is no longer held back by strangers' failures.
  await rememberAddress(deps.db, deps.secret, user.id, input.ip, now);
}

/** Changes the password, ends every login of the account, and starts a fresh one for this device. */
export async function changePassword(
  deps: AuthDeps,
  userId: string,
  input: { oldPassword: string; newPassword: string; userAgent?: string | undefined },
): Promise<SessionData> {
  const now = clock(deps);
  const user = await findUserById(deps.db, userId);
  if (!user) throw new HttpError(401, 'TOKEN_INVALID', 'server.tokenInvalid');
  await checkCurrentPassword(deps, user, input.oldPassword, 'oldPassword', now);
  const passwordHash = await hashPassword(input.newPassword);
  const changedAt = wholeSecond(now);
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: changedAt.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', userId)
      .execute();
    await revokeAllSessions(trx, deps.events, userId, 'password_change', now);
  });
  const fresh = await findUserById(deps.db, userId);
  return createSession(deps, fresh ?? user, now, input.userAgent);
}

/**
 * Checks the account's current password, at most 5 wrong tries per 15 minutes (so a stolen access
 * token cannot be used to guess it).
 */
async function checkCurrentPassword(deps: AuthDeps, user: UserRow, password: string, field: string, now: Date) {
  const key = `password-check:user:${user.id}`;
  const attempt = await hitRateLimit(deps.db, key, LIMITS.passwordChecksPerUser, now.getTime());
  if (attempt.count > LIMITS.passwordChecksPerUser.limit) throw rateLimited(attempt.retryAfter);
  if (!(await verifyPassword(user.password_hash, password))) {
    throw new HttpError(
      400,
      'INVALID_CREDENTIALS',
      'server.wrongCurrentPassword',
      fieldIssue(field, 'server.wrongCurrentPassword'),
    );
  }
  await releaseRateLimit(deps.db, key, LIMITS.passwordChecksPerUser, now.getTime());
}

/** Needs the current password: a stolen access token alone cannot move the account elsewhere. */
export async function requestEmailChange(
  deps: AuthDeps,
  userId: string,
  input: { email: string; password: string; ip: string },
) {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new HttpError(401, 'TOKEN_INVALID', 'server.tokenInvalid');
  const now = clock(deps);
  await checkCurrentPassword(deps, user, input.password, 'password', now);
  return sendCode(deps, { email: input.email, purpose: 'change_email', userId }, input.ip, now);
}

export async function changeEmail(
  deps: AuthDeps,
  userId: string,
  input: { email: string; code: string; uuid: string },
): Promise<UserRow> {
  const now = clock(deps);
  // Only a code this account asked for (with its password) to this address.
  const binding: CodeBinding = { email: input.email, purpose: 'change_email', userId };
  await checkCode(deps.db, deps.secret, { ...binding, uuid: input.uuid, code: input.code }, { consume: false, now });
  const result = await deps.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, input.uuid, binding, now))) throw codeInvalid('server.codeUsed');
    if (await isEmailTaken(trx, input.email)) throw new HttpError(409, 'EMAIL_TAKEN', 'server.emailInUse');
    const before = await trx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    const row = await trx
      .updateTable('users')
      .set({ email: input.email, updated_at: now.toISOString() })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (!row || !before) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    // Tell the old address, so a change nobody asked for does not go unnoticed (sent once this commits).
    await queueEmailChangedMail(deps, trx, before.email, input.email);
    return row;
  });
  deps.jobs.poke();
  return result;
}
