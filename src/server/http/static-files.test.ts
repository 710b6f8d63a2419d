import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, createStaticHandler, setStaticPageHeaders } from './static-files.ts';

describe('static file caching', () => {
  it('caches hashed assets forever, build files never, pages with revalidation', () => {
    expect(cacheControlFor('/_astro/index.C0ffee.js')).toContain('immutable');
    expect(cacheControlFor('/builds/latest.json')).toBe('no-cache');
    expect(cacheControlFor('/docs/index.html')).toContain('must-revalidate');
    expect(cacheControlFor('/docs/guide')).toContain('must-revalidate');
    expect(cacheControlFor('/favicon.svg')).toBe('public, max-age=3600');
  });
});

describe('prerendered pages', () => {
  let dir: string;
  let server: Server;
  let port: number;
  const pageHeaders = {
    'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'hikari-static-'));
    const page = (file: string, body = `<!doctype html><title>${file}</title>`) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), body);
    };
    page('privacy-policy/index.html');
    page('friend-links.html');
    page('docs/guide/start/index.html');
    page('docs/v1.2/index.html');
    page('terms-of-service/index.html');
    writeFileSync(path.join(dir, 'terms-of-service/index.html.gz'), gzipSync('<!doctype html><title>t</title>'));
    page('_astro/app.abc123.js', 'console.log(1)');
    page('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
    setStaticPageHeaders(pageHeaders);
    const serve = createStaticHandler(dir);
    server = createServer((req, res) =>
      serve(req, res, () => {
        res.statusCode = 404;
        res.end('not here');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  function get(urlPath: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>(
      (resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
      },
    );
  }

  it.each([
    '/privacy-policy',
    '/privacy-policy/',
    '/privacy-policy/index.html',
    '/friend-links',
    '/friend-links.html',
    '/docs/guide/start',
    '/docs/guide/start/',
    '/docs/guide/start/index.html',
    '/docs/v1.2',
    '/terms-of-service',
  ])('sends the page security headers with %s', async (urlPath) => {
    const res = await get(urlPath);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(pageHeaders['Content-Security-Policy']);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends them with a pre-compressed page too', async () => {
    const res = await get('/terms-of-service/', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-security-policy']).toBe(pageHeaders['Content-Security-Policy']);
  });

  it('leaves other files without the page headers', async () => {
    for (const urlPath of ['/_astro/app.abc123.js', '/favicon.svg']) {
      const res = await get(urlPath);
      expect(res.status, urlPath).toBe(200);
      expect(res.headers['content-security-policy'], urlPath).toBeUndefined();
      expect(res.headers['x-frame-options'], urlPath).toBeUndefined();
      expect(res.headers['x-content-type-options'], urlPath).toBe('nosniff');
    }
  });
});
