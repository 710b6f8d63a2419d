import {
  PUBLIC_CODE_PURPOSES,
  REFRESH_TOKEN_TTL_SECONDS,
  type CodePurpose,
  type RefreshData,
  type SessionData,
} from '../../../shared/auth.ts';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../users/users.tables.ts';
import { HttpError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail.ts';
import {
  enforceRateLimit,
  hitRateLimit,
  rateLimited,
  releaseRateLimit,
  type RateRule,
} from '../../platform/rate-limit.ts';
import {
  createUser,
  findUserByAccount,
  findUserByEmail,
  findUserById,
  isEmailTaken,
  isNameTaken,
  nameKey,
  toSessionUser,
} from '../users/users.service.ts';
import { nameSkeleton } from '../users/name-skeleton.ts';
import { checkCode, consumeCode, issueCode, type CodeBinding } from './codes.service.ts';
import { LOGIN_LIMITS, admitAccountLookup, admitLoginAttempt, rememberAddress } from './login-limits.ts';
import { newId } from '../../db/ids.ts';
import { codeMail, emailChangedMail } from './auth.mails.ts';
import { sessionEvents } from './auth.events.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password.ts';
import {
  generateRefreshToken,
  hashToken,
  signAccessToken,
  verifyAccessToken,
  wholeSecond,
  type VerifiedAccess,
} from './tokens.ts';

/** What the auth services need besides the database. */
export interface AuthDeps {
  db: Db;
  secret: string;
  mailer: Mailer;
  now?: () => Date;
  /** Mails sent in the background report failures here (logged). */
  onMailError?: (error: unknown) => void;
}

/**
 * Abuse limits. Logins, and the lookups that tell whether a name or email is taken, follow
 * LOGIN_LIMITS (login-limits.ts, docs/decisions/008-login-limits.md); these are the rest.
 */
export const LIMITS = {
  ...LOGIN_LIMITS,
  codeRequestsPerEmail: { limit: 10, windowMs: 3_600_000 },
  codeRequestsPerIp: { limit: 30, windowMs: 3_600_000 },
  codeChecksPerIp: { limit: 30, windowMs: 600_000 },
  passwordChecksPerUser: { limit: 5, windowMs: 900_000 },
  registrationsPerIp: { limit: 10, windowMs: 3_600_000 },
  resetsPerIp: { limit: 20, windowMs: 3_600_000 },
} satisfies Record<string, RateRule>;

/** A rotated refresh token presented again within this window is a race between tabs, not theft. */
export const ROTATION_GRACE_MS = 30_000;

const clock = (deps: AuthDeps) => deps.now?.() ?? new Date();
const invalidCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', '用户名或密码错误');
const banned = () => new HttpError(403, 'ACCOUNT_BANNED', '账号已被封禁，如有疑问请联系管理员');
const refreshInvalid = () => new HttpError(401, 'REFRESH_TOKEN_INVALID', '登录状态已失效，请重新登录');

async function accessFor(deps: AuthDeps, user: UserRow, now: Date, familyId: string): Promise<string> {
  return signAccessToken(deps.secret, { id: user.id, group: user.user_group }, now.getTime(), familyId);
}

/** Starts a login: a new refresh-token family with an absolute 7-day expiry, and an access token. */
export async function createSession(deps: AuthDeps, user: UserRow, now = clock(deps)): Promise<SessionData> {
  const familyId = newId();
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString();
  const refreshToken = generateRefreshToken();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('refresh_family')
      .values({
        id: familyId,
        user_id: user.id,
        expires_at: expiresAt,
        revoked_at: null,
        revoke_reason: null,
        created_at: now.toISOString(),
      })
      .execute();
    await trx
      .insertInto('refresh_token')
      .values({
        id: newId(),
        family_id: familyId,
        token_hash: hashToken(refreshToken),
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
  });
  return {
    user: toSessionUser(user, expiresAt),
    hikariAccessToken: await accessFor(deps, user, now, familyId),
    hikariRefreshToken: refreshToken,
    refreshTokenExpiry: expiresAt,
  };
}

export async function login(
  deps: AuthDeps,
  input: { account: string; password: string; ip: string },
): Promise<SessionData> {
  const now = clock(deps);
  const user = await findUserByAccount(deps.db, input.account);
  // Limit by the account actually addressed (any spelling of the name, or its email, is one account).
  const attempt = await admitLoginAttempt(
    deps.db,
    deps.secret,
    { account: user?.id ?? `name:${nameKey(input.account.trim())}`, userId: user?.id ?? null, ip: input.ip },
    now,
  );
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : (await burnPasswordCheck(input.password), false);
  if (!user || !ok) throw invalidCredentials();
  await attempt.succeeded();
  if (user.status === 'banned') throw banned();
  await rememberAddress(deps.db, deps.secret, user.id, input.ip, now);
  return createSession(deps, user, now);
}

/**
 * Rotates a refresh token: the presented token is used up and a successor in the same family is
 * issued. Presenting a used token again revokes the whole family (theft), except within a short grace
 * window where it answers TOKEN_ALREADY_ROTATED (two tabs refreshing at once). The claim is a
 * conditional update, so of two racing requests exactly one gets a successor.
 */
export async function refresh(deps: AuthDeps, rawToken: string): Promise<RefreshData> {
  const now = clock(deps);
  const row = await deps.db
    .selectFrom('refresh_token')
    .innerJoin('refresh_family', 'refresh_family.id', 'refresh_token.family_id')
    .select([
      'refresh_token.id as tokenId',
      'refresh_token.used_at as usedAt',
      'refresh_family.id as familyId',
      'refresh_family.user_id as userId',
      'refresh_family.expires_at as expiresAt',
      'refresh_family.revoked_at as revokedAt',
    ])
    .where('refresh_token.token_hash', '=', hashToken(rawToken))
    .executeTakeFirst();
  if (!row || row.revokedAt || new Date(row.expiresAt).getTime() <= now.getTime()) throw refreshInvalid();

  const user = await findUserById(deps.db, row.userId);
  if (!user) throw refreshInvalid();
  if (user.status === 'banned') {
    await revokeFamily(deps.db, row.familyId, 'banned', now);
    throw banned();
  }

  const reuse = async (usedAt: string) => {
    if (now.getTime() - new Date(usedAt).getTime() < ROTATION_GRACE_MS) {
      throw new HttpError(409, 'TOKEN_ALREADY_ROTATED', '登录状态已在其他页面刷新');
    }
    await revokeFamily(deps.db, row.familyId, 'reuse', now);
    throw new HttpError(401, 'REFRESH_TOKEN_REUSED', '登录状态异常，请重新登录');
  };
  if (row.usedAt) return reuse(row.usedAt);

  const next = generateRefreshToken();
  const claimed = await deps.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('refresh_token')
      .set({ used_at: now.toISOString() })
      .where('id', '=', row.tokenId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('refresh_token')
      .values({
        id: newId(),
        family_id: row.familyId,
        token_hash: hashToken(next),
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
    return true;
  });
  if (!claimed) return reuse(now.toISOString());

  return {
    hikariAccessToken: await accessFor(deps, user, now, row.familyId),
    hikariRefreshToken: next,
    refreshTokenExpiry: row.expiresAt,
  };
}

export async function revokeFamily(db: Db, familyId: string, reason: string, now = new Date()): Promise<void> {
  await db
    .updateTable('refresh_family')
    .set({ revoked_at: now.toISOString(), revoke_reason: reason })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
  // Also when it was revoked before: the event only closes what still belongs to that login.
  sessionEvents.publish({ type: 'session_revoked', scope: 'family', familyId, reason });
}

export async function revokeAllSessions(db: Db, userId: string, reason: string, now = new Date()): Promise<void> {
  await db
    .updateTable('refresh_family')
    .set({ revoked_at: now.toISOString(), revoke_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  // Published even inside a transaction: should it roll back, the closed sockets simply reconnect.
  sessionEvents.publish({ type: 'session_revoked', scope: 'user', userId, reason });
}

/** Ends the login the refresh token belongs to. Unknown tokens are ignored (logout always succeeds). */
export async function logout(deps: AuthDeps, rawToken: string | undefined): Promise<void> {
  if (!rawToken) return;
  const row = await deps.db
    .selectFrom('refresh_token')
    .select('family_id')
    .where('token_hash', '=', hashToken(rawToken))
    .executeTakeFirst();
  if (row) await revokeFamily(deps.db, row.family_id, 'logout', clock(deps));
}

/**
 * Who is calling: verifies the access token and loads the user, refusing banned users and tokens
 * issued before the last password change.
 */
export async function authenticate(
  deps: Pick<AuthDeps, 'db' | 'secret' | 'now'>,
  token: string,
): Promise<{ user: UserRow; access: VerifiedAccess }> {
  const access = await verifyAccessToken(deps.secret, token, (deps.now?.() ?? new Date()).getTime());
  const user = await findUserById(deps.db, access._id);
  if (!user) throw new HttpError(401, 'TOKEN_INVALID', '登录凭证无效，请重新登录');
  if (user.status === 'banned') throw banned();
  if (access.iat * 1000 < new Date(user.password_changed_at).getTime()) {
    throw new HttpError(401, 'TOKEN_INVALID', '密码已修改，请重新登录');
  }
  // A login that ended (logout, revocation) takes its access tokens with it, not an hour later.
  if (access.sid) {
    const family = await deps.db
      .selectFrom('refresh_family')
      .select('revoked_at')
      .where('id', '=', access.sid)
      .executeTakeFirst();
    if (!family || family.revoked_at) throw new HttpError(401, 'TOKEN_INVALID', '登录已结束，请重新登录');
  }
  return { user, access };
}

// ---- Codes, registration and password reset ----

const codeInvalid = (message = '验证码错误') =>
  new HttpError(400, 'CODE_INVALID', message, { issues: [{ path: 'code', message }] });

/**
 * The public code request: codes for registering and for resetting a forgotten password, asked for
 * by email alone. A change_email code is refused here; it comes only from requestEmailChange, after
 * the current password was checked.
 */
export async function requestCode(deps: AuthDeps, input: { email: string; purpose: CodePurpose; ip: string }) {
  const now = clock(deps);
  if (!(PUBLIC_CODE_PURPOSES as readonly CodePurpose[]).includes(input.purpose)) {
    const message = '更换邮箱的验证码请在账号设置中申请（需要输入当前密码）';
    throw new HttpError(400, 'CODE_PURPOSE_NOT_ALLOWED', message, { issues: [{ path: 'type', message }] });
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
    throw new HttpError(409, 'EMAIL_TAKEN', '邮箱已被注册', { issues: [{ path: 'email', message: '邮箱已被注册' }] });
  }
  if (purpose === 'change_email' && (await isEmailTaken(deps.db, email))) {
    throw new HttpError(409, 'EMAIL_TAKEN', '该邮箱已被其他账号使用', {
      issues: [{ path: 'email', message: '该邮箱已被其他账号使用' }],
    });
  }
  await enforceRateLimit(deps.db, `code:email:${email}`, LIMITS.codeRequestsPerEmail, now.getTime());
  const issued = await issueCode(deps.db, deps.secret, binding, now);
  if (purpose === 'reset_password') {
    // Mailed only to an existing account, and not awaited: the answer looks the same, and takes the
    // same time, whether or not the email has an account.
    if (binding.userId) {
      void deps.mailer.send(codeMail(email, purpose, issued.code)).catch((error: unknown) => deps.onMailError?.(error));
    }
  } else {
    await deps.mailer.send(codeMail(email, purpose, issued.code));
  }
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
    if (!input.viewerId) throw new HttpError(401, 'UNAUTHORIZED', '请先登录，再验证更换邮箱的验证码');
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
  input: { name: string; email: string; password: string; code: string; uuid: string; ip: string },
): Promise<SessionData> {
  const now = clock(deps);
  await enforceRateLimit(deps.db, `register:ip:${input.ip}`, LIMITS.registrationsPerIp, now.getTime());
  // The code first: without a code from that inbox, nothing is said about which names are taken.
  const binding: CodeBinding = { email: input.email, purpose: 'register', userId: null };
  await checkCode(deps.db, deps.secret, { ...binding, uuid: input.uuid, code: input.code }, { consume: false, now });
  if (await isNameTaken(deps.db, input.name)) {
    throw new HttpError(409, 'NAME_TAKEN', '用户名已被使用', { issues: [{ path: 'name', message: '用户名已被使用' }] });
  }
  if (await isEmailTaken(deps.db, input.email)) {
    throw new HttpError(409, 'EMAIL_TAKEN', '邮箱已被注册', { issues: [{ path: 'email', message: '邮箱已被注册' }] });
  }
  const passwordHash = await hashPassword(input.password);
  const user = await deps.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, input.uuid, binding, now))) throw codeInvalid('验证码已被使用，请重新获取');
    return createUser(trx, { name: input.name, email: input.email, passwordHash }, now);
  });
  await rememberAddress(deps.db, deps.secret, user.id, input.ip, now);
  return createSession(deps, user, now);
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
    if (!(await consumeCode(trx, input.uuid, binding, now))) throw codeInvalid('验证码已被使用，请重新获取');
    await trx
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        password_changed_at: wholeSecond(now).toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', user.id)
      .execute();
    await revokeAllSessions(trx, user.id, 'password_reset', now);
  });
  // The mailed code proved the owner is here: this address is no longer held back by strangers' failures.
  await rememberAddress(deps.db, deps.secret, user.id, input.ip, now);
}

