import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_TOKEN_COOKIE,
  REFRESH_TOKEN_COOKIE,
  USER_INFO_COOKIE,
  type RefreshData,
  type SessionData,
  type SessionUser,
} from '../shared/auth.ts';
import { catalogueContract } from '../shared/catalogue/catalogue.contract.ts';
import { usersContract } from '../shared/users/users.contract.ts';
import {
  API_TIMEOUT_MS,
  ApiError,
  createApiClient,
  loginRedirectUrl,
  parseRetryAfter,
  type ApiClientDeps,
} from './api-client.ts';
import { createCookieJar, memoryCookieDocument, parseCookieHeader, setCookieJar } from './cookies.ts';
import { $loginExpired, $session, readAccessToken, readRefreshToken, startSession } from './session.ts';

const EXPIRED_MESSAGE = '登录状态已过期，请重新登录';

interface Call {
  url: string;
  method: string;
  auth: string | null;
  body: unknown;
  init: RequestInit;
}

type Handler = (call: Call) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const ok = (data: unknown, code = 'OK') => json(200, { success: true, code, message: 'ok', data });
const fail = (status: number, code: string, data: unknown = null, headers: Record<string, string> = {}) =>
  json(status, { success: false, code, message: `message for ${code}`, data }, headers);

const user: SessionUser = {
  _id: 'u1',
  isLogin: true,
  userId: 7,
  name: '小光',
  email: 'hikari@example.org',
  avatar: '',
  headCover: '',
  signature: '',
  bio: '',
  followerCount: 0,
  followingCount: 0,
  postCount: 0,
  articleCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  refreshTokenExpiry: '2026-11-29T00:00:00.000Z',
  isLoginStatusExpiry: false,
  userSetting: { locale: 'zh-CN', nsfw: 'blur', emailNotifications: true },
  hikariPoint: 10,
  status: 'active',
  checkInStreak: 0,
  longestCheckInStreak: 0,
  lastCheckInAt: null,
  hikariUserGroup: 'user',
};

const session = (access = 'access-1', refresh = 'refresh-1'): SessionData => ({
  user,
  hikariAccessToken: access,
  hikariRefreshToken: refresh,
  refreshTokenExpiry: new Date(Date.now() + 86_400_000).toISOString(),
});

const refreshed = (n: number): RefreshData => ({
  hikariAccessToken: `access-${n}`,
  hikariRefreshToken: `refresh-${n}`,
  refreshTokenExpiry: new Date(Date.now() + 86_400_000).toISOString(),
});

let doc: ReturnType<typeof memoryCookieDocument>;
let calls: Call[];
let handler: Handler;
let deps: ApiClientDeps & {
  navigate: ReturnType<typeof vi.fn<(url: string) => void>>;
  assign: ReturnType<typeof vi.fn<(url: string) => void>>;
  notifyExpired: ReturnType<typeof vi.fn<(message: string) => void>>;
};
let location: { pathname: string; search: string; hash: string };

function client(overrides: Partial<ApiClientDeps> = {}) {
  return createApiClient({ ...deps, ...overrides });
}

/** Another tab winning a refresh race writes the shared cookies. */
function otherTabStores(data: RefreshData) {
  doc.cookie = `${ACCESS_TOKEN_COOKIE}=${data.hikariAccessToken}; path=/; max-age=3600`;
  doc.cookie = `${REFRESH_TOKEN_COOKIE}=${data.hikariRefreshToken}; path=/; max-age=3600`;
}

const refreshCalls = () => calls.filter((c) => c.url === '/api/user/refresh-token');

