import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_TOKEN_COOKIE,
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_COOKIE,
  REFRESH_TOKEN_TTL_SECONDS,
  USER_INFO_COOKIE,
  USER_INFO_COOKIE_TTL_SECONDS,
  type SessionData,
  type SessionUser,
} from '../shared/auth.ts';
import { createCookieJar, memoryCookieDocument, parseCookieHeader, setCookieJar } from './cookies.ts';
import {
  $loginExpired,
  $session,
  USER_INFO_COOKIE_MAX_CHARS,
  accessTokenExpiresAt,
  applyRefresh,
  changeHikariPoint,
  endSession,
  hydrateSessionFromCookies,
  parseUserInfoCookie,
  readAccessToken,
  readRefreshToken,
  refreshCookieMaxAge,
  safeReturnPath,
  startSession,
  updateSessionUser,
  userInfoCookieValue,
} from './session.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}

function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    _id: 'u1',
    isLogin: true,
    userId: 7,
    name: '小光',
    email: 'hikari@example.org',
    avatar: '/media/avatar/u1.png',
    headCover: '',
    signature: '光在前方',
    bio: '一段很长的个人简介',
    followerCount: 3,
    followingCount: 4,
    postCount: 5,
    articleCount: 6,
    createdAt: '2026-01-01T00:00:00.000Z',
    refreshTokenExpiry: '2026-11-29T12:00:00.000Z',
    isLoginStatusExpiry: false,
    userSetting: { locale: 'zh-CN', nsfw: 'blur', emailNotifications: true },
    hikariPoint: 100,
    status: 'active',
    checkInStreak: 2,
    longestCheckInStreak: 9,
    lastCheckInAt: null,
    hikariUserGroup: 'user',
    ...overrides,
  };
}

function sessionData(overrides: Partial<SessionData> = {}): SessionData {
  return {
    user: sessionUser(),
    hikariAccessToken: jwt({ _id: 'u1', hikariUserGroup: 'user', exp: NOW / 1000 + 3600 }),
    hikariRefreshToken: 'refresh-1',
    refreshTokenExpiry: new Date(NOW + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
    ...overrides,
  };
}

let doc: ReturnType<typeof memoryCookieDocument>;

/** The max-age the last write of `name` carried. */
function lastMaxAge(name: string): number | null {
  const write = doc.writes.filter((w) => w.startsWith(`${name}=`)).at(-1);
  const match = write?.match(/max-age=(\d+)/);
  return match ? Number(match[1]) : null;
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  doc = memoryCookieDocument();
  setCookieJar(createCookieJar(doc));
  $session.set(null);
  $loginExpired.set(false);
});

afterEach(() => {
  setCookieJar(null);
  vi.useRealTimers();
});

describe('startSession', () => {
  it('stores both tokens and the user, and marks the session live', () => {
    $loginExpired.set(true);
    const data = sessionData();
    startSession(data);
    expect(readAccessToken()).toBe(data.hikariAccessToken);
    expect(readRefreshToken()).toBe('refresh-1');
    expect($session.get()).toMatchObject({ _id: 'u1', name: '小光', isLogin: true, bio: '一段很长的个人简介' });
    expect($loginExpired.get()).toBe(false);
  });

  it('gives the cookies the lifetimes of spec §9', () => {
    startSession(sessionData());
    expect(lastMaxAge(ACCESS_TOKEN_COOKIE)).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(lastMaxAge(REFRESH_TOKEN_COOKIE)).toBe(REFRESH_TOKEN_TTL_SECONDS);
    expect(lastMaxAge(USER_INFO_COOKIE)).toBe(USER_INFO_COOKIE_TTL_SECONDS);
    for (const write of doc.writes) expect(write).toMatch(/; path=\/; max-age=\d+; secure; samesite=none$/);
  });

  it('lets the refresh cookie end when the refresh token does', () => {
    startSession(sessionData({ refreshTokenExpiry: new Date(NOW + 3 * 86_400_000).toISOString() }));
    expect(lastMaxAge(REFRESH_TOKEN_COOKIE)).toBe(3 * 86_400);
  });

  it('keeps the user info cookie without the bio', () => {
    startSession(sessionData());
    const stored = JSON.parse(parseCookieHeader(doc.cookie)[USER_INFO_COOKIE]!) as Record<string, unknown>;
    expect(stored).not.toHaveProperty('bio');
    expect(stored).toMatchObject({ _id: 'u1', name: '小光', hikariPoint: 100, hikariUserGroup: 'user' });
  });

  it('takes refreshTokenExpiry from the answer and clears isLoginStatusExpiry', () => {
    const data = sessionData({ user: sessionUser({ refreshTokenExpiry: 'stale', isLoginStatusExpiry: true }) });
    startSession(data);
    expect($session.get()?.refreshTokenExpiry).toBe(data.refreshTokenExpiry);
    expect($session.get()?.isLoginStatusExpiry).toBe(false);
  });
});

