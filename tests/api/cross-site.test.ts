import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { createMediaApp } from '../../src/server/modules/media/media.app.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { freshIp, registerUser } from '../support/accounts.ts';

const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Every state-changing route the app mounts, with its path parameters filled in. */
function stateChangingRoutes(app: Hono): { method: string; path: string }[] {
  const seen = new Set<string>();
  const routes: { method: string; path: string }[] = [];
  for (const route of app.routes) {
    if (!STATE_CHANGING.includes(route.method)) continue;
    const path = route.path.replace(/:(\w+)(\{[^}]*\})?\??/g, (_m, name: string) =>
      name === 'itemType' ? 'galgame' : '1',
    );
    if (seen.has(`${route.method} ${path}`)) continue;
    seen.add(`${route.method} ${path}`);
    routes.push({ method: route.method, path });
  }
  return routes;
}

describe('cross-site requests to state-changing endpoints', () => {
  let app: TestApp;
  let media: Hono;
  let token: string;
  let routes: { method: string; path: string; app: 'api' | 'media' }[];
  const origin = 'http://localhost:4321';

  beforeAll(async () => {
    app = await createTestApp();
    media = createMediaApp(app.ctx);
    token = (await registerUser(app, 'CrossSite')).session.hikariAccessToken;
    routes = [
      ...stateChangingRoutes(app.api).map((r) => ({ ...r, app: 'api' as const })),
      ...stateChangingRoutes(media).map((r) => ({ ...r, app: 'media' as const })),
    ];
  });
  afterAll(async () => app.close());

  const send = (route: { method: string; path: string; app: 'api' | 'media' }, headers: Record<string, string>) =>
    (route.app === 'api' ? app.api : media).request(route.path, {
      method: route.method,
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': freshIp(), ...headers },
      body: '{"token":"x"}',
    });

  it('knows the routes it guards', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    expect(names).toContain('POST /api/user/refresh-token');
    expect(names).toContain('PUT /api/user/profile');
    expect(names).toContain('DELETE /api/galgame/1/rating');
    expect(names.length).toBeGreaterThan(15);
  });

  it('refuses a text/plain body on every state-changing route with 415', async () => {
    for (const route of routes) {
      const res = await send(route, { 'content-type': 'text/plain' });
      expect(res.status, `${route.method} ${route.path}`).toBe(415);
      expect(await res.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE', data: null });
    }
  });

  it('refuses a form body and a body without a type', async () => {
    for (const route of routes) {
      for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
        const res = await send(route, type ? { 'content-type': type } : {});
        expect(res.status, `${route.method} ${route.path} ${type}`).toBe(415);
      }
    }
  });

  it('refuses a foreign Origin on every state-changing route with 403', async () => {
    for (const route of routes) {
      for (const foreign of [
        'https://evil.example',
        'null',
        'http://localhost:4322',
        'http://127.0.0.1:4322',
        'https://localhost:4321',
        'http://localhost.evil.example:4321',
      ]) {
        const res = await send(route, { 'content-type': 'application/json', origin: foreign });
        expect(res.status, `${route.method} ${route.path} from ${foreign}`).toBe(403);
        expect(await res.json()).toMatchObject({ success: false, code: 'CROSS_SITE_REQUEST' });
      }
    }
  });

  it('refuses Sec-Fetch-Site: cross-site on every state-changing route with 403', async () => {
    for (const route of routes) {
      const res = await send(route, { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' });
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    }
  });

  it('lets JSON from our own pages and from clients without those headers through to the route', async () => {
    for (const route of routes) {
      const variants: Record<string, string>[] = [
        { 'content-type': 'application/json' },
        { 'content-type': 'application/json; charset=utf-8', origin, 'sec-fetch-site': 'same-origin' },
        { 'content-type': 'Application/JSON;charset=UTF-8', 'sec-fetch-site': 'none' },
        // The default origin is on this machine: its other loopback spellings are the same site.
        { 'content-type': 'application/json', origin: 'http://127.0.0.1:4321', 'sec-fetch-site': 'same-origin' },
        { 'content-type': 'application/json', origin: 'http://[::1]:4321' },
      ];
      for (const headers of variants) {
        const res = await send(route, headers);
        // The route itself may refuse the caller (403 FORBIDDEN for a member): only the guard's answers count.
        const body = (await res.json().catch(() => null)) as { code?: string } | null;
        expect(['CROSS_SITE_REQUEST', 'UNSUPPORTED_MEDIA_TYPE'], `${route.method} ${route.path}`).not.toContain(
          body?.code,
        );
      }
    }
  });

  it('does not let a cross-site text/plain refresh set cookies', async () => {
    const { session } = await registerUser(app, 'Victim');
    const res = await app.request('/api/user/refresh-token', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ token: session.hikariRefreshToken }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
    // The token was not used up: the person's own page can still refresh with it.
    const own = await app.request('/api/user/refresh-token', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': freshIp() },
      body: JSON.stringify({ token: session.hikariRefreshToken }),
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('set-cookie')).toContain('hikari');
  });

  it('accepts a DELETE without a body, and refuses one with a non-JSON body', async () => {
    const bare = await app.request('/api/galgame/1/rating', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, origin },
    });
    expect([403, 415]).not.toContain(bare.status);
    const withText = await app.request('/api/galgame/1/rating', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(withText.status).toBe(415);
  });

  it('accepts only the configured origin when it is a public address', async () => {
    const site = await createTestApp({ PUBLIC_ORIGIN: 'https://hikari.example' });
    try {
      const post = (origin: string) =>
        site.request('/api/user/logout', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': freshIp() },
          body: '{}',
        });
      expect((await post('https://hikari.example')).status).toBe(200);
      for (const other of ['http://hikari.example', 'https://hikari.example:8443', 'http://localhost:4321']) {
        expect((await post(other)).status, other).toBe(403);
      }
    } finally {
      await site.close();
    }
  });

  it('leaves reads alone', async () => {
    const res = await app.request('/api/health', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
  });
});
