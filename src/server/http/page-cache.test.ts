import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type App } from '../app-context.ts';
import { createAvailability } from '../db/availability.ts';
import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';
import { createHttpServer, type AstroHandler, type HttpServer } from './server.ts';
import { finishPage, markPersonal, pageTags, pagesChanged, sharedMemberRender } from './page-cache-policy.ts';
import { hasLogin, type PageCacheOptions } from './page-cache.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on its own connection. */
function get(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Stands in for the Astro build (not built by this suite) the way Astro runs a page: the page decides
 * whether it is cacheable and what it shows, and the middleware's last step (`finishPage`) runs.
 * Pages: /game/{id} (cacheable, tagged galgame:{id}, greets a logged-in viewer by the name in their
 * user-info cookie), /cookie (cacheable but sets a cookie), /private (not declared), /slow/{n},
 * /shared/{id} (the same for every member: a member's copy says only 'member') and /leaky/{id}
 * (declares itself the same for members, then greets the member by name, as a page must not).
 */
function fakeAstro(renders: string[], clock: { delayMs: number }): AstroHandler {
  return async (req, res, _next, locals) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    renders.push(url.pathname + url.search);
    const request = new Request(url, { headers: req.headers as Record<string, string> });
    const pageLocals: Pick<App.Locals, 'pageCapture' | 'pageCachePolicy' | 'personal'> = {
      pageCapture: locals.pageCapture,
    };
    const cookie = req.headers.cookie ?? '';
    const viewer = /hikari-user-info=([^;]+)/.exec(cookie)?.[1];
    const lang = /hikari_locale=en/.test(cookie) ? 'en' : 'zh-CN';
    let response: Response;
    const game = /^\/(?:game|slow)\/(\d+)$/.exec(url.pathname);
    if (url.pathname.startsWith('/slow/')) await new Promise((r) => setTimeout(r, clock.delayMs));
    if (game) {
      pageLocals.pageCachePolicy = { tags: [pageTags.galgame(Number(game[1]))] };
      response = new Response(
        `<p>${lang} game ${game[1]} render ${renders.length}${viewer ? ` hello ${viewer}` : ''}</p>${url.searchParams.has('big') ? '<!-- filler -->'.repeat(200) : ''}`,
        {
          headers: { 'Content-Type': 'text/html; charset=utf-8' },
        },
      );
    } else if (/^\/(shared|leaky)\/\d+$/.test(url.pathname)) {
      const [, kind, id] = url.pathname.split('/');
      pageLocals.pageCachePolicy = { tags: [pageTags.post(Number(id))], members: true };
      let who = viewer ? 'member' : 'visitor';
      if (kind === 'shared' && viewer) expect(sharedMemberRender(pageLocals)).toBe(true);
      if (kind === 'leaky' && viewer) {
        markPersonal(pageLocals);
        who = `hello ${viewer}`;
      }
      response = new Response(`<p>${kind} ${id} render ${renders.length} for ${who}</p>`, {
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      });
    } else if (url.pathname === '/cookie') {
      pageLocals.pageCachePolicy = { tags: [] };
      response = new Response('<p>cookie</p>', {
        headers: { 'Content-Type': 'text/html', 'Set-Cookie': 'seen=1; Path=/' },
      });
    } else {
      response = new Response(`<p>private render ${renders.length}</p>`, { headers: { 'Content-Type': 'text/html' } });
    }
    const answer = await finishPage(request, response, pageLocals);
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) Readable.fromWeb(answer.body as never).pipe(res);
    else res.end();
  };
}

