import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeStorageContract } from './storage.contract.ts';
import { LocalStorage } from './storage.local.ts';

const PUBLIC_BASE = 'https://hikari.example/media';
const SECRET = 'local-upload-secret-of-enough-length-0123';

/** A real node:http server that mounts the signed PUT handler at /media-upload, as the app will. */
async function startLocal(options: { now?: () => number; onError?: (error: unknown) => void } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hikari-media-'));
  // Listening first tells the port the upload addresses must name.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const storage = new LocalStorage({
    dir,
    secret: SECRET,
    uploadBaseUrl: `${origin}/media-upload`,
    publicBaseUrl: PUBLIC_BASE,
    ...options,
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/media-upload/')) return void storage.handleSignedPut(req, res);
    res.writeHead(404).end();
  });
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, storage, origin, server, close };
}

describeStorageContract('local', async () => {
  const local = await startLocal();
  return { storage: local.storage, publicBaseUrl: PUBLIC_BASE, close: local.close };
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { success: boolean; code: string; message: string; data: unknown };
}

/** A PUT through node:http, for what fetch cannot do: send part of a body, then wait or break off. */
function rawPut(
  url: string,
  headers: Record<string, string | number>,
  send: (req: ReturnType<typeof request>) => void,
) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    send(req);
  });
}

