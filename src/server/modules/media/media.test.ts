import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { createMediaApp } from './media.app.ts';
import { HttpError } from '../../platform/errors.ts';
import { resolveImageSource } from './image-source.ts';
import { transformImage } from './image.service.ts';

describe('images: transformation and download', () => {
  let app: TestApp;
  let media: ReturnType<typeof createMediaApp>;

  beforeAll(async () => {
    app = await createTestApp({ IMAGE_ALLOWED_HOSTS: 'lain.bgm.tv' });
    media = createMediaApp(app.ctx);
    const dir = app.ctx.config.storage.driver === 'local' ? app.ctx.config.storage.dir : '';
    mkdirSync(path.join(dir, 'covers'), { recursive: true });
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#39c5bb' } })
      .png()
      .toBuffer();
    writeFileSync(path.join(dir, 'covers/cover.png'), png);
  });
  afterAll(async () => app.close());

  it('resizes our own media to the requested size and format', async () => {
    const res = await media.request('/img?url=%2Fmedia%2Fcovers%2Fcover.png&w=300&f=webp&q=80');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(300);
    expect(meta.height).toBe(225);
    const etag = res.headers.get('etag');
    const again = await media.request('/img?url=%2Fmedia%2Fcovers%2Fcover.png&w=300&f=webp&q=80', {
      headers: { 'if-none-match': etag ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('covers a box with fit and never enlarges', async () => {
    const box = await media.request('/img?url=%2Fmedia%2Fcovers%2Fcover.png&w=150&h=150&fit=cover&f=avif');
    const meta = await sharp(Buffer.from(await box.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([150, 150]);
    const big = await media.request('/img?url=%2Fmedia%2Fcovers%2Fcover.png&w=4000&f=png');
    expect((await sharp(Buffer.from(await big.arrayBuffer())).metadata()).width).toBe(800);
  });

  it('accepts our image-bed URL for the same files', async () => {
    const url = encodeURIComponent(`${app.ctx.config.imageBedUrl}/covers/cover.png`);
    expect((await media.request(`/img?url=${url}&w=100`)).status).toBe(200);
  });

  it.each([
    ['another host', 'https://evil.example/x.png', 403],
    ['a private address', 'http://127.0.0.1:22/x.png', 403],
    ['credentials in the URL', 'https://user:pw@lain.bgm.tv/x.png', 403],
    ['a file scheme', 'file:///etc/passwd', 403],
    ['path traversal', '/media/../../etc/passwd', 404],
    ['encoded traversal', '/media/%2e%2e/%2e%2e/secrets.json', 404],
    ['a broken escape', '/media/%E0.png', 400],
    ['an allowed host on another port', 'https://lain.bgm.tv:8443/x.png', 403],
    ['a missing file', '/media/covers/none.png', 404],
  ])('refuses %s', async (_name, url, status) => {
    const res = await media.request(`/img?url=${encodeURIComponent(url)}&w=100`);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ success: false });
  });

  it('rounds sizes up to a fixed set of steps, so variants stay few', async () => {
    const a = await media.request('/img?url=%2Fmedia%2Fcovers%2Fcover.png&w=291&f=webp');
    const b = await media.request('/img?url=%2Fmedia%2F.%2Fcovers%2Fcover.png&w=300&f=webp');
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    expect((await sharp(Buffer.from(await a.arrayBuffer())).metadata()).width).toBe(300);
  });

  it('refuses out-of-range parameters with 400', async () => {
    for (const q of ['w=0', 'w=5000', 'q=101', 'f=gif', 'fit=stretch', 'blur=0.1', 'g=up']) {
      const res = await media.request(`/img?url=%2Fmedia%2Fcovers%2Fcover.png&${q}`);
      expect(res.status, q).toBe(400);
    }
    expect((await media.request('/img')).status).toBe(400);
  });

  it('fetches allowed remote hosts through the given fetcher, with limits', async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const calls: string[] = [];
    const fetcher = (async (input: URL | RequestInfo) => {
      calls.push(String(input));
      return new Response(png, { headers: { 'content-type': 'image/png' } });
    }) as typeof fetch;
    const image = await transformImage(
      app.ctx.config,
      { url: 'https://lain.bgm.tv/pic/cover/l/ab/cd/1.png', w: 20, f: 'webp' },
      { fetcher },
    );
    expect(calls).toEqual(['https://lain.bgm.tv/pic/cover/l/ab/cd/1.png']);
    expect((await sharp(image.body).metadata()).width).toBe(20);

    const html = (async () => new Response('<html>', { headers: { 'content-type': 'text/html' } })) as typeof fetch;
    await expect(
      transformImage(app.ctx.config, { url: 'https://lain.bgm.tv/x.png', w: 21 }, { fetcher: html }),
    ).rejects.toBeInstanceOf(HttpError);
  });

  it('resolves sources only from our media and allowed hosts', () => {
    const config = app.ctx.config;
    expect(resolveImageSource('https://LAIN.bgm.tv/a.jpg', config).kind).toBe('remote');
    expect(() => resolveImageSource('https://lain.bgm.tv.evil.example/a.jpg', config)).toThrow(HttpError);
    expect(resolveImageSource('/media/covers/cover.png', config).kind).toBe('local');
  });

  it('downloads an image as an attachment, and refuses other hosts', async () => {
    const res = await app.request('/api/image/download?url=%2Fmedia%2Fcovers%2Fcover.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''cover.png");
    const other = await app.request(`/api/image/download?url=${encodeURIComponent('https://evil.example/a.png')}`);
    expect(other.status).toBe(403);
  });
});