beforeEach(() => {
  doc = memoryCookieDocument();
  setCookieJar(createCookieJar(doc));
  $session.set(null);
  $loginExpired.set(false);
  calls = [];
  handler = () => ok(null);
  location = { pathname: '/space/7', search: '?tab=rate', hash: '#top' };
  deps = {
    fetch: async (url, init) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      const call: Call = {
        url,
        method: init.method ?? 'GET',
        auth: headers.Authorization ?? null,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        init,
      };
      calls.push(call);
      return handler(call);
    },
    location: () => location,
    navigate: vi.fn<(url: string) => void>(),
    assign: vi.fn<(url: string) => void>(),
    notifyExpired: vi.fn<(message: string) => void>(),
    timer: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      return () => clearTimeout(handle);
    },
    sleep: async () => {},
  };
});

afterEach(() => {
  setCookieJar(null);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('requests', () => {
  it('GETs under /api with the query, the bearer token and same-origin credentials', async () => {
    startSession(session());
    handler = () => ok({ items: [1] });
    const answer = await client().get<{ items: number[] }>('/user/content', {
      query: { userId: 7, page: 1, contentType: undefined, keyword: null, all: false },
    });
    expect(answer).toEqual({ success: true, code: 'OK', message: 'ok', data: { items: [1] } });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe('/api/user/content?userId=7&page=1&all=false');
    expect(call?.method).toBe('GET');
    expect(call?.auth).toBe('Bearer access-1');
    expect(call?.init.credentials).toBe('same-origin');
    expect(call?.init.body).toBeUndefined();
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('calls a contract endpoint: path params filled in and encoded, query and body sent', async () => {
    startSession(session());
    handler = () => ok({ isFavorited: true, favoriteCount: 2 });
    const api = client();
    const answer = await api.call(catalogueContract.favoriteCheck, { query: { itemType: 'galgame', itemId: 3 } });
    expect(answer.data.favoriteCount).toBe(2);
    await api.call(catalogueContract.removeFavorite, { params: { itemType: 'galgame', itemId: 3 } });
    await api.call(usersContract.profile, { params: { id: 'a/b?c' } });
    await api.call(catalogueContract.reportLink, { params: { linkId: 9 }, body: { reason: 'dead' } });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', '/api/user/favorites/check?itemType=galgame&itemId=3', undefined],
      ['DELETE', '/api/user/favorites/galgame/3', undefined],
      ['GET', '/api/user/profile/a%2Fb%3Fc', undefined],
      ['POST', '/api/galgame/download-link/9/report', { reason: 'dead' }],
    ]);
  });

  it('sends JSON bodies for POST, PUT and DELETE', async () => {
    const api = client();
    await api.post('/user/follow', { userId: 3 });
    await api.put('/user/profile', { name: 'x' });
    await api.delete('/emoji/5', { emojiSetId: 1 });
    await api.delete('/user/favorites/post/1');
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/api/user/follow', { userId: 3 }],
      ['PUT', '/api/user/profile', { name: 'x' }],
      ['DELETE', '/api/emoji/5', { emojiSetId: 1 }],
      ['DELETE', '/api/user/favorites/post/1', undefined],
    ]);
    expect((calls[0]?.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect((calls[3]?.init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('sends no Authorization header without an access token', async () => {
    await client().get('/health');
    expect(calls[0]?.auth).toBeNull();
  });
});

describe('errors', () => {
  it('throws an ApiError with the envelope fields and the field issues', async () => {
    const issues = [
      { path: 'password', message: '密码至少 8 位' },
      { path: 'password', message: 'second' },
      { path: 'email', message: '请输入有效的邮箱地址' },
    ];
    handler = () => fail(400, 'VALIDATION_FAILED', { issues });
    const error = await client()
      .post('/v2/user/register', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'message for VALIDATION_FAILED',
    });
    expect(apiError.issues).toEqual(issues);
    expect(apiError.fieldErrors()).toEqual({ password: '密码至少 8 位', email: '请输入有效的邮箱地址' });
  });

  it('reads retryAfter from the Retry-After header, else from data', async () => {
    handler = () => fail(429, 'RATE_LIMITED', null, { 'Retry-After': '30' });
    await expect(client().post('/v2/user/login', {})).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfter: 30 });
    handler = () => fail(429, 'CODE_COOLDOWN', { retryAfter: 42 });
    await expect(client().post('/v2/email/verification-code/request', {})).rejects.toMatchObject({
      code: 'CODE_COOLDOWN',
      retryAfter: 42,
    });
  });

  it('names a non-JSON answer by its status', async () => {
    handler = () => new Response('<html>Bad gateway</html>', { status: 502 });
    await expect(client().get('/x')).rejects.toMatchObject({ status: 502, code: 'SERVICE_UNAVAILABLE' });
    handler = () => new Response('nope', { status: 200 });
    await expect(client().get('/x')).rejects.toMatchObject({ status: 200, code: 'BAD_RESPONSE' });
  });

  it('turns a network failure into NETWORK_ERROR', async () => {
    handler = () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(client().get('/x')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('aborts after 60 s with TIMEOUT', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    handler = (call) =>
      new Promise<Response>((_, reject) => {
        signal = call.init.signal ?? undefined;
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const result = client()
      .get('/slow')
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    await expect(result).resolves.toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it('lets the caller abort with its own signal', async () => {
    const controller = new AbortController();
    handler = (call) =>
      new Promise<Response>((_, reject) =>
        call.init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const result = client().get('/x', { signal: controller.signal });
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('401: refresh once, then retry once', () => {
  it('refreshes and retries with the new token', async () => {
    startSession(session());
    handler = (call) => {
      if (call.url === '/api/user/refresh-token') return ok(refreshed(2), 'TOKEN_REFRESHED');
      return call.auth === 'Bearer access-2' ? ok({ mine: true }) : fail(401, 'TOKEN_EXPIRED');
    };
    const answer = await client().get<{ mine: boolean }>('/v2/user/profile');
    expect(answer.data).toEqual({ mine: true });
    expect(calls.map((c) => [c.method, c.url, c.auth])).toEqual([
      ['GET', '/api/v2/user/profile', 'Bearer access-1'],
      ['POST', '/api/user/refresh-token', null],
      ['GET', '/api/v2/user/profile', 'Bearer access-2'],
    ]);
    expect(calls[1]?.body).toEqual({ token: 'refresh-1' });
    expect(readAccessToken()).toBe('access-2');
    expect(readRefreshToken()).toBe('refresh-2');
    expect(deps.notifyExpired).not.toHaveBeenCalled();
  });

  it('logs out and goes to /login with the full way back when the refresh is refused', async () => {
    startSession(session());
    handler = (call) =>
      call.url === '/api/user/refresh-token' ? fail(401, 'REFRESH_TOKEN_INVALID') : fail(401, 'TOKEN_EXPIRED');
    const error = await client()
      .get('/v2/user/status')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    expect(refreshCalls()).toHaveLength(1);
    expect(deps.notifyExpired).toHaveBeenCalledExactlyOnceWith(EXPIRED_MESSAGE);
    expect($session.get()).toBeNull();
    expect($loginExpired.get()).toBe(true);
    expect(parseCookieHeader(doc.cookie)).toEqual({});
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/login?jumpTo=%2Fspace%2F7%3Ftab%3Drate%23top');
  });

  it('goes to /login at once when there is no refresh token', async () => {
    doc.cookie = `${USER_INFO_COOKIE}=x; path=/; max-age=60`;
    handler = () => fail(401, 'UNAUTHORIZED');
    await expect(client().post('/user/follow', { userId: 1 })).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls()).toHaveLength(0);
    expect(calls).toHaveLength(1);
    expect(deps.notifyExpired).toHaveBeenCalledWith(EXPIRED_MESSAGE);
    expect(parseCookieHeader(doc.cookie)).toEqual({});
    expect(deps.navigate).toHaveBeenCalledWith('/login?jumpTo=%2Fspace%2F7%3Ftab%3Drate%23top');
  });

  it.each([
    ['/login', ''],
    ['/space/7', '?jumpTo=%2F'],
    ['/user/login-help', ''],
  ])('does not redirect from %s%s', async (pathname, search) => {
    location = { pathname, search, hash: '' };
    handler = () => fail(401, 'UNAUTHORIZED');
    await expect(client().get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(deps.notifyExpired).toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('shares one refresh among concurrent 401s and retries each', async () => {
    startSession(session());
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    handler = async (call) => {
      if (call.url === '/api/user/refresh-token') {
        await gate;
        return ok(refreshed(2), 'TOKEN_REFRESHED');
      }
      return call.auth === 'Bearer access-2' ? ok(call.url) : fail(401, 'TOKEN_EXPIRED');
    };
    const api = client();
    const pending = [api.get('/a'), api.get('/b'), api.post('/c', {})];
    await vi.waitFor(() => expect(calls.filter((c) => c.auth === 'Bearer access-1')).toHaveLength(3));
    release();
    const answers = await Promise.all(pending);
    expect(answers.map((a) => a.data)).toEqual(['/api/a', '/api/b', '/api/c']);
    expect(refreshCalls()).toHaveLength(1);
  });

  it('expires once when a shared refresh is refused', async () => {
    startSession(session());
    handler = (call) =>
      call.url === '/api/user/refresh-token' ? fail(401, 'REFRESH_TOKEN_REUSED') : fail(401, 'TOKEN_EXPIRED');
    const api = client();
    const results = await Promise.allSettled([api.get('/a'), api.get('/b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(refreshCalls()).toHaveLength(1);
    expect(deps.notifyExpired).toHaveBeenCalledTimes(1);
    expect(deps.navigate).toHaveBeenCalledTimes(1);
  });

  it('counts TOKEN_ALREADY_ROTATED as success when another tab stored new tokens', async () => {
    startSession(session());
    handler = (call) => {
      if (call.url === '/api/user/refresh-token') {
        otherTabStores(refreshed(3));
        return fail(409, 'TOKEN_ALREADY_ROTATED');
      }
      return call.auth === 'Bearer access-3' ? ok('fine') : fail(401, 'TOKEN_EXPIRED');
    };
    await expect(client().get('/x')).resolves.toMatchObject({ data: 'fine' });
    expect(deps.notifyExpired).not.toHaveBeenCalled();
    expect(readRefreshToken()).toBe('refresh-3');
  });

  it('waits briefly for the winning tab to store its tokens', async () => {
    startSession(session());
    let naps = 0;
    const sleep = async () => {
      naps += 1;
      if (naps === 3) otherTabStores(refreshed(4));
    };
    handler = (call) => {
      if (call.url === '/api/user/refresh-token') return fail(409, 'TOKEN_ALREADY_ROTATED');
      return call.auth === 'Bearer access-4' ? ok('fine') : fail(401, 'TOKEN_EXPIRED');
    };
    await expect(client({ sleep }).get('/x')).resolves.toMatchObject({ data: 'fine' });
    expect(naps).toBe(3);
  });

  it('expires when a lost race never brings new tokens', async () => {
    startSession(session());
    const sleep = vi.fn(async () => {});
    handler = (call) =>
      call.url === '/api/user/refresh-token' ? fail(409, 'TOKEN_ALREADY_ROTATED') : fail(401, 'TOKEN_EXPIRED');
    await expect(client({ sleep }).get('/x')).rejects.toMatchObject({ status: 401 });
    expect(sleep).toHaveBeenCalled();
    expect(deps.notifyExpired).toHaveBeenCalledWith(EXPIRED_MESSAGE);
  });

  it('retries only once: a second 401 is thrown without another refresh or a logout', async () => {
    startSession(session());
    handler = (call) =>
      call.url === '/api/user/refresh-token' ? ok(refreshed(2), 'TOKEN_REFRESHED') : fail(401, 'TOKEN_INVALID');
    await expect(client().get('/x')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    expect(calls).toHaveLength(3);
    expect(deps.notifyExpired).not.toHaveBeenCalled();
    expect($session.get()).not.toBeNull();
  });

  it('keeps the session when the refresh cannot reach the server', async () => {
    startSession(session());
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    handler = (call) => {
      if (call.url === '/api/user/refresh-token') throw new TypeError('Failed to fetch');
      return fail(401, 'TOKEN_EXPIRED');
    };
    await expect(client().get('/x')).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(deps.notifyExpired).not.toHaveBeenCalled();
    expect(readRefreshToken()).toBe('refresh-1');
    expect($session.get()).not.toBeNull();
  });

  it('does not store a refresh answer without tokens', async () => {
    startSession(session());
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    handler = (call) =>
      call.url === '/api/user/refresh-token' ? ok({ nope: true }, 'TOKEN_REFRESHED') : fail(401, 'TOKEN_EXPIRED');
    await expect(client().get('/x')).rejects.toMatchObject({ status: 401 });
    expect(readAccessToken()).toBe('access-1');
  });

  it('retries without refreshing when a newer token arrived meanwhile', async () => {
    startSession(session());
    handler = (call) => {
      if (call.auth === 'Bearer access-1') {
        otherTabStores(refreshed(5));
        return fail(401, 'TOKEN_EXPIRED');
      }
      return ok('fine');
    };
    await expect(client().get('/x')).resolves.toMatchObject({ data: 'fine' });
    expect(refreshCalls()).toHaveLength(0);
    expect(calls[1]?.auth).toBe('Bearer access-5');
  });

  it.each(['/v2/user/login', '/v2/user/register', '/user/logout'])(
    'passes a 401 of %s straight through',
    async (path) => {
      startSession(session());
      handler = () => fail(401, 'INVALID_CREDENTIALS');
      await expect(client().post(path, {})).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
      expect(refreshCalls()).toHaveLength(0);
      expect(deps.notifyExpired).not.toHaveBeenCalled();
    },
  );
});

describe('refresh', () => {
  it('shares one request between callers and can outlive the page', async () => {
    startSession(session());
    handler = () => ok(refreshed(2), 'TOKEN_REFRESHED');
    const api = client();
    const [a, b] = await Promise.all([api.refresh({ keepalive: true }), api.refresh()]);
    expect([a, b]).toEqual(['refreshed', 'refreshed']);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.init.keepalive).toBe(true);
    await expect(api.refresh()).resolves.toBe('refreshed');
    expect(calls).toHaveLength(2);
  });
});

describe('logout', () => {
  it('sends the refresh token, clears the session and loads the home page', async () => {
    startSession(session());
    await client().logout();
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/api/user/logout', { hikariRefreshToken: 'refresh-1' }],
    ]);
    expect($session.get()).toBeNull();
    expect(parseCookieHeader(doc.cookie)).toEqual({});
    expect(deps.assign).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('logs out locally and goes home even when the call fails', async () => {
    startSession(session());
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    handler = () => fail(500, 'INTERNAL_ERROR');
    await client().logout();
    expect(logged).toHaveBeenCalled();
    expect($session.get()).toBeNull();
    expect(deps.assign).toHaveBeenCalledWith('/');
    expect(deps.navigate).not.toHaveBeenCalled();
  });
});

describe('helpers', () => {
  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(10_000 + 30_500).toUTCString(), 10_000)).toBe(30);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it('builds the login address with the whole path to return to', () => {
    expect(loginRedirectUrl({ pathname: '/a b', search: '?x=1&y=2', hash: '#h' })).toBe(
      '/login?jumpTo=%2Fa%20b%3Fx%3D1%26y%3D2%23h',
    );
    expect(loginRedirectUrl({ pathname: '/register', search: '?jumpTo=%2F', hash: '' })).toBeNull();
  });
});
