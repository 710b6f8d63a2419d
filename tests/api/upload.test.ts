import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadAddress } from '../../src/shared/media/upload.ts';
import { LocalStorage } from '../../src/server/platform/storage/storage.local.ts';
import { CREATOR_UPLOAD_LIMITS, UPLOAD_LIMITS } from '../../src/server/modules/media/upload.service.ts';
import { call, data, registerUser } from '../support/accounts.ts';
import { startSignedPutServer, type SignedPutServer } from '../support/signed-put.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('POST /api/upload: upload addresses', () => {
  let app: TestApp;
  let token: string;
  let userId: number;
  let otherUserId: number;
  let storage: LocalStorage;

  beforeAll(async () => {
    app = await createTestApp();
    const member = await registerUser(app, 'Uploader');
    token = member.session.hikariAccessToken;
    userId = member.session.user.userId;
    otherUserId = (await registerUser(app, 'Penpal')).session.user.userId;
    if (!(app.ctx.storage instanceof LocalStorage)) throw new Error('the tests run on the local driver');
    storage = app.ctx.storage;
  });
  afterAll(async () => app.close());

  const upload = (body: unknown, as = token) => call<UploadAddress>(app, 'POST', '/upload', as, body);

  it('gives a member a signed address for one content type, size cap and a few minutes', async () => {
    const { res, body } = await upload({ type: 'comment', id: 12, format: 'webp' });
    expect(res.status).toBe(200);
    const address = data(body);
    const url = new URL(address.url);
    expect(url.pathname).toMatch(/^\/media-upload\/comment\/12\/[A-Za-z0-9_-]+\.webp$/);
    // The public address is the image bed + type/id/ + the last path segment of the upload address.
    const fileName = url.pathname.split('/').pop();
    expect(address.publicUrl).toBe(`${app.ctx.config.imageBedUrl}/comment/12/${fileName}`);
    expect(address.key).toBe(`comment/12/${fileName}`);
    const grant = storage.verifyUpload(`${url.pathname}${url.search}`);
    expect(grant).toMatchObject({ key: address.key, contentType: 'image/webp', maxBytes: 4 * 1024 * 1024 });
    const lifetime = new Date(address.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);

    // Two requests never share a name: nobody can overwrite another upload.
    const again = data((await upload({ type: 'comment', id: 12, format: 'webp' })).body);
    expect(again.key).not.toBe(address.key);
  });

  it('makes an address for exactly `size` bytes when asked, and refuses sizes past the cap', async () => {
    const sized = data((await upload({ type: 'comment', id: 12, format: 'webp', size: 1234 })).body);
    const url = new URL(sized.url);
    expect(storage.verifyUpload(`${url.pathname}${url.search}`)).toMatchObject({ maxBytes: 1234 });
    const tooBig = await upload({ type: 'comment', id: 12, format: 'webp', size: 4 * 1024 * 1024 + 1 });
    expect([tooBig.res.status, tooBig.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    for (const size of [0, -1, 1.5, '12', null]) {
      const bad = await upload({ type: 'comment', id: 12, format: 'webp', size });
      expect([bad.res.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it('takes chat images for an existing user, and jpg as jpeg', async () => {
    const address = data((await upload({ type: `private_message/${otherUserId}`, id: 'c1', format: 'jpg' })).body);
    expect(address.key).toMatch(new RegExp(`^private_message/${otherUserId}/c1/[A-Za-z0-9_-]+\\.jpeg$`));
    const missing = await upload({ type: 'private_message/999999', id: 'c1', format: 'png' });
    expect(missing.res.status).toBe(404);
  });

  it('refuses visitors, unknown types, unsafe ids and formats that can carry script', async () => {
    const visitor = await call(app, 'POST', '/upload', undefined, { type: 'comment', id: 1, format: 'png' });
    expect(visitor.res.status).toBe(401);
    const bad: unknown[] = [
      { type: 'html', id: 1, format: 'png' },
      { type: 'comment/../avatar', id: 1, format: 'png' },
      { type: 'private_message/0', id: 1, format: 'png' },
      { type: 'comment', id: '../../etc', format: 'png' },
      { type: 'comment', id: '', format: 'png' },
      { type: 'comment', id: 'a'.repeat(65), format: 'png' },
      { type: 'comment', id: 'x\u0000', format: 'png' },
      { type: 'comment', id: -1, format: 'png' },
      { type: 'comment', id: 1.5, format: 'png' },
      { type: 'comment', id: 1, format: 'svg' },
      { type: 'comment', id: 1, format: 'html' },
      { type: 'comment', id: 1 },
      { type: 5, id: 1, format: 'png' },
      [],
      null,
    ];
    for (const body of bad) {
      const { res, body: answer } = await upload(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(answer.code).toBe('VALIDATION_FAILED');
    }
  });

  it('keeps avatars to their owner and creators’ kinds to the creator group; proposals’ images to any member', async () => {
    expect((await upload({ type: 'avatar', id: userId, format: 'webp' })).res.status).toBe(200);
    const foreign = await upload({ type: 'avatar', id: otherUserId, format: 'webp' });
    expect(foreign.res.status).toBe(403);
    expect(foreign.body.code).toBe('FORBIDDEN');
    const emoji = await upload({ type: 'emoji', id: 1, format: 'webp' });
    expect(emoji.res.status).toBe(403);
    expect((await upload({ type: 'galgame_cover', id: 1, format: 'webp' })).res.status).toBe(403);
    // A member proposing a catalogue edit uploads its images as part of the request.
    expect((await upload({ type: 'update_request', id: 1, format: 'webp' })).res.status).toBe(200);
    expect((await upload({ type: 'update_request', id: 'new', format: 'webp' })).res.status).toBe(200);
    await app.ctx.db.updateTable('users').set({ user_group: 'creator' }).where('user_id', '=', userId).execute();
    // A creator uploads emoji only into a set they manage.
    expect((await upload({ type: 'emoji', id: 1, format: 'webp' })).res.status).toBe(404);
    const set = await call<{ id: number }>(app, 'POST', '/emoji/emoji-set', token, { name: 'uploads_own' });
    expect((await upload({ type: 'emoji', id: data(set.body).id, format: 'webp' })).res.status).toBe(200);
    expect((await upload({ type: 'emoji', id: 'abc', format: 'webp' })).res.status).toBe(404);
    await app.ctx.db.updateTable('users').set({ user_group: 'user' }).where('user_id', '=', userId).execute();
  });

  it('allows 10 addresses a minute per member, also under concurrent requests', async () => {
    const { session } = await registerUser(app, 'Burst');
    const results = await Promise.all(
      Array.from({ length: 14 }, () => upload({ type: 'post', id: 1, format: 'png' }, session.hikariAccessToken)),
    );
    const statuses = results.map((r) => r.res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(UPLOAD_LIMITS.perMinute.limit);
    const limited = results.filter((r) => r.res.status === 429);
    expect(limited).toHaveLength(4);
    expect(limited[0]!.res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited[0]!.body.code).toBe('RATE_LIMITED');
  });

  it('gives creators a larger allowance for emoji and covers, apart from their member uploads', async () => {
    const creator = await registerUser(app, 'EmojiMaker');
    await app.ctx.db
      .updateTable('users')
      .set({ user_group: 'creator' })
      .where('user_id', '=', creator.session.user.userId)
      .execute();
    const as = creator.session.hikariAccessToken;
    const set = await call<{ id: number }>(app, 'POST', '/emoji/emoji-set', as, { name: 'allowance' });
    const limit = CREATOR_UPLOAD_LIMITS.perMinute.limit;
    const results = await Promise.all(
      Array.from({ length: limit + 2 }, () => upload({ type: 'emoji', id: data(set.body).id, format: 'webp' }, as)),
    );
    const statuses = results.map((r) => r.res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    // Member kinds still have their own ten.
    expect((await upload({ type: 'comment', id: 1, format: 'webp' }, as)).res.status).toBe(200);
  });
});

/** A PNG whose header claims `width`×`height` (the pixels after it are one row): a decompression bomb's shape. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#39c5bb' } })
      .png()
      .toBuffer(),
  );
  // IHDR: length (4) 'IHDR' (4) width (4) height (4) …; its CRC covers type and data (17 bytes).
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('what an upload stores', () => {
  let app: TestApp;
  let token: string;
  let server: SignedPutServer;
  let base: string;
  let storage: LocalStorage;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await registerUser(app, 'Painter')).session.hikariAccessToken;
    server = await startSignedPutServer(app);
    ({ storage, base } = server);
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  /** Asks for an address and PUTs `bytes` there with `contentType`. */
  async function send(format: string, bytes: Uint8Array, contentType: string, as = token) {
    const address = data((await call<UploadAddress>(app, 'POST', '/upload', as, { type: 'post', id: 7, format })).body);
    const url = new URL(address.url);
    const res = await fetch(`${base}${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      body: new Uint8Array(bytes),
    });
    return { address, res, body: (await res.json()) as { success: boolean; code: string; message: string } };
  }

  it('keeps a real image, without its EXIF and GPS data', async () => {
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#39c5bb' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'HikariCam', Artist: 'secret name' }, IFD3: { GPSLatitudeRef: 'N' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const { address, res } = await send('jpeg', photo, 'image/jpeg');
    expect(res.status).toBe(200);
    const stored = await storage.get(address.key);
    expect(stored).not.toBeNull();
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes('secret name')).toBe(false);
  });

  it('refuses pages and vector images named as pictures, and images of another format; nothing is kept', async () => {
    const html = new TextEncoder().encode('<!doctype html><script>alert(document.cookie)</script>');
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#fff' } })
      .png()
      .toBuffer();
    // A GIF header followed by a page: what a polyglot looks like.
    const polyglot = new TextEncoder().encode('GIF89a/*<html><script>alert(1)</script>*/');
    const cases: [string, Uint8Array, string][] = [
      ['png', html, 'image/png'],
      ['png', svg, 'image/png'],
      ['webp', png, 'image/webp'],
      ['gif', polyglot, 'image/gif'],
    ];
    for (const [format, bytes, type] of cases) {
      const { address, res, body } = await send(format, bytes, type);
      expect(res.status, `${format} ${type}`).toBe(415);
      expect(body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(await storage.head(address.key)).toBeNull();
    }
  });

  it('stores one image per address: a refused file leaves it usable, a kept image is never replaced', async () => {
    const image = (background: string) =>
      sharp({ create: { width: 16, height: 16, channels: 3, background } })
        .png()
        .toBuffer();
    const address = data(
      (await call<UploadAddress>(app, 'POST', '/upload', token, { type: 'post', id: 7, format: 'png' })).body,
    );
    const url = new URL(address.url);
    const put = async (bytes: Uint8Array, locale = 'zh-CN') => {
      const res = await fetch(`${base}${url.pathname}${url.search}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'image/png', Cookie: `hikari_locale=${locale}` },
        body: new Uint8Array(bytes),
      });
      return { status: res.status, body: (await res.json()) as { code: string; message: string } };
    };
    // A page named .png is refused by the image check and stores nothing: the member may try again.
    expect((await put(new TextEncoder().encode('<html><script>alert(1)</script>'))).status).toBe(415);
    expect(await storage.head(address.key)).toBeNull();
    expect((await put(await image('#39c5bb'))).status).toBe(200);
    const read = async () => Buffer.concat(await Array.fromAsync((await storage.get(address.key))!.body));
    const kept = await read();

    // What moderators saw stays: the address is spent, in either language, and the file is untouched.
    const english = await put(await image('#ff0000'), 'en');
    expect([english.status, english.body.code]).toEqual([409, 'UPLOAD_URL_USED']);
    expect(english.body.message).toMatch(/^This upload address has already been used/);
    const chinese = await put(await image('#ff0000'));
    expect([chinese.status, chinese.body.message]).toEqual([409, expect.stringMatching(/^这个上传地址已经用过了/)]);
    expect((await read()).equals(kept)).toBe(true);
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const bomb = await pngClaiming(30_000, 30_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(30_000);
    const { address, res, body } = await send('png', bomb, 'image/png');
    expect(res.status).toBe(413);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.message).toContain('40');
    expect(await storage.head(address.key)).toBeNull();
  });

  it('checks many uploads at once a few at a time: each is kept whole or refused, never half', async () => {
    const burst = (await registerUser(app, 'Burster')).session.hikariAccessToken;
    const image = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#39c5bb' } })
      .png()
      .toBuffer();
    const results = await Promise.all(Array.from({ length: 10 }, () => send('png', image, 'image/png', burst)));

    const statuses = results.map((r) => r.res.status);
    expect(
      statuses.every((s) => s === 200 || s === 503),
      statuses.join(),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(8);
    for (const { address, res, body } of results) {
      if (res.status === 503) expect(body.code).toBe('IMAGE_QUEUE_FULL');
      expect(Boolean(await storage.head(address.key))).toBe(res.status === 200);
    }
  });
});
