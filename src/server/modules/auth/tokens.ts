import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS, USER_GROUPS, type UserGroup } from '../../../shared/auth.ts';
import { HttpError } from '../../platform/errors.ts';

export interface VerifiedAccess {
  _id: string;
  hikariUserGroup: UserGroup;
  /** The login (refresh-token family) the token belongs to; absent in tokens issued before it existed. */
  sid?: string;
  /** Issued-at, seconds. */
  iat: number;
  exp: number;
}

const key = (secret: string) => new TextEncoder().encode(secret);

/** Access JWT: HS256, 1 h, claims _id, hikariUserGroup, sid (the session's family id), iat, exp. */
export async function signAccessToken(
  secret: string,
  user: { id: string; group: UserGroup },
  nowMs = Date.now(),
  sessionId?: string,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ _id: user.id, hikariUserGroup: user.group, ...(sessionId ? { sid: sessionId } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

/** Verifies signature (HS256 only, so "none" and other algorithms fail), expiry and claim shapes. */
export async function verifyAccessToken(secret: string, token: string, nowMs = Date.now()): Promise<VerifiedAccess> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
    });
    const group = payload['hikariUserGroup'];
    if (
      typeof payload['_id'] !== 'string' ||
      typeof group !== 'string' ||
      !(USER_GROUPS as readonly string[]).includes(group) ||
      typeof payload.iat !== 'number' ||
      typeof payload.exp !== 'number' ||
      (payload['sid'] !== undefined && typeof payload['sid'] !== 'string')
    ) {
      throw new HttpError(401, 'TOKEN_INVALID', 'server.tokenInvalid');
    }
    const sid = payload['sid'];
    return {
      _id: payload['_id'],
      hikariUserGroup: group as UserGroup,
      ...(typeof sid === 'string' ? { sid } : {}),
      iat: payload.iat,
      exp: payload.exp,
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof errors.JWTExpired) throw new HttpError(401, 'TOKEN_EXPIRED', 'server.tokenExpired');
    throw new HttpError(401, 'TOKEN_INVALID', 'server.tokenInvalid');
  }
}

/** A 256-bit random refresh token; only its hash is stored. */
export function generateRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tokens carry whole seconds, so times compared with a token's iat are kept in whole seconds too. */
export const wholeSecond = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);
