import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieValue, pagePathOf, scanLocaleVariants } from './locale-variants.ts';
import { startStaticSite, type StaticSite } from '../../../tests/support/static-site.ts';

describe('locale variant lookup', () => {
  it('names the page of a request path', () => {
    expect(pagePathOf('/docs/guide/')).toBe('/docs/guide');
    expect(pagePathOf('/docs/guide/index.html')).toBe('/docs/guide');
    expect(pagePathOf('/friend-links.html')).toBe('/friend-links');
    expect(pagePathOf('/index.html')).toBe('/');
    expect(pagePathOf('/')).toBe('/');
  });

  it('reads one cookie from a Cookie header', () => {
    expect(cookieValue('a=1; hikari_locale=en; b=2', 'hikari_locale')).toBe('en');
    expect(cookieValue('xhikari_locale=en', 'hikari_locale')).toBeNull();
    expect(cookieValue('hikari_locale=%E0%A4%A', 'hikari_locale')).toBeNull();
    expect(cookieValue(undefined, 'hikari_locale')).toBeNull();
  });
});

describe('prerendered pages per locale', () => {
  let site: StaticSite;
  const get = (urlPath: string, headers?: Record<string, string>) => site.get(urlPath, headers);

  beforeAll(async () => {
    site = await startStaticSite({
      'docs/index.html': '<html lang="zh-CN">文档</html>',
      'docs/guide/start/index.html': '<html lang="zh-CN">新手指南</html>',
      'privacy-policy/index.html': '<html lang="zh-CN">隐私政策</html>',
      'only-chinese/index.html': '<html lang="zh-CN">只有中文</html>',
      '_en/docs/index.html': '<html lang="en">Docs</html>',
      '_en/docs/guide/start/index.html': '<html lang="en">Getting started</html>',
      '_en/privacy-policy/index.html': '<html lang="en">Privacy policy</html>',
      '_en/privacy-policy/index.html.gz': gzipSync('<html lang="en">Privacy policy</html>'),
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
  });

  afterAll(async () => site.close());

  const english = { cookie: 'hikari_locale=en' };

  it.each(['/docs', '/docs/', '/docs/guide/start', '/docs/guide/start/index.html', '/privacy-policy?ref=footer'])(
    'answers %s in English at the same address when the cookie asks for it',
    async (urlPath) => {
      const res = await get(urlPath, english);
      expect(res.status).toBe(200);
      expect(res.body).toContain('lang="en"');
      expect(res.headers.vary).toMatch(/\bCookie\b/);
    },
  );

  it('answers in Chinese without the cookie, or with another language in it, and says it varies', async () => {
    for (const headers of [{}, { cookie: 'hikari_locale=zh-CN' }, { cookie: 'hikari_locale=fr' }] as Record<
      string,
      string
    >[]) {
      const res = await get('/docs/guide/start', headers);
      expect(res.body).toContain('新手指南');
      expect(res.headers.vary).toMatch(/\bCookie\b/);
    }
  });

  it('keeps the encoding negotiation beside the cookie', async () => {
    const res = await get('/privacy-policy', { ...english, 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(String(res.headers.vary).split(/,\s*/).sort()).toEqual(['Accept-Encoding', 'Cookie']);
  });

  it('keeps the variant in a conditional request', async () => {
    const first = await get('/docs', english);
    const again = await get('/docs', { ...english, 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers.vary).toMatch(/\bCookie\b/);
    const chinese = await get('/docs', { 'if-none-match': String(first.headers.etag) });
    expect(chinese.status).toBe(200);
    expect(chinese.body).toContain('文档');
  });

  it('falls back to the default page when no variant was built', async () => {
    const res = await get('/only-chinese', english);
    expect(res.body).toContain('只有中文');
    expect(String(res.headers.vary ?? '')).not.toMatch(/Cookie/);
  });

  it('does not serve the hidden folders at their own address', async () => {
    for (const urlPath of ['/_en/docs', '/_en/privacy-policy/index.html', '/_en']) {
      const res = await get(urlPath, english);
      expect(res.status, urlPath).toBe(404);
    }
  });

  it('leaves other files alone', async () => {
    const res = await get('/favicon.svg', english);
    expect(res.status).toBe(200);
    expect(String(res.headers.vary ?? '')).not.toMatch(/Cookie/);
  });

  it('finds no variants in a client directory without locale folders', () => {
    const empty = scanLocaleVariants(path.join(tmpdir(), 'hikari-no-such-build'));
    expect(empty.resolve('/docs', 'hikari_locale=en')).toEqual({ kind: 'other' });
    expect(empty.resolve('/_en/docs', 'hikari_locale=en')).toEqual({ kind: 'hidden' });
  });
});