describe('refreshCookieMaxAge', () => {
  it('counts seconds to the expiry, at most 7 days and never below 0', () => {
    expect(refreshCookieMaxAge(new Date(NOW + 60_000).toISOString(), NOW)).toBe(60);
    expect(refreshCookieMaxAge(new Date(NOW + 30 * 86_400_000).toISOString(), NOW)).toBe(REFRESH_TOKEN_TTL_SECONDS);
    expect(refreshCookieMaxAge(new Date(NOW - 1000).toISOString(), NOW)).toBe(0);
    expect(refreshCookieMaxAge('not a date', NOW)).toBe(REFRESH_TOKEN_TTL_SECONDS);
  });
});

describe('userInfoCookieValue', () => {
  it('drops the cover, then the signature, then the avatar when the cookie would pass 4 KB', () => {
    const long = `https://img.example.org/${'x'.repeat(2000)}.png`;
    const json = userInfoCookieValue(sessionUser({ avatar: long, headCover: long }));
    const stored = JSON.parse(json) as Record<string, unknown>;
    expect(encodeURIComponent(json).length).toBeLessThanOrEqual(USER_INFO_COOKIE_MAX_CHARS);
    expect(stored).not.toHaveProperty('headCover');
    expect(stored.avatar).toBe(long);
    expect(stored.signature).toBe('光在前方');
  });
});

describe('updateSessionUser and changeHikariPoint', () => {
  it('merges a patch into the state and the cookie', () => {
    startSession(sessionData());
    updateSessionUser({ name: '新名字', signature: '' });
    expect($session.get()).toMatchObject({ name: '新名字', signature: '', _id: 'u1' });
    expect(parseUserInfoCookie(parseCookieHeader(doc.cookie)[USER_INFO_COOKIE])?.name).toBe('新名字');
  });

  it('does nothing when logged out', () => {
    updateSessionUser({ name: 'x' });
    changeHikariPoint(5);
    expect($session.get()).toBeNull();
    expect(doc.writes).toEqual([]);
  });

  it('adds and subtracts points, never going below zero', () => {
    startSession(sessionData());
    changeHikariPoint(7);
    expect($session.get()?.hikariPoint).toBe(107);
    changeHikariPoint(-30);
    expect($session.get()?.hikariPoint).toBe(77);
    changeHikariPoint(-1000);
    expect($session.get()?.hikariPoint).toBe(0);
    changeHikariPoint(Number.NaN);
    expect($session.get()?.hikariPoint).toBe(0);
    expect(parseUserInfoCookie(parseCookieHeader(doc.cookie)[USER_INFO_COOKIE])?.hikariPoint).toBe(0);
  });
});

describe('applyRefresh', () => {
  it('stores the new pair and the new expiry', () => {
    startSession(sessionData());
    const expiry = new Date(NOW + 2 * 86_400_000).toISOString();
    applyRefresh({ hikariAccessToken: 'access-2', hikariRefreshToken: 'refresh-2', refreshTokenExpiry: expiry });
    expect(readAccessToken()).toBe('access-2');
    expect(readRefreshToken()).toBe('refresh-2');
    expect($session.get()?.refreshTokenExpiry).toBe(expiry);
    expect(lastMaxAge(REFRESH_TOKEN_COOKIE)).toBe(2 * 86_400);
    expect(parseUserInfoCookie(parseCookieHeader(doc.cookie)[USER_INFO_COOKIE])?.refreshTokenExpiry).toBe(expiry);
  });

  it('updates the user cookie on a page that never loaded the session', () => {
    startSession(sessionData());
    $session.set(null);
    applyRefresh({ hikariAccessToken: 'a', hikariRefreshToken: 'r', refreshTokenExpiry: '2026-11-30T00:00:00.000Z' });
    expect($session.get()).toBeNull();
    expect(parseUserInfoCookie(parseCookieHeader(doc.cookie)[USER_INFO_COOKIE])?.refreshTokenExpiry).toBe(
      '2026-11-30T00:00:00.000Z',
    );
  });
});

