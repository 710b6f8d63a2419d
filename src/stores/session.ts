import { atom } from 'nanostores';
import {
  ACCESS_TOKEN_COOKIE,
  ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_USER_SETTING,
  NSFW_MODES,
  REFRESH_TOKEN_COOKIE,
  REFRESH_TOKEN_TTL_SECONDS,
  USER_GROUPS,
  USER_INFO_COOKIE,
  USER_INFO_COOKIE_TTL_SECONDS,
  USER_STATUSES,
  type RefreshData,
  type SessionData,
  type SessionUser,
  type UserGroup,
  type UserSetting,
} from '../shared/auth-model.ts';
import { cookieJar } from './cookies.ts';

/**
 * The session of spec §3/§4. Tokens and the user info live in cookies (spec §9) so every tab and the
 * server-rendered header see them; `$session` is this page's copy of the user. The server never trusts
 * these cookies: API calls carry the access token as a bearer header.
 */
export const $session = atom<SessionUser | null>(null);
/** Set when a session ended (logout or expiry): spec §4 "marks the login status expired". */
export const $loginExpired = atom(false);

/** Fields the user-info cookie may drop, in order, to stay under the browser's ~4 KB per cookie. */
const DROPPABLE_IN_COOKIE = ['headCover', 'signature', 'avatar'] as const;
export const USER_INFO_COOKIE_MAX_CHARS = 3800;

export type SessionUserPatch = Partial<Omit<SessionUser, '_id' | 'userId' | 'isLogin'>>;

/** Seconds the refresh-token cookie may live: until the server's expiry, at most 7 days. */
export function refreshCookieMaxAge(refreshTokenExpiry: string, nowMs: number = Date.now()): number {
  const expiresAt = Date.parse(refreshTokenExpiry);
  if (Number.isNaN(expiresAt)) return REFRESH_TOKEN_TTL_SECONDS;
  return Math.min(REFRESH_TOKEN_TTL_SECONDS, Math.max(0, Math.floor((expiresAt - nowMs) / 1000)));
}

