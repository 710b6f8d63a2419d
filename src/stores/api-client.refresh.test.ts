import { describe, expect, it, vi } from 'vitest';
import { USER_INFO_COOKIE } from '../shared/auth.ts';
import {
  EXPIRED_MESSAGE,
  calls,
  client,
  deps,
  doc,
  fail,
  ok,
  otherTabStores,
  refreshCalls,
  refreshed,
  page,
  server,
  session,
} from './api-client.fixture.ts';
import { ApiError } from './api-client.ts';
import { parseCookieHeader } from './cookies.ts';
import { $loginExpired, $session, readAccessToken, readRefreshToken, startSession } from './session.ts';

// A 401: the client refreshes the login once (one refresh shared by concurrent calls and tabs) and
// retries the call once.
describe('401: refresh once, then retry once', () => {
  it('refreshes and retries with the new token', async () => {
    startSession(session());
    server.handler = (call) => {
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
    server.handler = (call) =>
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
    server.handler = () => fail(401, 'UNAUTHORIZED');
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
    page.location = { pathname, search, hash: '' };
    server.handler = () => fail(401, 'UNAUTHORIZED');
    await expect(client().get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(deps.notifyExpired).toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('shares one refresh among concurrent 401s and retries each', async () => {
    startSession(session());
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.handler = async (call) => {
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
    server.handler = (call) =>
      call.url === '/api/user/refresh-token' ? fail(401, 'REFRESH_TOKEN_REUSED') : fail(401, 'TOKEN_EXPIRED');
    const api = client();
    const results = await Promise.allSettled([api.get('/a'), api.get('/b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(refreshCalls()).toHaveLength(1);
    expect(deps.notifyExpired).toHaveBeenCalledTimes(1);
    expect(deps.navigate).toHaveBeenCalledTimes(1);
  });

  it('logs a banned member out at their next call, saying why, without a refresh', async () => {
    startSession(session());
    server.handler = () => fail(403, 'ACCOUNT_BANNED');
    await expect(client().get('/a')).rejects.toMatchObject({ code: 'ACCOUNT_BANNED' });
    expect(refreshCalls()).toHaveLength(0);
    expect(deps.notifyExpired).toHaveBeenCalledWith('message for ACCOUNT_BANNED');
    expect(deps.navigate).toHaveBeenCalledTimes(1);
    expect($session.get()).toBeNull();
  });

  it('takes the group a refreshed token carries into the session (a role changed meanwhile)', async () => {
    startSession(session());
    const claims = Buffer.from(JSON.stringify({ _id: 'u1', hikariUserGroup: 'creator' })).toString('base64url');
    server.handler = (call) => {
      if (call.url === '/api/user/refresh-token')
        return ok({ ...refreshed(2), hikariAccessToken: `h.${claims}.s` }, 'TOKEN_REFRESHED');
      return call.auth === `Bearer h.${claims}.s` ? ok({}) : fail(401, 'TOKEN_EXPIRED');
    };
    await client().get('/a');
    expect($session.get()?.hikariUserGroup).toBe('creator');
  });

  it('counts TOKEN_ALREADY_ROTATED as success when another tab stored new tokens', async () => {
    startSession(session());
    server.handler = (call) => {
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
    server.handler = (call) => {
      if (call.url === '/api/user/refresh-token') return fail(409, 'TOKEN_ALREADY_ROTATED');
      return call.auth === 'Bearer access-4' ? ok('fine') : fail(401, 'TOKEN_EXPIRED');
    };
    await expect(client({ sleep }).get('/x')).resolves.toMatchObject({ data: 'fine' });
    expect(naps).toBe(3);
  });

  it('expires when a lost race never brings new tokens', async () => {
    startSession(session());
    const sleep = vi.fn(async () => {});
    server.handler = (call) =>
      call.url === '/api/user/refresh-token' ? fail(409, 'TOKEN_ALREADY_ROTATED') : fail(401, 'TOKEN_EXPIRED');
    await expect(client({ sleep }).get('/x')).rejects.toMatchObject({ status: 401 });
    expect(sleep).toHaveBeenCalled();
    expect(deps.notifyExpired).toHaveBeenCalledWith(EXPIRED_MESSAGE);
  });

  it('retries only once: a second 401 is thrown without another refresh or a logout', async () => {
    startSession(session());
    server.handler = (call) =>
      call.url === '/api/user/refresh-token' ? ok(refreshed(2), 'TOKEN_REFRESHED') : fail(401, 'TOKEN_INVALID');
    await expect(client().get('/x')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    expect(calls).toHaveLength(3);
    expect(deps.notifyExpired).not.toHaveBeenCalled();
    expect($session.get()).not.toBeNull();
  });

  it('keeps the session when the refresh cannot reach the server', async () => {
    startSession(session());
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.handler = (call) => {
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
    server.handler = (call) =>
      call.url === '/api/user/refresh-token' ? ok({ nope: true }, 'TOKEN_REFRESHED') : fail(401, 'TOKEN_EXPIRED');
    await expect(client().get('/x')).rejects.toMatchObject({ status: 401 });
    expect(readAccessToken()).toBe('access-1');
  });

  it('retries without refreshing when a newer token arrived meanwhile', async () => {
    startSession(session());
    server.handler = (call) => {
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
      server.handler = () => fail(401, 'INVALID_CREDENTIALS');
      await expect(client().post(path, {})).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
      expect(refreshCalls()).toHaveLength(0);
      expect(deps.notifyExpired).not.toHaveBeenCalled();
    },
  );
});
