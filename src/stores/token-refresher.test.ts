import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client.ts';
import { createCookieJar, memoryCookieDocument, setCookieJar } from './cookies.ts';
import { readAccessToken, readRefreshToken } from './session.ts';
import {
  REFRESH_CHECK_INTERVAL_MS,
  REFRESH_MARGIN_MS,
  createTokenRefresher,
  needsRefresh,
  type RefresherDeps,
} from './token-refresher.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const MINUTE = 60_000;

function jwt(expMs: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256' })}.${part({ _id: 'u1', hikariUserGroup: 'user', exp: Math.floor(expMs / 1000) })}.sig`;
}

class FakeDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
  show(state: 'visible' | 'hidden') {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

let page: FakeDocument;
let win: EventTarget;
let access: string | null;
let refreshToken: string | null;
let refresh: ReturnType<typeof vi.fn<RefresherDeps['refresh']>>;
let onNoRefreshToken: ReturnType<typeof vi.fn<() => void>>;

function refresher() {
  return createTokenRefresher({
    now: () => Date.now(),
    every: (fn, ms) => {
      const handle = setInterval(fn, ms);
      return () => clearInterval(handle);
    },
    page,
    window: win,
    refresh,
    readAccessToken: () => access,
    readRefreshToken: () => refreshToken,
    onNoRefreshToken,
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  page = new FakeDocument();
  win = new EventTarget();
  access = jwt(NOW + 60 * MINUTE);
  refreshToken = 'refresh-1';
  // A refresh stores a fresh hour, like the real one does.
  refresh = vi.fn<RefresherDeps['refresh']>(async () => {
    access = jwt(Date.now() + 60 * MINUTE);
  });
  onNoRefreshToken = vi.fn<() => void>();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('needsRefresh', () => {
  it('refreshes under 10 minutes left', () => {
    expect(needsRefresh(NOW + REFRESH_MARGIN_MS + 1, NOW)).toBe(false);
    expect(needsRefresh(NOW + REFRESH_MARGIN_MS, NOW)).toBe(false);
    expect(needsRefresh(NOW + REFRESH_MARGIN_MS - 1, NOW)).toBe(true);
    expect(needsRefresh(NOW - 1, NOW)).toBe(true);
  });

  it('refreshes when the expiry is unknown', () => {
    expect(needsRefresh(null, NOW)).toBe(true);
  });
});

describe('token refresher', () => {
  it('checks every 60 s and refreshes once under 10 minutes remain', async () => {
    const r = refresher();
    r.start();
    expect(refresh).not.toHaveBeenCalled();
    // 60 min token: at 50 min it has 10 min left (not under), at 51 min it has 9.
    await vi.advanceTimersByTimeAsync(50 * MINUTE);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_INTERVAL_MS);
    expect(refresh).toHaveBeenCalledOnce();
    // The new token lasts another hour: no refresh on the next checks.
    await vi.advanceTimersByTimeAsync(10 * REFRESH_CHECK_INTERVAL_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
    r.stop();
  });

  it('checks at once on start', () => {
    access = jwt(NOW + 5 * MINUTE);
    refresher().start();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes when the access token is missing but a refresh token exists', () => {
    access = null;
    expect(refresher().check()).toBe(true);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes when the access token cannot be read', () => {
    access = 'opaque';
    expect(refresher().check()).toBe(true);
  });

  it('does nothing without a refresh token, and says so', () => {
    access = null;
    refreshToken = null;
    expect(refresher().check()).toBe(false);
    expect(refresh).not.toHaveBeenCalled();
    expect(onNoRefreshToken).toHaveBeenCalledTimes(1);
  });

  it('pauses while the page is hidden and checks as soon as it is visible again', async () => {
    const r = refresher();
    r.start();
    page.show('hidden');
    await vi.advanceTimersByTimeAsync(55 * MINUTE);
    expect(refresh).not.toHaveBeenCalled();
    page.show('visible');
    expect(refresh).toHaveBeenCalledTimes(1);
    // The interval runs again from here.
    access = jwt(Date.now() + 5 * MINUTE);
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_INTERVAL_MS);
    expect(refresh).toHaveBeenCalledTimes(2);
    r.stop();
  });

  it('starts paused on a hidden page', async () => {
    page.visibilityState = 'hidden';
    access = jwt(NOW + MINUTE);
    const r = refresher();
    r.start();
    await vi.advanceTimersByTimeAsync(5 * REFRESH_CHECK_INTERVAL_MS);
    expect(refresh).not.toHaveBeenCalled();
    page.show('visible');
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('does not stack intervals when visibility flips repeatedly', async () => {
    const r = refresher();
    r.start();
    page.show('visible');
    page.show('visible');
    let checks = 0;
    refresh.mockImplementation(async () => void (checks += 1));
    access = jwt(Date.now() + MINUTE);
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_INTERVAL_MS);
    expect(checks).toBe(1);
    r.stop();
  });

  it('checks before the page goes away', () => {
    const r = refresher();
    r.start();
    access = jwt(NOW + 2 * MINUTE);
    win.dispatchEvent(new Event('pagehide'));
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('can leave the pagehide check out', () => {
    createTokenRefresher({
      now: () => Date.now(),
      every: () => () => {},
      page,
      window: win,
      refresh,
      readAccessToken: () => access,
      readRefreshToken: () => refreshToken,
      checkOnPageHide: false,
    }).start();
    access = jwt(NOW + MINUTE);
    win.dispatchEvent(new Event('pagehide'));
    expect(refresh).not.toHaveBeenCalled();
  });

  it('does not refresh at pagehide when the token is fresh', () => {
    refresher().start();
    win.dispatchEvent(new Event('pagehide'));
    expect(refresh).not.toHaveBeenCalled();
  });

  it('starts once, and stops listening and ticking when stopped', async () => {
    const r = refresher();
    r.start();
    r.start();
    r.stop();
    access = jwt(NOW + MINUTE);
    await vi.advanceTimersByTimeAsync(3 * REFRESH_CHECK_INTERVAL_MS);
    page.show('hidden');
    page.show('visible');
    win.dispatchEvent(new Event('pagehide'));
    expect(refresh).not.toHaveBeenCalled();
  });

  it('logs a failed refresh and keeps going', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    refresh.mockRejectedValue(new Error('offline'));
    access = jwt(NOW + MINUTE);
    const r = refresher();
    r.start();
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_INTERVAL_MS);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalled();
    r.stop();
    warn.mockRestore();
  });
});

describe('token refresher with the API client', () => {
  afterEach(() => setCookieJar(null));

  it('shares one refresh with requests that meet a 401 meanwhile', async () => {
    const doc = memoryCookieDocument();
    setCookieJar(createCookieJar(doc));
    doc.cookie = `hikari-access-token=${jwt(NOW + MINUTE)}; path=/; max-age=60`;
    doc.cookie = 'hikari-refresh-token=refresh-1; path=/; max-age=600000';
    const urls: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fresh = jwt(NOW + 60 * MINUTE);
    const api = createApiClient({
      fetch: async (url, init) => {
        urls.push(url);
        const body = (data: unknown, status = 200) =>
          new Response(JSON.stringify(data), { status, headers: { 'Content-Type': 'application/json' } });
        if (url === '/api/user/refresh-token') {
          await gate;
          return body({
            success: true,
            code: 'TOKEN_REFRESHED',
            message: 'ok',
            data: {
              hikariAccessToken: fresh,
              hikariRefreshToken: 'refresh-2',
              refreshTokenExpiry: '2026-11-29T12:00:00Z',
            },
          });
        }
        const auth = (init.headers as Record<string, string>).Authorization;
        return auth === `Bearer ${fresh}`
          ? body({ success: true, code: 'OK', message: 'ok', data: 1 })
          : body({ success: false, code: 'TOKEN_EXPIRED', message: 'expired', data: null }, 401);
      },
      location: () => ({ pathname: '/', search: '', hash: '' }),
      navigate: () => {},
      assign: () => {},
      notifyExpired: () => {},
      timer: () => () => {},
      sleep: async () => {},
    });
    const r = createTokenRefresher({
      now: () => Date.now(),
      every: (fn, ms) => {
        const handle = setInterval(fn, ms);
        return () => clearInterval(handle);
      },
      page,
      window: win,
      refresh: () => api.refresh(),
      readAccessToken,
      readRefreshToken,
    });
    r.start();
    const request = api.get('/v2/user/status');
    win.dispatchEvent(new Event('pagehide'));
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_INTERVAL_MS);
    release();
    await expect(request).resolves.toMatchObject({ data: 1 });
    expect(urls.filter((u) => u === '/api/user/refresh-token')).toHaveLength(1);
    expect(readRefreshToken()).toBe('refresh-2');
    r.stop();
  });
});