/** The user-info cookie value: the user as JSON without `bio` (it comes from /profile), kept under 4 KB. */
export function userInfoCookieValue(user: SessionUser): string {
  const { bio: _bio, ...rest } = user;
  const stored: Record<string, unknown> = rest;
  let json = JSON.stringify(stored);
  for (const field of DROPPABLE_IN_COOKIE) {
    if (encodeURIComponent(json).length <= USER_INFO_COOKIE_MAX_CHARS) break;
    delete stored[field];
    json = JSON.stringify(stored);
  }
  return json;
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (raw: Json, key: string) => (typeof raw[key] === 'string' ? raw[key] : '');
const num = (raw: Json, key: string) => {
  const value = raw[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
};
const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T =>
  values.find((v) => v === value) ?? fallback;

function userSettingFrom(value: unknown): Required<UserSetting> {
  const raw = isRecord(value) ? value : {};
  return {
    locale: oneOf(['zh-CN', 'en'], raw.locale, DEFAULT_USER_SETTING.locale),
    nsfw: oneOf(NSFW_MODES, raw.nsfw, DEFAULT_USER_SETTING.nsfw),
    emailNotifications:
      typeof raw.emailNotifications === 'boolean' ? raw.emailNotifications : DEFAULT_USER_SETTING.emailNotifications,
  };
}

/**
 * Reads the user-info cookie (already URI-decoded). Display only, so the check is minimal: an id, a
 * user number and a name are required, anything else missing or malformed gets a neutral value.
 */
export function parseUserInfoCookie(value: string | null | undefined): SessionUser | null {
  if (!value) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    return null;
  }
  if (!isRecord(raw)) return null;
  if (typeof raw._id !== 'string' || raw._id === '' || !Number.isSafeInteger(raw.userId)) return null;
  if (typeof raw.name !== 'string' || raw.name === '') return null;
  return {
    _id: raw._id,
    isLogin: true,
    userId: raw.userId as number,
    name: raw.name,
    email: str(raw, 'email'),
    avatar: str(raw, 'avatar'),
    headCover: str(raw, 'headCover'),
    signature: str(raw, 'signature'),
    bio: '',
    followerCount: num(raw, 'followerCount'),
    followingCount: num(raw, 'followingCount'),
    postCount: num(raw, 'postCount'),
    articleCount: num(raw, 'articleCount'),
    createdAt: str(raw, 'createdAt'),
    refreshTokenExpiry: str(raw, 'refreshTokenExpiry'),
    isLoginStatusExpiry: raw.isLoginStatusExpiry === true,
    userSetting: userSettingFrom(raw.userSetting),
    hikariPoint: num(raw, 'hikariPoint'),
    status: oneOf(USER_STATUSES, raw.status, 'active'),
    checkInStreak: num(raw, 'checkInStreak'),
    longestCheckInStreak: num(raw, 'longestCheckInStreak'),
    lastCheckInAt: typeof raw.lastCheckInAt === 'string' ? raw.lastCheckInAt : null,
    hikariUserGroup: oneOf(USER_GROUPS, raw.hikariUserGroup, 'user'),
  };
}

function writeUser(user: SessionUser): void {
  cookieJar().set(USER_INFO_COOKIE, userInfoCookieValue(user), USER_INFO_COOKIE_TTL_SECONDS);
}

function writeTokens(accessToken: string, refreshToken: string, refreshTokenExpiry: string): void {
  const jar = cookieJar();
  jar.set(ACCESS_TOKEN_COOKIE, accessToken, ACCESS_TOKEN_TTL_SECONDS);
  jar.set(REFRESH_TOKEN_COOKIE, refreshToken, refreshCookieMaxAge(refreshTokenExpiry));
}

/** Logged out → logged in: stores the tokens and the user (login, register, password change). */
export function startSession(data: SessionData): SessionUser {
  writeTokens(data.hikariAccessToken, data.hikariRefreshToken, data.refreshTokenExpiry);
  const user: SessionUser = {
    ...data.user,
    isLogin: true,
    isLoginStatusExpiry: false,
    refreshTokenExpiry: data.refreshTokenExpiry,
  };
  writeUser(user);
  $session.set(user);
  $loginExpired.set(false);
  return user;
}

/** Changes the stored user (profile edits, check-in results); nothing happens when logged out. */
export function updateSessionUser(patch: SessionUserPatch): void {
  const current = $session.get();
  if (!current) return;
  const user: SessionUser = { ...current, ...patch };
  writeUser(user);
  $session.set(user);
}

/** Stores the token pair of a refresh; the user info cookie is renewed along with them. */
/** The group an access token claims (`hikariUserGroup`), unverified; null when it cannot be read. */
export function accessTokenGroup(token: string | null | undefined): UserGroup | null {
  const group = tokenClaims(token)?.hikariUserGroup;
  return USER_GROUPS.find((g) => g === group) ?? null;
}

export function applyRefresh(data: RefreshData): void {
  writeTokens(data.hikariAccessToken, data.hikariRefreshToken, data.refreshTokenExpiry);
  // A refreshed token carries the group the server stores now (a creator application approved, a role
  // changed by staff): the avatar menu and the creator sidebar follow it.
  const group = accessTokenGroup(data.hikariAccessToken);
  const changes = { refreshTokenExpiry: data.refreshTokenExpiry, ...(group ? { hikariUserGroup: group } : {}) };
  if ($session.get()) {
    updateSessionUser(changes);
    return;
  }
  // A page that never read the session (no header) still keeps the cookie's expiry right.
  const stored = parseUserInfoCookie(cookieJar().get(USER_INFO_COOKIE));
  if (stored) writeUser({ ...stored, ...changes });
}

/** Spec §4 logout: clears tokens and user info, and marks the login status expired. */
export function endSession(): void {
  const jar = cookieJar();
  jar.remove(ACCESS_TOKEN_COOKIE);
  jar.remove(REFRESH_TOKEN_COOKIE);
  jar.remove(USER_INFO_COOKIE);
  $session.set(null);
  $loginExpired.set(true);
}

export function readAccessToken(): string | null {
  return cookieJar().get(ACCESS_TOKEN_COOKIE) || null;
}

export function readRefreshToken(): string | null {
  return cookieJar().get(REFRESH_TOKEN_COOKIE) || null;
}

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/**
 * When the access token runs out (ms since the epoch), from its `exp` claim. Not verified: it only
 * tells the refresher when to act; the server decides whether the token is good.
 */
export function accessTokenExpiresAt(token: string | null | undefined): number | null {
  const exp = tokenClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
}

/** The claims of an access token, unverified; null when it cannot be read. */
function tokenClaims(token: string | null | undefined): Record<string, unknown> | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    return isRecord(claims) ? claims : null;
  } catch {
    return null;
  }
}

/**
 * Reads the session from the cookies (page load, or to pick up another tab's login or logout). User
 * info without any token left is a login that ran out: it is cleared and marked expired.
 */
export function hydrateSessionFromCookies(): SessionUser | null {
  const stored = parseUserInfoCookie(cookieJar().get(USER_INFO_COOKIE));
  if (!stored) {
    $session.set(null);
    return null;
  }
  if (!readAccessToken() && !readRefreshToken()) {
    cookieJar().remove(USER_INFO_COOKIE);
    $session.set(null);
    $loginExpired.set(true);
    return null;
  }
  const current = $session.get();
  // The cookie has no bio; keep one this page already loaded for the same user.
  const user: SessionUser = { ...stored, bio: current?._id === stored._id ? current.bio : '' };
  $session.set(user);
  $loginExpired.set(false);
  return user;
}

/** Spec §4 "Points": adds (or with a negative amount subtracts) HikariPoint locally; never below 0. */
export function changeHikariPoint(delta: number): void {
  const current = $session.get();
  if (!current || !Number.isFinite(delta)) return;
  updateSessionUser({ hikariPoint: Math.max(0, current.hikariPoint + delta) });
}

const SITE_BASE = 'http://site.invalid';

/**
 * Where to go after logging in: `jumpTo` when it is a path on this site, otherwise home. Control
 * characters are refused because browsers strip tabs and newlines, which would turn '/\t/x' into '//x'.
 */
export function safeReturnPath(jumpTo: string | null | undefined): string {
  if (!jumpTo || !jumpTo.startsWith('/') || jumpTo.startsWith('//') || jumpTo.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f\u007f]/.test(jumpTo)) return '/';
  try {
    return new URL(jumpTo, SITE_BASE).origin === SITE_BASE ? jumpTo : '/';
  } catch {
    return '/';
  }
}
