/**
 * The harness of the API client tests: a fake fetch that records calls and answers through
 * `server.handler`, cookies in memory, and the client's other dependencies as mocks.
 * Reset before each test.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import {
  ACCESS_TOKEN_COOKIE,
  REFRESH_TOKEN_COOKIE,
  type RefreshData,
  type SessionData,
  type SessionUser,
} from '../shared/auth.ts';
import { createApiClient, type ApiClientDeps } from './api-client.ts';
import { createCookieJar, memoryCookieDocument, setCookieJar } from './cookies.ts';
import { $loginExpired, $session } from './session.ts';

export const EXPIRED_MESSAGE = '登录状态已过期，请重新登录';

export interface Call {
  url: string;
  method: string;
  auth: string | null;
  body: unknown;
  init: RequestInit;
}

export type Handler = (call: Call) => Response | Promise<Response>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
export const ok = (data: unknown, code = 'OK') => json(200, { success: true, code, message: 'ok', data });
export const fail = (status: number, code: string, data: unknown = null, headers: Record<string, string> = {}) =>
  json(status, { success: false, code, message: `message for ${code}`, data }, headers);

export const user: SessionUser = {
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

export const session = (access = 'access-1', refresh = 'refresh-1'): SessionData => ({
  user,
  hikariAccessToken: access,
  hikariRefreshToken: refresh,
  refreshTokenExpiry: new Date(Date.now() + 86_400_000).toISOString(),
});

export const refreshed = (n: number): RefreshData => ({
  hikariAccessToken: `access-${n}`,
  hikariRefreshToken: `refresh-${n}`,
  refreshTokenExpiry: new Date(Date.now() + 86_400_000).toISOString(),
});

export let doc: ReturnType<typeof memoryCookieDocument>;
export let calls: Call[];
/** How the fake server answers: tests set `server.handler`. */
export const server: { handler: Handler } = { handler: () => ok(null) };
export let deps: ApiClientDeps & {
  navigate: ReturnType<typeof vi.fn<(url: string) => void>>;
  assign: ReturnType<typeof vi.fn<(url: string) => void>>;
  notifyExpired: ReturnType<typeof vi.fn<(message: string) => void>>;
};
/** The page the client thinks it is on: tests set `page.location`. */
export const page: { location: { pathname: string; search: string; hash: string } } = {
  location: { pathname: '/space/7', search: '?tab=rate', hash: '#top' },
};

export function client(overrides: Partial<ApiClientDeps> = {}) {
  return createApiClient({ ...deps, ...overrides });
}

/** Another tab winning a refresh race writes the shared cookies. */
export function otherTabStores(data: RefreshData) {
  doc.cookie = `${ACCESS_TOKEN_COOKIE}=${data.hikariAccessToken}; path=/; max-age=3600`;
  doc.cookie = `${REFRESH_TOKEN_COOKIE}=${data.hikariRefreshToken}; path=/; max-age=3600`;
}

export const refreshCalls = () => calls.filter((c) => c.url === '/api/user/refresh-token');

beforeEach(() => {
  doc = memoryCookieDocument();
  setCookieJar(createCookieJar(doc));
  $session.set(null);
  $loginExpired.set(false);
  calls = [];
  server.handler = () => ok(null);
  page.location = { pathname: '/space/7', search: '?tab=rate', hash: '#top' };
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
      return server.handler(call);
    },
    location: () => page.location,
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