/** Changes the password, ends every login of the account, and starts a fresh one for this device. */
export async function changePassword(
  deps: AuthDeps,
  userId: string,
  input: { oldPassword: string; newPassword: string },
): Promise<SessionData> {
  const now = clock(deps);
  const user = await findUserById(deps.db, userId);
  if (!user) throw new HttpError(401, 'TOKEN_INVALID', '登录凭证无效，请重新登录');
  await checkCurrentPassword(deps, user, input.oldPassword, 'oldPassword', now);
  const passwordHash = await hashPassword(input.newPassword);
  const changedAt = wholeSecond(now);
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: changedAt.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', userId)
      .execute();
    await revokeAllSessions(trx, userId, 'password_change', now);
  });
  const fresh = await findUserById(deps.db, userId);
  return createSession(deps, fresh ?? user, now);
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
    throw new HttpError(400, 'INVALID_CREDENTIALS', '当前密码不正确', {
      issues: [{ path: field, message: '当前密码不正确' }],
    });
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
  if (!user) throw new HttpError(401, 'TOKEN_INVALID', '登录凭证无效，请重新登录');
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
    if (!(await consumeCode(trx, input.uuid, binding, now))) throw codeInvalid('验证码已被使用，请重新获取');
    if (await isEmailTaken(trx, input.email)) throw new HttpError(409, 'EMAIL_TAKEN', '该邮箱已被其他账号使用');
    const before = await trx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    const row = await trx
      .updateTable('users')
      .set({ email: input.email, updated_at: now.toISOString() })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (!row || !before) throw new HttpError(404, 'NOT_FOUND', '用户不存在');
    return { row, oldEmail: before.email };
  });
  // Tell the old address, so a change nobody asked for does not go unnoticed.
  void deps.mailer
    .send(emailChangedMail(result.oldEmail, input.email))
    .catch((error: unknown) => deps.onMailError?.(error));
  return result.row;
}