describe('endSession', () => {
  it('clears tokens and user info and marks the login expired', () => {
    startSession(sessionData());
    endSession();
    expect(doc.cookie).toBe('');
    expect(readAccessToken()).toBeNull();
    expect(readRefreshToken()).toBeNull();
    expect($session.get()).toBeNull();
    expect($loginExpired.get()).toBe(true);
  });
});

describe('hydrateSessionFromCookies', () => {
  it('restores the user from the cookie, with an empty bio', () => {
    startSession(sessionData());
    $session.set(null);
    const user = hydrateSessionFromCookies();
    expect(user).toMatchObject({ _id: 'u1', userId: 7, name: '小光', bio: '', hikariPoint: 100 });
    expect($session.get()).toEqual(user);
  });

  it('keeps a bio already loaded for the same user', () => {
    startSession(sessionData());
    expect(hydrateSessionFromCookies()?.bio).toBe('一段很长的个人简介');
  });

  it('is logged out without a user cookie', () => {
    $session.set(sessionUser());
    expect(hydrateSessionFromCookies()).toBeNull();
    expect($session.get()).toBeNull();
  });

  it('treats user info without any token as an expired login and clears it', () => {
    startSession(sessionData());
    doc.cookie = `${ACCESS_TOKEN_COOKIE}=; max-age=0`;
    doc.cookie = `${REFRESH_TOKEN_COOKIE}=; max-age=0`;
    expect(hydrateSessionFromCookies()).toBeNull();
    expect(parseCookieHeader(doc.cookie)).toEqual({});
    expect($loginExpired.get()).toBe(true);
  });

  it('stays logged in with only the refresh token left (the access token ran out)', () => {
    startSession(sessionData());
    vi.advanceTimersByTime(ACCESS_TOKEN_TTL_SECONDS * 1000);
    expect(readAccessToken()).toBeNull();
    expect(hydrateSessionFromCookies()?.name).toBe('小光');
  });
});

describe('parseUserInfoCookie', () => {
  it('needs an id, a user number and a name', () => {
    expect(parseUserInfoCookie(null)).toBeNull();
    expect(parseUserInfoCookie('not json')).toBeNull();
    expect(parseUserInfoCookie('[1]')).toBeNull();
    expect(parseUserInfoCookie('{"_id":"u1","userId":"7","name":"a"}')).toBeNull();
    expect(parseUserInfoCookie('{"_id":"u1","userId":7,"name":""}')).toBeNull();
    expect(parseUserInfoCookie('{"userId":7,"name":"a"}')).toBeNull();
  });

  it('fills neutral values for anything missing or malformed', () => {
    const user = parseUserInfoCookie(
      JSON.stringify({ _id: 'u1', userId: 7, name: 'a', hikariPoint: 'lots', hikariUserGroup: 'root', userSetting: 1 }),
    );
    expect(user).toMatchObject({
      avatar: '',
      hikariPoint: 0,
      hikariUserGroup: 'user',
      status: 'active',
      lastCheckInAt: null,
      userSetting: { locale: 'zh-CN', nsfw: 'blur', emailNotifications: true },
    });
  });

  it('keeps valid groups and settings', () => {
    const user = parseUserInfoCookie(userInfoCookieValue(sessionUser({ hikariUserGroup: 'creator' })));
    expect(user?.hikariUserGroup).toBe('creator');
    expect(user).toEqual({ ...sessionUser({ hikariUserGroup: 'creator' }), bio: '' });
  });
});

describe('accessTokenExpiresAt', () => {
  it('reads exp (seconds) from the payload as milliseconds', () => {
    expect(accessTokenExpiresAt(jwt({ exp: 1_800_000_000, _id: '光' }))).toBe(1_800_000_000_000);
  });

  it('is null for anything that is not a JWT with a numeric exp', () => {
    expect(accessTokenExpiresAt(null)).toBeNull();
    expect(accessTokenExpiresAt('')).toBeNull();
    expect(accessTokenExpiresAt('opaque-token')).toBeNull();
    expect(accessTokenExpiresAt('a.!!!.c')).toBeNull();
    expect(accessTokenExpiresAt(jwt({ exp: '1800000000' }))).toBeNull();
    expect(accessTokenExpiresAt(jwt({ sub: 'x' }))).toBeNull();
  });
});

describe('safeReturnPath', () => {
  it.each([
    ['/space/7?tab=rate#top', '/space/7?tab=rate#top'],
    ['/', '/'],
    [null, '/'],
    ['', '/'],
    ['https://evil.example', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['/\n/evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['space/7', '/'],
  ])('%j → %j', (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});
