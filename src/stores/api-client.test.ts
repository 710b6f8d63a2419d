import { describe, expect, it, vi } from 'vitest';
import { catalogueContract } from '../shared/catalogue/catalogue.contract.ts';
import { usersContract } from '../shared/users/users.contract.ts';
import { calls, client, deps, doc, fail, ok, refreshed, server, session } from './api-client.fixture.ts';
import { API_TIMEOUT_MS, ApiError, loginRedirectUrl, parseRetryAfter } from './api-client.ts';
import { parseCookieHeader } from './cookies.ts';
import { $session, startSession } from './session.ts';

describe('requests', () => {
  it('GETs under /api with the query, the bearer token and same-origin credentials', async () => {
    startSession(session());
    server.handler = () => ok({ items: [1] });
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
    server.handler = () => ok({ isFavorited: true, favoriteCount: 2 });
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
    server.handler = () => fail(400, 'VALIDATION_FAILED', { issues });
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
    server.handler = () => fail(429, 'RATE_LIMITED', null, { 'Retry-After': '30' });
    await expect(client().post('/v2/user/login', {})).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfter: 30 });
    server.handler = () => fail(429, 'CODE_COOLDOWN', { retryAfter: 42 });
    await expect(client().post('/v2/email/verification-code/request', {})).rejects.toMatchObject({
      code: 'CODE_COOLDOWN',
      retryAfter: 42,
    });
  });

  it('names a non-JSON answer by its status', async () => {
    server.handler = () => new Response('<html>Bad gateway</html>', { status: 502 });
    await expect(client().get('/x')).rejects.toMatchObject({ status: 502, code: 'SERVICE_UNAVAILABLE' });
    server.handler = () => new Response('nope', { status: 200 });
    await expect(client().get('/x')).rejects.toMatchObject({ status: 200, code: 'BAD_RESPONSE' });
  });

  it('turns a network failure into NETWORK_ERROR', async () => {
    server.handler = () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(client().get('/x')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('aborts after 60 s with TIMEOUT', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    server.handler = (call) =>
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
    server.handler = (call) =>
      new Promise<Response>((_, reject) =>
        call.init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const result = client().get('/x', { signal: controller.signal });
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('refresh', () => {
  it('shares one request between callers and can outlive the page', async () => {
    startSession(session());
    server.handler = () => ok(refreshed(2), 'TOKEN_REFRESHED');
    const api = client();
    const [a, b] = await Promise.all([api.refresh(), api.refresh()]);
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
    server.handler = () => fail(500, 'INTERNAL_ERROR');
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