describe('local signed PUT', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  let clock = Date.UTC(2026, 5, 1, 12);
  const errors: unknown[] = [];
  const tempFiles = () => readdirSync(path.join(local.dir, '.tmp'));
  const presign = (key: string, extra: { maxBytes?: number; expiresInSeconds?: number } = {}) =>
    local.storage.presignPut({ key, contentType: 'image/png', maxBytes: 100, expiresInSeconds: 60, ...extra });
  const put = (url: string, body: string, contentType = 'image/png') =>
    fetch(url, { method: 'PUT', body, headers: { 'Content-Type': contentType } });

  beforeAll(async () => {
    local = await startLocal({ now: () => clock, onError: (error) => errors.push(error) });
  });
  afterAll(() => local.close());
  beforeEach(() => {
    errors.length = 0;
  });

  it('stores the body under the key, private to this user, and answers its public address', async () => {
    const signed = await presign('avatar/1/me.png');
    const answer = await put(signed.url, 'png!');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      success: true,
      code: 'OK',
      message: '上传成功',
      data: { key: 'avatar/1/me.png', size: 4, contentType: 'image/png', url: `${PUBLIC_BASE}/avatar/1/me.png` },
    });
    expect(statSync(path.join(local.dir, 'avatar/1/me.png')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(local.dir, 'avatar/1')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(local.dir, 'avatar')).mode & 0o777).toBe(0o700);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses an address past its expiry', async () => {
    const signed = await presign('expiry/a.png', { expiresInSeconds: 30 });
    clock += 30_000;
    const answer = await put(signed.url, 'png');
    clock -= 30_000;
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ success: false, code: 'UPLOAD_URL_EXPIRED', data: null });
    expect(await local.storage.head('expiry/a.png')).toBeNull();
  });

  it.each([
    ['a forged signature', (url: string) => url.replace(/sig=[^&]+/, `sig=${'x'.repeat(43)}`)],
    ['another key', (url: string) => url.replace('/t.png?', '/u.png?')],
    ['another content type', (url: string) => url.replace('ct=image%2Fpng', 'ct=image%2Fgif')],
    ['a larger cap', (url: string) => url.replace('max=100', 'max=100000')],
    ['a later expiry', (url: string) => url.replace(/exp=(\d+)/, (_, exp: string) => `exp=${Number(exp) + 3600}`)],
    ['no signature', (url: string) => url.replace(/&sig=[^&]+/, '')],
  ])('refuses an address with %s', async (_, tamper) => {
    const signed = await presign('tamper/t.png');
    const url = tamper(signed.url);
    expect(url).not.toBe(signed.url);
    const contentType = url.includes('ct=image%2Fgif') ? 'image/gif' : 'image/png';
    const answer = await put(url, 'png', contentType);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ success: false, code: 'UPLOAD_SIGNATURE_INVALID' });
    // Refused before anything touched the disk.
    expect(existsSync(path.join(local.dir, 'tamper'))).toBe(false);
  });

  it('answers in the language of the hikari_locale cookie, Chinese by default', async () => {
    const english = { 'Content-Type': 'image/png', Cookie: 'hikari_locale=en' };
    const stored = await fetch((await presign('locale/a.png')).url, { method: 'PUT', body: 'png', headers: english });
    expect(await stored.json()).toMatchObject({ success: true, message: 'Uploaded' });
    const expired = await presign('locale/b.png', { expiresInSeconds: 30 });
    clock += 30_000;
    const [en, zh] = [
      await fetch(expired.url, { method: 'PUT', body: 'png', headers: english }),
      await put(expired.url, 'png'),
    ];
    clock -= 30_000;
    expect(await en.json()).toMatchObject({
      code: 'UPLOAD_URL_EXPIRED',
      message: expect.stringMatching(/^The upload/),
    });
    expect(await zh.json()).toMatchObject({
      code: 'UPLOAD_URL_EXPIRED',
      message: '上传地址已过期，请重新获取上传地址',
    });
    const wrongType = await fetch((await presign('locale/c.png')).url, {
      method: 'PUT',
      body: 'gif',
      headers: { ...english, 'Content-Type': 'image/gif' },
    });
    expect(await wrongType.json()).toMatchObject({
      message: 'The file type should be image/png; please upload it again',
    });
  });

  it('refuses a content type other than the signed one', async () => {
    const signed = await presign('type/a.png');
    const answer = await put(signed.url, '<svg onload=alert(1)>', 'image/svg+xml');
    expect(answer.status).toBe(415);
    expect(await answer.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringContaining('image/png'),
    });
    const none = await fetch(signed.url, { method: 'PUT', body: new Uint8Array([1, 2]) });
    expect(none.status).toBe(415);
    expect(await local.storage.head('type/a.png')).toBeNull();
  });

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const signed = await presign('size/declared.png');
    const answer = await rawPut(signed.url, { 'Content-Type': 'image/png', 'Content-Length': 101 }, (req) =>
      // Headers only: the answer must come without the body ever being sent.
      req.flushHeaders(),
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', data: null });
    expect(await local.storage.head('size/declared.png')).toBeNull();
  });

  it('stops a streamed body at the cap', async () => {
    const signed = await presign('size/streamed.png');
    const answer = await rawPut(signed.url, { 'Content-Type': 'image/png', 'Transfer-Encoding': 'chunked' }, (req) => {
      req.write(Buffer.alloc(60));
      req.write(Buffer.alloc(41));
    });
    expect(answer.status).toBe(413);
    expect(answer.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await local.storage.head('size/streamed.png')).toBeNull();
    expect(tempFiles()).toEqual([]);
  });

  it('takes a streamed body of exactly the cap', async () => {
    const signed = await presign('size/exact.png');
    const answer = await rawPut(signed.url, { 'Content-Type': 'image/png', 'Transfer-Encoding': 'chunked' }, (req) => {
      req.write(Buffer.alloc(60));
      req.end(Buffer.alloc(40));
    });
    expect(answer.status).toBe(200);
    expect(await local.storage.head('size/exact.png')).toMatchObject({ size: 100 });
  });

  it('leaves nothing behind when the client breaks off mid-upload', async () => {
    const signed = await presign('abort/a.png', { maxBytes: 10_000 });
    const req = request(signed.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png', 'Content-Length': 1000 },
    });
    req.on('error', () => {});
    req.write(Buffer.alloc(500));
    await vi.waitFor(() => expect(tempFiles()).toHaveLength(1));
    req.destroy();
    await vi.waitFor(() => expect(tempFiles()).toEqual([]));
    expect(await local.storage.head('abort/a.png')).toBeNull();
    expect(errors).toEqual([]);
    // The server goes on taking uploads.
    expect((await put((await presign('abort/b.png')).url, 'ok')).status).toBe(200);
  });

  it('refuses an empty body', async () => {
    const signed = await presign('empty/a.png');
    const answer = await put(signed.url, '');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    expect(await local.storage.head('empty/a.png')).toBeNull();
  });

  it('keeps one of two PUTs racing to one address and refuses the other in its language', async () => {
    const signed = await presign('once/race.png');
    const headers = { 'Content-Type': 'image/png', 'Content-Length': 10, Cookie: 'hikari_locale=en' };
    const ends: (() => void)[] = [];
    // Both are past the check for a stored object, mid-body, before either finishes.
    const answers = ['first ', 'second'].map((name) =>
      rawPut(signed.url, headers, (req) => {
        req.write(name);
        ends.push(() => req.end('body'));
      }),
    );
    await vi.waitFor(() => expect(tempFiles()).toHaveLength(2));
    ends.forEach((end) => end());
    const [a, b] = await Promise.all(answers);
    expect([a!.status, b!.status].sort()).toEqual([200, 409]);
    const refused = a!.status === 409 ? a! : b!;
    expect(refused.body).toEqual({
      success: false,
      code: 'UPLOAD_URL_USED',
      message:
        'This upload address has already been used and the file uploaded to it is not replaced; please request a new one',
      data: null,
    });
    const kept = a!.status === 200 ? 'first body' : 'secondbody';
    expect(readFileSync(path.join(local.dir, 'once/race.png'), 'utf8')).toBe(kept);
    expect(tempFiles()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('stays usable after uploads that stored nothing; the one stored is never replaced', async () => {
    const signed = await presign('once/retry.png');
    const declared = (length: number) =>
      rawPut(signed.url, { 'Content-Type': 'image/png', 'Content-Length': length }, (req) => req.flushHeaders());
    expect((await declared(101)).status).toBe(413);
    expect((await put(signed.url, 'gif', 'image/gif')).status).toBe(415);
    expect((await put(signed.url, '')).status).toBe(400);
    const broken = request(signed.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png', 'Content-Length': 50 },
    });
    broken.on('error', () => {});
    broken.write(Buffer.alloc(20));
    await vi.waitFor(() => expect(tempFiles()).toHaveLength(1));
    broken.destroy();
    await vi.waitFor(() => expect(tempFiles()).toEqual([]));

    expect((await put(signed.url, 'the retry')).status).toBe(200);
    const again = await put(signed.url, 'a replacement');
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'UPLOAD_URL_USED', message: expect.stringContaining('上传地址') });
    // A spent address refuses a huge body from its headers, without reading it.
    const huge = await declared(5 * 1024 ** 3);
    expect([huge.status, huge.body.code]).toEqual([409, 'UPLOAD_URL_USED']);
    expect(readFileSync(path.join(local.dir, 'once/retry.png'), 'utf8')).toBe('the retry');
    expect(tempFiles()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers only PUT', async () => {
    const signed = await presign('method/a.png');
    const answer = await fetch(signed.url, { method: 'POST', body: 'png', headers: { 'Content-Type': 'image/png' } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('PUT');
    expect(await answer.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers 500 when the disk refuses the file, reports it, and leaves nothing', async () => {
    writeFileSync(path.join(local.dir, 'blocked.png'), 'a file where a folder is needed');
    const signed = await presign('blocked.png/inner.png');
    const answer = await put(signed.url, 'png');
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({
      success: false,
      code: 'INTERNAL_ERROR',
      message: '文件保存失败，请稍后再试',
      data: null,
    });
    expect(errors).toHaveLength(1);
    expect(tempFiles()).toEqual([]);
  });

  it('keeps no file when a stream given to put() fails or is already closed', async () => {
    async function* failing() {
      yield Buffer.from('first part');
      throw new Error('source broke');
    }
    const broken = await local.storage.put('put/broken.png', Readable.from(failing()), 'image/png').catch((e) => e);
    expect(broken).toMatchObject({ status: 400, code: 'UPLOAD_INCOMPLETE' });
    expect((broken as Error).cause).toMatchObject({ message: 'source broke' });
    const closed = new PassThrough();
    closed.destroy();
    const gone = await local.storage.put('put/closed.png', closed, 'image/png').catch((e) => e);
    expect(gone).toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    expect(await local.storage.head('put/broken.png')).toBeNull();
    expect(await local.storage.head('put/closed.png')).toBeNull();
    expect(tempFiles()).toEqual([]);
  });

  it('removes temp files a crashed upload left behind, and only old ones', async () => {
    const stale = path.join(local.dir, '.tmp', 'stale.part');
    const fresh = path.join(local.dir, '.tmp', 'fresh.part');
    writeFileSync(stale, 'x');
    writeFileSync(fresh, 'x');
    const hoursAgo = (clock - 2 * 3600_000) / 1000;
    utimesSync(stale, hoursAgo, hoursAgo);
    const now = clock / 1000;
    utimesSync(fresh, now, now);
    expect(await local.storage.removeStaleUploads()).toBe(1);
    expect(tempFiles()).toEqual(['fresh.part']);
    rmSync(fresh);
  });
});
