import { REFRESH_TOKEN_TTL_SECONDS, type RefreshData, type SessionData } from '../../../shared/auth.ts';
import Bowser from 'bowser';
import type { SessionDevice, SessionEntry, SessionList } from '../../../shared/users/space-model.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { UserRow } from '../users/users.tables.ts';
import { HttpError } from '../../platform/errors.ts';
import type { AttemptWait } from '../../platform/attempt-budget.ts';
import type { RateRule } from '../../platform/rate-limit.ts';
import { findUserByAccount, findUserById, nameKey, toSessionUser } from '../users/users.service.ts';
import { LOGIN_LIMITS, admitLoginAttempt, rememberAddress } from './login-limits.ts';
import { busSessionEvents, type SessionEvents } from './auth.events.ts';
import type { AppContext, AppJobQueue } from '../../context.ts';
import { burnPasswordCheck, verifyPassword } from './password.ts';
import { generateRefreshToken, hashToken, signAccessToken, verifyAccessToken, type VerifiedAccess } from './tokens.ts';

/** What the auth services need besides the database. */
export interface AuthDeps {
  db: Db;
  secret: string;
  /** The account mails are jobs (auth.mail-job.ts). */
  jobs: AppJobQueue;
  /** Where ended logins are announced (every process's chat sockets listen). */
  events: SessionEvents;
  now?: () => Date;
  /** How a login waits for others being checked when its failure budget is full of them (tests shorten it). */
  loginWait?: AttemptWait;
}

