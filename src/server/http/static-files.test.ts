import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticSite, type StaticSite } from '../../../tests/support/static-site.ts';
import { cacheControlFor, setStaticPageHeaders } from './static-files.ts';

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
  let site: StaticSite;
  const get = (urlPath: string, headers?: Record<string, string>) => site.get(urlPath, headers);
  const pageHeaders = {
    'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
  const page = (file: string) => `<!doctype html><title>${file}</title>`;

  beforeAll(async () => {
    setStaticPageHeaders(pageHeaders);
    site = await startStaticSite({
      'privacy-policy/index.html': page('privacy-policy/index.html'),
      'friend-links.html': page('friend-links.html'),
      'docs/guide/start/index.html': page('docs/guide/start/index.html'),
      'docs/v1.2/index.html': page('docs/v1.2/index.html'),
      'terms-of-service/index.html': page('terms-of-service/index.html'),
      'terms-of-service/index.html.gz': gzipSync('<!doctype html><title>t</title>'),
      '_astro/app.abc123.js': 'console.log(1)',
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
  });

  afterAll(async () => site.close());

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