describe('the page cache', () => {
  let app: TestApp;
  let http: HttpServer | undefined;
  let port = 0;
  let clientDir: string;
  let renders: string[] = [];
  const clock = { now: 1_000_000, delayMs: 100 };

  const start = async (ctx = app.ctx, pageCache: Partial<PageCacheOptions> = {}) => {
    const server = createHttpServer(ctx, {
      clientDir,
      astro: fakeAstro(renders, clock),
      pageCache: { maxBytes: 1024 * 1024, now: () => clock.now, ...pageCache },
    });
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.server.address() as AddressInfo).port };
  };

  beforeAll(async () => {
    app = await createTestApp();
    clientDir = mkdtempSync(path.join(tmpdir(), 'hikari-client-'));
  });
  afterEach(async () => {
    await http?.shutdown(100);
    http = undefined;
  });
  afterAll(async () => {
    await app.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const fresh = async (options: Partial<PageCacheOptions> = {}) => {
    renders = [];
    clock.now = 1_000_000;
    const started = await start(app.ctx, options);
    http = started.server;
    port = started.port;
    // The fake page handler closes over `renders`; a new server gets the new array.
    return started;
  };

  it('answers a visitor from the cache after the first render, with validators for browsers and CDNs', async () => {
    await fresh();
    const first = await get(port, '/game/1');
    const second = await get(port, '/game/1');
    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toBe(first.body);
    expect(renders).toEqual(['/game/1']);
    expect(second.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=540');
    expect(second.headers['vary']).toBe('Cookie, Accept-Encoding');
    expect(second.headers['etag']).toBe(first.headers['etag']);
    expect(second.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers 304 when the browser has the page, from the cache and from a fresh render', async () => {
    await fresh();
    const first = await get(port, '/game/1');
    const etag = String(first.headers['etag']);
    const cached = await get(port, '/game/1', { 'If-None-Match': etag });
    expect(cached.status).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers['etag']).toBe(etag);
    await pagesChanged(app.ctx, [pageTags.galgame(1)]);
    await new Promise((r) => setTimeout(r, 20));
    // Re-rendered (the render number changed): a new ETag, so the old one no longer matches.
    const rendered = await get(port, '/game/1', { 'If-None-Match': etag });
    expect(rendered.status).toBe(200);
    const again = await get(port, '/game/1', { 'If-None-Match': String(rendered.headers['etag']) });
    expect(again.status).toBe(304);
    expect(await get(port, '/game/1', { 'If-None-Match': 'W/"other"' })).toMatchObject({ status: 200 });
  });

  it('always renders fresh for a member, and never keeps or shares what a member saw', async () => {
    await fresh();
    const member = { Cookie: 'hikari-refresh-token=abc; hikari-user-info=alice' };
    const a = await get(port, '/game/1', member);
    const b = await get(port, '/game/1', { Cookie: 'hikari-access-token=t; hikari-user-info=bob' });
    expect(a.body).toContain('hello alice');
    expect(b.body).toContain('hello bob');
    expect(a.headers['cache-control']).toBe('private, no-cache');
    expect(a.headers['x-cache']).toBeUndefined();
    expect(a.headers['etag']).toBeUndefined();
    const visitor = await get(port, '/game/1');
    expect(visitor.headers['x-cache']).toBe('MISS');
    expect(visitor.body).not.toContain('hello');
    // A cached visitor page does not reach a member either.
    const memberAgain = await get(port, '/game/1', member);
    expect(memberAgain.body).toContain('hello alice');
    expect(renders).toHaveLength(4);
  });

  it('shares one copy among members of a page declared the same for them, apart from visitors', async () => {
    await fresh();
    const alice = { Cookie: 'hikari-refresh-token=abc; hikari-user-info=alice' };
    const bob = { Cookie: 'hikari-access-token=t; hikari-user-info=bob' };
    const a = await get(port, '/shared/5', alice);
    const b = await get(port, '/shared/5', bob);
    expect(a.body).toBe('<p>shared 5 render 1 for member</p>');
    expect(b.body).toBe(a.body);
    expect([a.headers['x-cache'], b.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    // Members' copies stay out of shared caches; they still get validators.
    expect(b.headers['cache-control']).toBe('private, no-cache');
    expect(b.headers['etag']).toBe(a.headers['etag']);
    expect((await get(port, '/shared/5', { ...bob, 'If-None-Match': String(a.headers['etag']) })).status).toBe(304);
    const visitor = await get(port, '/shared/5');
    expect(visitor.body).toBe('<p>shared 5 render 2 for visitor</p>');
    expect(visitor.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=540');
    expect((await get(port, '/shared/5')).headers['x-cache']).toBe('HIT');
    // A change drops both copies.
    await pagesChanged(app.ctx, [pageTags.post(5)]);
    await new Promise((r) => setTimeout(r, 20));
    expect((await get(port, '/shared/5', bob)).body).toBe('<p>shared 5 render 3 for member</p>');
    expect(renders).toEqual(['/shared/5', '/shared/5', '/shared/5']);
  });

  it('tells a login by its token cookies as the pages read them (a part without "=" is no cookie)', () => {
    expect(hasLogin('hikari-access-token=t')).toBe(true);
    expect(hasLogin('a=1; hikari-refresh-token=r')).toBe(true);
    expect(hasLogin('hikari-refresh-tokenX')).toBe(false);
    expect(hasLogin('hikari-access-token')).toBe(false);
    expect(hasLogin('x-hikari-access-token=t; hikari-user-info=alice')).toBe(false);
    expect(hasLogin(undefined)).toBe(false);
  });

  it('never shares a page that read the member it was rendered for, whatever it declared', async () => {
    await fresh();
    const alice = await get(port, '/leaky/5', { Cookie: 'hikari-refresh-token=abc; hikari-user-info=alice' });
    const bob = await get(port, '/leaky/5', { Cookie: 'hikari-access-token=t; hikari-user-info=bob' });
    expect(alice.body).toContain('hello alice');
    expect(bob.body).toContain('hello bob');
    expect(bob.headers['x-cache']).toBeUndefined();
    expect(bob.headers['cache-control']).toBe('private, no-cache');
    expect(renders).toHaveLength(2);
    expect(http?.pageCache.stats().entries).toBe(0);
  });

  it('keeps one page per language and per query', async () => {
    await fresh();
    const zh = await get(port, '/game/1');
    const en = await get(port, '/game/1', { Cookie: 'hikari_locale=en' });
    expect(zh.body).toContain('zh-CN game 1');
    expect(en.body).toContain('en game 1');
    expect((await get(port, '/game/1', { Cookie: 'hikari_locale=en' })).headers['x-cache']).toBe('HIT');
    expect((await get(port, '/game/1?page=2')).headers['x-cache']).toBe('MISS');
    expect(renders).toEqual(['/game/1', '/game/1', '/game/1?page=2']);
  });

  it('never keeps a page that sets a cookie, a page that did not ask, or an error', async () => {
    await fresh();
    for (let i = 0; i < 2; i++) {
      const cookie = await get(port, '/cookie');
      expect(cookie.headers['set-cookie']).toEqual(['seen=1; Path=/']);
      expect(cookie.headers['x-cache']).toBeUndefined();
      expect(cookie.headers['cache-control']).toBe('private, no-cache');
      expect((await get(port, '/private')).headers['x-cache']).toBeUndefined();
    }
    expect(renders).toEqual(['/cookie', '/private', '/cookie', '/private']);
    expect(http?.pageCache.stats().entries).toBe(0);
  });

  it('renders a page once for visitors arriving together (single flight)', async () => {
    await fresh();
    clock.delayMs = 150;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(port, '/slow/7')));
    expect(renders).toEqual(['/slow/7']);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['x-cache'] === 'MISS')).toHaveLength(1);
  });

  it('serves a stale page while one request renders it again, then the new one', async () => {
    await fresh({ freshMs: 1000, staleMs: 5000 });
    clock.delayMs = 200;
    const first = await get(port, '/slow/3');
    clock.now += 2000;
    const [refresher, ...others] = await Promise.all([
      get(port, '/slow/3'),
      new Promise<Answer>((r) => setTimeout(() => void get(port, '/slow/3').then(r), 50)),
      new Promise<Answer>((r) => setTimeout(() => void get(port, '/slow/3').then(r), 80)),
    ]);
    expect(refresher?.headers['x-cache']).toBe('MISS');
    expect(refresher?.body).not.toBe(first.body);
    for (const other of others) {
      expect(other.headers['x-cache']).toBe('STALE');
      expect(other.body).toBe(first.body);
    }
    expect(renders).toEqual(['/slow/3', '/slow/3']);
    const after = await get(port, '/slow/3');
    expect(after).toMatchObject({ body: refresher?.body, headers: { 'x-cache': 'HIT' } });
    // Past the stale window it is a plain miss.
    clock.now += 10_000;
    expect((await get(port, '/slow/3')).headers['x-cache']).toBe('MISS');
  });

  it('drops the pages showing changed data (and only those) within a second', async () => {
    await fresh();
    await get(port, '/game/1');
    await get(port, '/game/2');
    await get(port, '/game/1', { Cookie: 'hikari_locale=en' });
    await pagesChanged(app.ctx, [pageTags.galgame(1)]);
    const deadline = Date.now() + 1000;
    while ((await get(port, '/game/1')).headers['x-cache'] === 'HIT') {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await get(port, '/game/1', { Cookie: 'hikari_locale=en' })).headers['x-cache']).toBe('MISS');
    expect((await get(port, '/game/2')).headers['x-cache']).toBe('HIT');
    await pagesChanged(app.ctx, [pageTags.all]);
    await new Promise((r) => setTimeout(r, 20));
    expect((await get(port, '/game/2')).headers['x-cache']).toBe('MISS');
  });

  it('does not keep a render that started before the data behind it changed', async () => {
    await fresh();
    clock.delayMs = 200;
    const rendering = get(port, '/slow/5');
    await new Promise((r) => setTimeout(r, 50));
    await pagesChanged(app.ctx, [pageTags.galgame(5)]);
    await rendering;
    expect((await get(port, '/slow/5')).headers['x-cache']).toBe('MISS');
    expect(renders).toEqual(['/slow/5', '/slow/5']);
  });

  it('stays within its memory, dropping the least recently used pages', async () => {
    await fresh({ maxBytes: 100 });
    await get(port, '/game/1');
    await get(port, '/game/2');
    await get(port, '/game/1');
    await get(port, '/game/3');
    const stats = http?.pageCache.stats();
    expect(stats).toMatchObject({ entries: 2 });
    expect(stats?.bytes).toBeLessThanOrEqual(100);
    expect((await get(port, '/game/1')).headers['x-cache']).toBe('HIT');
    expect((await get(port, '/game/2')).headers['x-cache']).toBe('MISS');
  });

  it('serves the pages it keeps, however old, while the database is away, and renders none', async () => {
    renders = [];
    clock.now = 1_000_000;
    const availability = createAvailability(undefined);
    ({ server: http, port } = await start({ ...app.ctx, dbAvailability: availability }));
    const kept = await get(port, '/game/1');
    availability.failed(new Error('connect ECONNREFUSED'));
    clock.now += 60 * 60_000;
    expect(await get(port, '/game/1')).toMatchObject({ status: 200, body: kept.body, headers: { 'x-cache': 'STALE' } });
    expect(renders).toEqual(['/game/1']);
    availability.reached();
    expect((await get(port, '/game/1')).headers['x-cache']).toBe('MISS');
    expect(renders).toHaveLength(2);
  });

  it('is off with PAGE_CACHE_MB=0', async () => {
    await fresh({ maxBytes: 0 });
    await get(port, '/game/1');
    const second = await get(port, '/game/1');
    expect(second.headers['x-cache']).toBeUndefined();
    expect(renders).toHaveLength(2);
  });

  it('answers HEAD from the cache and sends gzip to clients that ask for it', async () => {
    await fresh();
    const body = await get(port, '/game/1');
    const head = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/game/1', method: 'HEAD', agent: false }, (res) =>
        res.resume().on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' })),
      );
      req.on('error', reject);
      req.end();
    });
    expect(head).toMatchObject({ status: 200, headers: { 'x-cache': 'HIT' } });
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(body.body));
    // A HEAD for a page nobody has yet is rendered, never kept (it has no body).
    const headFirst = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/game/4', method: 'HEAD', agent: false }, (res) =>
        res.resume().on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' })),
      );
      req.on('error', reject);
      req.end();
    });
    expect(headFirst.headers['x-cache']).toBeUndefined();
    expect((await get(port, '/game/4')).headers['x-cache']).toBe('MISS');
    await get(port, '/game/1?big');
    // The gzip copy is made once, off the request, right after the page is kept.
    const fetchZipped = () =>
      new Promise<{ encoding: unknown; bytes: number }>((resolve, reject) => {
        const options = { host: '127.0.0.1', port, path: '/game/1?big', headers: { 'Accept-Encoding': 'gzip' } };
        const req = httpRequest({ ...options, agent: false }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes }));
        });
        req.on('error', reject);
        req.end();
      });
    let zipped = await fetchZipped();
    for (let i = 0; i < 100 && zipped.encoding === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
      zipped = await fetchZipped();
    }
    expect(zipped.encoding).toBe('gzip');
    expect(zipped.bytes).toBeLessThan(500);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('drops pages in another process when data changes there', async () => {
    await fresh();
    // A second app on the same database is another server process: its own bus connection.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-app-'));
    const other: App = await createAppContext(
      loadConfig({ DATA_DIR: dataDir, DATABASE_URL: app.database.url, LOG_LEVEL: 'silent', SEED_DEMO: 'false' }),
      { logger: createLogger('silent'), database: app.database, migrate: false, worker: false },
    );
    try {
      await get(port, '/game/9');
      expect((await get(port, '/game/9')).headers['x-cache']).toBe('HIT');
      await pagesChanged(other.ctx, [pageTags.galgame(9)]);
      const deadline = Date.now() + 1000;
      while ((await get(port, '/game/9')).headers['x-cache'] === 'HIT') {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await other.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