/** The auth services' dependencies from the app context. */
export function authDepsOf(ctx: AppContext): AuthDeps {
  return { db: ctx.db, secret: ctx.config.jwtSecret, jobs: ctx.jobs, events: busSessionEvents(ctx) };
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

export const clock = (deps: AuthDeps) => deps.now?.() ?? new Date();
const invalidCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', 'server.invalidCredentials');
export const banned = () => new HttpError(403, 'ACCOUNT_BANNED', 'server.banned');
const refreshInvalid = () => new HttpError(401, 'REFRESH_TOKEN_INVALID', 'server.refreshInvalid');

async function accessFor(deps: AuthDeps, user: UserRow, now: Date, familyId: string): Promise<string> {
  return signAccessToken(deps.secret, { id: user.id, group: user.user_group }, now.getTime(), familyId);
}

/** Longest User-Agent kept with a login. */
const USER_AGENT_MAX = 512;

/** Starts a login: a new refresh-token family with an absolute 7-day expiry, and an access token. */
export async function createSession(
  deps: AuthDeps,
  user: UserRow,
  now = clock(deps),
  userAgent?: string,
): Promise<SessionData> {
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
        user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
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
  input: { account: string; password: string; ip: string; userAgent?: string | undefined },
): Promise<SessionData> {
  const now = clock(deps);
  const user = await findUserByAccount(deps.db, input.account);
  // Limit by the account actually addressed (any spelling of the name, or its email, is one account).
  const attempt = await admitLoginAttempt(
    deps.db,
    deps.secret,
    { account: user?.id ?? `name:${nameKey(input.account.trim())}`, userId: user?.id ?? null, ip: input.ip },
    () => clock(deps),
    deps.loginWait,
  );
  let ok = false;
  try {
    ok = user
      ? await verifyPassword(user.password_hash, input.password)
      : (await burnPasswordCheck(input.password), false);
  } finally {
    await (ok ? attempt.succeeded() : attempt.failed());
  }
  if (!user || !ok) throw invalidCredentials();
  if (user.status === 'banned') throw banned();
  await rememberAddress(deps.db, deps.secret, user.id, input.ip, now);
  return createSession(deps, user, now, input.userAgent);
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
    await revokeFamily(deps.db, deps.events, row.familyId, 'banned', now);
    throw banned();
  }

  const reuse = async (usedAt: string) => {
    if (now.getTime() - new Date(usedAt).getTime() < ROTATION_GRACE_MS) {
      throw new HttpError(409, 'TOKEN_ALREADY_ROTATED', 'server.alreadyRotated');
    }
    await revokeFamily(deps.db, deps.events, row.familyId, 'reuse', now);
    throw new HttpError(401, 'REFRESH_TOKEN_REUSED', 'server.refreshReused');
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

/** Which logins to end: one (its refresh-token family) or every one of an account. */
type Logins = { scope: 'family'; familyId: string } | { scope: 'user'; userId: string };

/**
 * Ends logins and announces it, so open chat sockets close at once. Announced also when they had
 * ended before (the event only closes what still belongs to them), and even inside a transaction:
 * should it roll back, the closed sockets simply reconnect.
 */
async function endLogins(db: Db, events: SessionEvents, logins: Logins, reason: string, now: Date): Promise<void> {
  await db
    .updateTable('refresh_family')
    .set({ revoked_at: now.toISOString(), revoke_reason: reason })
    .where(
      logins.scope === 'family' ? 'id' : 'user_id',
      '=',
      logins.scope === 'family' ? logins.familyId : logins.userId,
    )
    .where('revoked_at', 'is', null)
    .execute();
  events.publish({ type: 'session_revoked', reason, ...logins });
}

export const revokeFamily = (db: Db, events: SessionEvents, familyId: string, reason: string, now = new Date()) =>
  endLogins(db, events, { scope: 'family', familyId }, reason, now);

export const revokeAllSessions = (db: Db, events: SessionEvents, userId: string, reason: string, now = new Date()) =>
  endLogins(db, events, { scope: 'user', userId }, reason, now);

/** Ends the login the refresh token belongs to. Unknown tokens are ignored (logout always succeeds). */
export async function logout(deps: AuthDeps, rawToken: string | undefined): Promise<void> {
  if (!rawToken) return;
  const row = await deps.db
    .selectFrom('refresh_token')
    .select('family_id')
    .where('token_hash', '=', hashToken(rawToken))
    .executeTakeFirst();
  if (row) await revokeFamily(deps.db, deps.events, row.family_id, 'logout', clock(deps));
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
  if (!user) throw new HttpError(401, 'TOKEN_INVALID', 'server.tokenInvalid');
  if (user.status === 'banned') throw banned();
  if (access.iat * 1000 < new Date(user.password_changed_at).getTime()) {
    throw new HttpError(401, 'TOKEN_INVALID', 'server.passwordChanged');
  }
  // A login that ended (logout, revocation) takes its access tokens with it, not an hour later.
  if (access.sid) {
    const family = await deps.db
      .selectFrom('refresh_family')
      .select('revoked_at')
      .where('id', '=', access.sid)
      .executeTakeFirst();
    if (!family || family.revoked_at) throw new HttpError(401, 'TOKEN_INVALID', 'server.sessionEnded');
  }
  return { user, access };
}

/**
 * The account's open logins (not revoked, not expired), most recently active first. A login is active
 * when it begins and each time it refreshes its access token (a new token of its family).
 */
export async function listSessions(
  db: Db,
  userId: string,
  currentId: string | null,
  now = new Date(),
): Promise<SessionList> {
  const rows = await db
    .selectFrom('refresh_family as f')
    .innerJoin('refresh_token as t', 't.family_id', 'f.id')
    .select((eb) => [
      'f.id',
      'f.created_at',
      'f.expires_at',
      'f.user_agent',
      eb.fn.max('t.created_at').as('last_active_at'),
    ])
    .where('f.user_id', '=', userId)
    .where('f.revoked_at', 'is', null)
    .where('f.expires_at', '>', now.toISOString())
    .groupBy(['f.id', 'f.created_at', 'f.expires_at', 'f.user_agent'])
    .execute();
  const items = rows.map((row): SessionEntry => ({
    id: row.id,
    createdAt: row.created_at,
    lastActiveAt: row.last_active_at ?? row.created_at,
    expiresAt: row.expires_at,
    current: row.id === currentId,
    device: deviceOf(row.user_agent),
  }));
  // The current login first, then by last activity.
  items.sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
  return { items };
}

/** The browser, system and kind of device a User-Agent names (bowser), or null without one. */
export function deviceOf(userAgent: string | null): SessionDevice | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type;
  return {
    browser: parsed.browser.name ?? null,
    os: parsed.os.name ?? null,
    type: type === 'mobile' || type === 'tablet' || type === 'desktop' ? type : null,
  };
}

/** Ends every open login of the account except `keepId` (the caller's own); answers how many ended. */
export async function logoutOtherSessions(
  db: Db,
  events: SessionEvents,
  userId: string,
  keepId: string | null,
  now = new Date(),
): Promise<number> {
  let others = db
    .selectFrom('refresh_family')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepId) others = others.where('id', '!=', keepId);
  const ended = await others.execute();
  for (const { id } of ended) await revokeFamily(db, events, id, 'logout_others', now);
  return ended.length;
}
