import type { Context, MiddlewareHandler } from 'hono';
import type { UserGroup } from '../../shared/auth.ts';
import type { UserRow } from '../modules/users/users.tables.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../platform/errors.ts';
import { authenticate } from '../modules/auth/sessions.service.ts';

export interface AuthVariables {
  user: UserRow;
  /** The login (refresh-token family) the access token was issued for; null for tokens without one. */
  sessionId: string | null;
}

/** The Bearer token of the request; cookies are never read (they cannot prove intent, see DESIGN.md). */
export function bearerToken(c: Context): string | null {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** Refuses a request without a valid access token (401) and puts the caller on `c.var.user`. */
export function requireLogin(ctx: AppContext): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const token = bearerToken(c);
    if (!token) throw new HttpError(401, 'UNAUTHORIZED', 'server.unauthorized');
    const { user, access } = await authenticate({ db: ctx.db, secret: ctx.config.jwtSecret }, token);
    c.set('user', user);
    c.set('sessionId', access.sid ?? null);
    await next();
  };
}

export interface OptionalAuthVariables {
  user: UserRow | null;
}

/** Identifies the caller when a bearer token is sent (an invalid one is still 401); anonymous otherwise. */
export function optionalLogin(ctx: AppContext): MiddlewareHandler<{ Variables: OptionalAuthVariables }> {
  return async (c, next) => {
    const token = bearerToken(c);
    c.set('user', token ? (await authenticate({ db: ctx.db, secret: ctx.config.jwtSecret }, token)).user : null);
    await next();
  };
}

/** After requireLogin: refuses (403) callers outside the given groups. */
export function requireGroup(...groups: UserGroup[]): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    if (!groups.includes(c.var.user.user_group)) throw new HttpError(403, 'FORBIDDEN', 'server.forbidden');
    await next();
  };
}
