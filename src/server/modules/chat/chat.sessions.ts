import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import { authenticate } from '../auth/sessions.service.ts';

/** Who an open chat socket belongs to, taken from the access token it was opened with. */
export interface ChatIdentity {
  userId: string;
  /** The account's public numeric userId (what frames name members by). */
  publicId: number;
  /** The login (refresh-token family) of the token; null for tokens issued without one. */
  sessionId: string | null;
  /** Token issue and expiry times, in milliseconds. */
  issuedAt: number;
  expiresAt: number;
}

/** Why an open socket has to go, found by the periodic re-check. */
export type SessionEnd = 'banned' | 'ended';

/**
 * Checks the `?token=` of an upgrade: a valid access token of a user who is not banned, whose login
 * was not ended (logout, revocation) and who has not changed the password since. Throws HttpError.
 */
export async function authenticateChat(deps: { db: Db; secret: string }, token: string): Promise<ChatIdentity> {
  const { user, access } = await authenticate(deps, token);
  if (access.sid) {
    const family = await deps.db
      .selectFrom('refresh_family')
      .select(['user_id', 'revoked_at'])
      .where('id', '=', access.sid)
      .executeTakeFirst();
    if (!family || family.user_id !== user.id || family.revoked_at) {
      throw new HttpError(401, 'TOKEN_INVALID', 'server.sessionEnded');
    }
  }
  return {
    userId: user.id,
    publicId: user.user_id,
    sessionId: access.sid ?? null,
    issuedAt: access.iat * 1000,
    expiresAt: access.exp * 1000,
  };
}

const CHUNK = 500;
function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * The periodic re-check of open sockets, batched: one query for the users and one for the logins of
 * all given identities. Answers, in order, why each must close, or null to keep it.
 */
export async function findEndedSessions(db: Db, identities: readonly ChatIdentity[]): Promise<(SessionEnd | null)[]> {
  const userIds = [...new Set(identities.map((i) => i.userId))];
  const sessionIds = [...new Set(identities.flatMap((i) => (i.sessionId ? [i.sessionId] : [])))];
  const users = new Map<string, { status: string; passwordChangedAt: number }>();
  for (const ids of chunks(userIds)) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'status', 'password_changed_at'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      users.set(row.id, { status: row.status, passwordChangedAt: new Date(row.password_changed_at).getTime() });
    }
  }
  const revoked = new Set<string>();
  for (const ids of chunks(sessionIds)) {
    const rows = await db
      .selectFrom('refresh_family')
      .select('id')
      .where('id', 'in', ids)
      .where('revoked_at', 'is not', null)
      .execute();
    for (const row of rows) revoked.add(row.id);
  }
  return identities.map((identity) => {
    const user = users.get(identity.userId);
    if (user?.status === 'banned') return 'banned';
    if (!user || identity.issuedAt < user.passwordChangedAt) return 'ended';
    if (identity.sessionId && revoked.has(identity.sessionId)) return 'ended';
    return null;
  });
}
