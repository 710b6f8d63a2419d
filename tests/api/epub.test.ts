import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { connect, type AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiResponse } from '../../src/shared/api.ts';
import type { EpubRefusal, VolumeEpub } from '../../src/shared/lightnovel/epub.contract.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { Db } from '../../src/server/db/database.ts';
import { nextId } from '../../src/server/db/ids.ts';
import { toErrorResponse } from '../../src/server/http/api-errors.ts';
import { deleteVolume } from '../../src/server/modules/lightnovel/lightnovel.writer.ts';
import { buildDemoEpubs, seedDemoEpubs } from '../../src/server/modules/lightnovel/epub/demo-books.ts';
import { corpusEpub, hostileCorpus } from '../../src/server/modules/lightnovel/epub/epub-corpus.ts';
import { epubValidations } from '../../src/server/modules/lightnovel/epub/epub.service.ts';
import { ensureRevision } from '../../src/server/modules/creator/revisions.service.ts';
import type { Logger } from '../../src/server/platform/logger.ts';
import { LocalStorage } from '../../src/server/platform/storage/storage.local.ts';
import { EPUB_MAX_BYTES } from '../../src/shared/lightnovel/lightnovel-model.ts';
import { freshIp, makeAccount } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const at = '2026-12-01T00:00:00.000Z';
const EPUB = 'application/epub+zip';

/** A series with one volume straight in the database (the catalogue's writer is not tested here). */
async function addVolume(
  db: Db,
  options: { status?: 'published' | 'draft'; createdBy?: string; cover?: string; seriesId?: number } = {},
) {
  let seriesId = options.seriesId;
  if (!seriesId) {
    seriesId = await db.transaction().execute((trx) => nextId(trx, 'lightnovel_id'));
    await db
      .insertInto('lightnovel')
      .values({
        id: seriesId,
        name: `雨夜の手紙 ${seriesId}`,
        name_zh: `雨夜信笺 ${seriesId}`,
        status: options.status ?? 'published',
        created_by: options.createdBy ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  const volumeId = await db.transaction().execute((trx) => nextId(trx, 'volume_id'));
  await db
    .insertInto('lightnovel_volume')
    .values({
      id: volumeId,
      lightnovel_id: seriesId,
      number: 1,
      cover: options.cover ?? '',
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { seriesId, volumeId };
}

/** Every object stored under lightnovel/, as keys. */
function storedKeys(storage: LocalStorage): string[] {
  const root = join(storage.dir, 'lightnovel');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(storage.dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('EPUB files of volumes: upload, replace, read, remove', () => {
  let app: TestApp;
  let db: Db;
  let storage: LocalStorage;
  let count = 0;

  async function member(group: UserGroup = 'user') {
    count += 1;
    return makeAccount(app, `ep_${count}_${Math.random().toString(36).slice(2, 6)}`, group);
  }

  const upload = async (
    volumeId: number | string,
    bytes: Uint8Array | null,
    token?: string,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.request(`/api/lightnovel/volumes/${volumeId}/epub`, {
      method: 'POST',
      headers: {
        'content-type': EPUB,
        'x-forwarded-for': freshIp(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: new Uint8Array(bytes ?? []),
    });
    return { res, body: (await res.json()) as ApiResponse<VolumeEpub> };
  };
  const remove = async (volumeId: number, token?: string) => {
    const res = await app.request(`/api/lightnovel/volumes/${volumeId}/epub`, {
      method: 'DELETE',
      headers: { 'x-forwarded-for': freshIp(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { res, body: (await res.json()) as ApiResponse<VolumeEpub> };
  };
  const download = (volumeId: number, token?: string, headers: Record<string, string> = {}) =>
    app.request(`/api/lightnovel/volumes/${volumeId}/epub`, {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
  const volumeRow = (volumeId: number) =>
    db.selectFrom('lightnovel_volume').selectAll().where('id', '=', volumeId).executeTakeFirstOrThrow();

  let creator: { id: string; token: string };
  let book: Uint8Array;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    if (!(app.ctx.storage instanceof LocalStorage)) throw new Error('the tests run on the local driver');
    storage = app.ctx.storage;
    creator = await member('creator');
    book = (await buildDemoEpubs())[0]!.bytes;
  });
  afterAll(async () => app.close());

  it('stores an upload under its sha256 and a suffix of its own, sets the cover, and serves the same bytes with safe headers', async () => {
    const { volumeId } = await addVolume(db);
    const { res, body } = await upload(volumeId, book, creator.token);
    expect(res.status, JSON.stringify(body)).toBe(200);
    const sha = createHash('sha256').update(book).digest('hex');
    const row = await volumeRow(volumeId);
    expect(row.epub_key).toMatch(new RegExp(`^lightnovel/epub/${volumeId}/${sha}-[0-9a-f]{16}\\.epub$`));
    expect(row).toMatchObject({
      epub_size: book.length,
      epub_uploaded_by: creator.id,
    });
    expect(JSON.parse(row.epub_meta)).toEqual({ title: '星见坂图书室的四季　第一卷', language: 'zh-CN' });
    expect(row.updated_at).not.toBe(at);
    // The cover is the book's own, re-encoded as WebP and stored beside it.
    const coverKey = storedKeys(storage).find((key) => key.startsWith(`lightnovel/cover/${volumeId}/`))!;
    expect(coverKey).toMatch(new RegExp(`^lightnovel/cover/${volumeId}/${sha.slice(0, 32)}-[0-9a-f]{16}\\.webp$`));
    expect(row.cover).toBe(storage.publicUrl(coverKey));
    const cover = await storage.get(coverKey);
    const chunks: Buffer[] = [];
    for await (const chunk of cover!.body) chunks.push(chunk as Buffer);
    expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ format: 'webp', width: 600, height: 900 });
    expect(body.success && body.data).toEqual({
      volumeId,
      cover: row.cover,
      epub: {
        size: book.length,
        meta: { title: '星见坂图书室的四季　第一卷', language: 'zh-CN' },
        url: `/api/lightnovel/volumes/${volumeId}/epub`,
      },
    });

    const file = await download(volumeId);
    expect(file.status).toBe(200);
    expect(
      Object.fromEntries(
        ['content-type', 'x-content-type-options', 'content-disposition', 'etag', 'cache-control'].map((h) => [
          h,
          file.headers.get(h),
        ]),
      ),
    ).toEqual({
      'content-type': EPUB,
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline',
      etag: `"${sha}"`,
      'cache-control': 'private, max-age=300',
    });
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(book))).toBe(true);
    const again = await download(volumeId, undefined, { 'if-none-match': `"${sha}"` });
    expect(again.status).toBe(304);
  });

  it('records a cover taken from the book as a revision of a volume with a history', async () => {
    const { volumeId } = await addVolume(db);
    await ensureRevision(db, 'volume', volumeId);
    const { res } = await upload(volumeId, book, creator.token);
    expect(res.status).toBe(200);
    const revisions = await db
      .selectFrom('catalogue_revision')
      .select(['number', 'changes', 'user_id', 'doc'])
      .where('item_type', '=', 'volume')
      .where('item_id', '=', volumeId)
      .orderBy('number')
      .execute();
    expect(revisions.map((r) => [r.number, JSON.parse(r.changes) as string[], r.user_id])).toEqual([
      [1, [], null],
      [2, ['cover'], creator.id],
    ]);
    expect((JSON.parse(revisions[1]!.doc) as { cover: string }).cover).toBe((await volumeRow(volumeId)).cover);
  });

  it('replaces a book and deletes the old object; keeps a cover the volume already had', async () => {
    const { volumeId } = await addVolume(db, { cover: '/covers/own.webp' });
    const books = await buildDemoEpubs();
    const [first, second] = [books[1]!.bytes, books[2]!.bytes];
    expect((await upload(volumeId, first, creator.token)).res.status).toBe(200);
    const firstKey = (await volumeRow(volumeId)).epub_key;
    expect((await upload(volumeId, second, creator.token)).res.status).toBe(200);
    const row = await volumeRow(volumeId);
    expect(row.epub_key).not.toBe(firstKey);
    expect(row.cover).toBe('/covers/own.webp');
    expect(await storage.head(firstKey)).toBeNull();
    expect(storedKeys(storage).filter((key) => key.includes(`/${volumeId}/`))).toEqual([row.epub_key]);
    // The same file again is a new object of its own; the one it replaces goes.
    expect((await upload(volumeId, second, creator.token)).res.status).toBe(200);
    const again = await volumeRow(volumeId);
    expect(again.epub_key).not.toBe(row.epub_key);
    expect(storedKeys(storage).filter((key) => key.includes(`/${volumeId}/`))).toEqual([again.epub_key]);
  });

  it('never deletes the object a volume names when an upload of the same bytes races a removal', async () => {
    const { volumeId } = await addVolume(db);
    expect((await upload(volumeId, book, creator.token)).res.status).toBe(200);
    // The second upload of the same bytes stops once its object is stored, while the removal runs.
    const put = storage.put.bind(storage);
    let stored = () => {};
    const paused = new Promise<void>((resolve) => (stored = resolve));
    let resume = () => {};
    const gate = new Promise<void>((resolve) => (resume = resolve));
    storage.put = async (...args: Parameters<typeof storage.put>) => {
      const result = await put(...args);
      if (args[0].startsWith(`lightnovel/epub/${volumeId}/`)) {
        stored();
        await gate;
      }
      return result;
    };
    try {
      const second = upload(volumeId, book, creator.token);
      await paused;
      expect((await remove(volumeId, creator.token)).res.status).toBe(200);
      resume();
      expect((await second).res.status).toBe(200);
    } finally {
      storage.put = put;
    }
    const row = await volumeRow(volumeId);
    expect(row.epub_key).not.toBe('');
    expect(storedKeys(storage).filter((key) => key.startsWith(`lightnovel/epub/${volumeId}/`))).toEqual([row.epub_key]);
    expect((await download(volumeId)).status).toBe(200);
    // And many at once leave the volume naming an object that is there, or none.
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all([
        upload(volumeId, book, creator.token),
        remove(volumeId, creator.token),
        upload(volumeId, book, creator.token),
      ]);
      expect(answers.map((a) => a.res.status)).toEqual([200, 200, 200]);
      const now = await volumeRow(volumeId);
      const epubs = storedKeys(storage).filter((key) => key.startsWith(`lightnovel/epub/${volumeId}/`));
      expect(epubs).toEqual(now.epub_key ? [now.epub_key] : []);
    }
  });

  it('refuses every book of the hostile corpus with 422 and its reason, changing nothing', async () => {
    const { volumeId } = await addVolume(db);
    const before = await volumeRow(volumeId);
    const keys = storedKeys(storage);
    for (const hostile of await hostileCorpus()) {
      const { res, body } = await upload(volumeId, hostile.bytes, creator.token);
      expect([hostile.name, res.status, body.code], JSON.stringify(body)).toEqual([
        hostile.name,
        422,
        'VALIDATION_FAILED',
      ]);
      expect((body as ApiFailure).data as EpubRefusal).toMatchObject({ reason: hostile.problem });
      expect(body.message.length).toBeGreaterThan(10);
    }
    expect(await volumeRow(volumeId)).toEqual(before);
    expect(storedKeys(storage)).toEqual(keys);
  });

  it('answers the message in the request language', async () => {
    const { volumeId } = await addVolume(db);
    const script = await corpusEpub({ chapters: ['<script>x</script>'] });
    const zh = await upload(volumeId, script, creator.token, { 'accept-language': 'zh-CN' });
    const en = await upload(volumeId, script, creator.token, { 'accept-language': 'en' });
    expect(zh.body.message).toContain('脚本');
    expect(en.body.message).toContain('script');
  });

  it('refuses the wrong callers, bodies and volumes with their codes, changing nothing', async () => {
    const { volumeId } = await addVolume(db);
    const hidden = await addVolume(db, { status: 'draft' });
    const keys = storedKeys(storage);
    const before = await volumeRow(volumeId);
    const user = await member('user');
    const expectAnswer = async (
      answer: Promise<{ res: Response; body: ApiResponse<unknown> }>,
      status: number,
      code: string,
    ) => {
      const { res, body } = await answer;
      expect([res.status, body.code], JSON.stringify(body)).toEqual([status, code]);
    };
    await expectAnswer(upload(volumeId, book), 401, 'UNAUTHORIZED');
    await expectAnswer(upload(volumeId, book, user.token), 403, 'FORBIDDEN');
    await expectAnswer(remove(volumeId, user.token), 403, 'FORBIDDEN');
    await expectAnswer(upload(999_999, book, creator.token), 404, 'NOT_FOUND');
    // Another's unpublished series is not there for a creator.
    await expectAnswer(upload(hidden.volumeId, book, creator.token), 404, 'NOT_FOUND');
    await expectAnswer(
      upload(volumeId, book, creator.token, { 'content-type': 'application/zip' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectAnswer(
      upload(volumeId, book, creator.token, { 'content-type': 'application/json' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectAnswer(upload(volumeId, null, creator.token), 422, 'VALIDATION_FAILED');
    await expectAnswer(
      upload(volumeId, book, creator.token, { origin: 'https://evil.example' }),
      403,
      'CROSS_SITE_REQUEST',
    );
    await expectAnswer(
      upload(volumeId, book, creator.token, { 'sec-fetch-site': 'cross-site' }),
      403,
      'CROSS_SITE_REQUEST',
    );
    const tooLarge = new Uint8Array(EPUB_MAX_BYTES + 1);
    tooLarge.set(book);
    await expectAnswer(upload(volumeId, tooLarge, creator.token), 413, 'PAYLOAD_TOO_LARGE');
    expect(await volumeRow(volumeId)).toEqual(before);
    expect(storedKeys(storage)).toEqual(keys);
  });

  it('answers 503 while two books are being validated and no turn comes in time', async () => {
    const { volumeId } = await addVolume(db);
    const waitMs = epubValidations.waitMs;
    epubValidations.waitMs = 50;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const busy = [epubValidations.run(() => held, Error), epubValidations.run(() => held, Error)];
    try {
      const { res, body } = await upload(volumeId, book, creator.token);
      expect([res.status, body.code, res.headers.get('retry-after')]).toEqual([503, 'SERVICE_UNAVAILABLE', '5']);
      expect(body.message).toContain('过一会儿');
    } finally {
      release();
      await Promise.all(busy);
      epubValidations.waitMs = waitMs;
    }
    expect((await volumeRow(volumeId)).epub_key).toBe('');
    expect((await upload(volumeId, book, creator.token)).res.status).toBe(200);
  });

  it('lets a creator replace or remove only an EPUB they uploaded or of a series they created; editors any', async () => {
    const [owner, uploader, other] = [await member('creator'), await member('creator'), await member('creator')];
    const { volumeId } = await addVolume(db, { createdBy: owner.id });
    const books = await buildDemoEpubs();
    expect((await upload(volumeId, book, uploader.token)).res.status).toBe(200);
    const before = await volumeRow(volumeId);
    const keys = storedKeys(storage);
    for (const answer of [await upload(volumeId, books[1]!.bytes, other.token), await remove(volumeId, other.token)]) {
      expect([answer.res.status, answer.body.code]).toEqual([403, 'FORBIDDEN']);
      expect(answer.body.message).toContain('只有上传它的人');
    }
    expect(await volumeRow(volumeId)).toEqual(before);
    expect(storedKeys(storage)).toEqual(keys);
    // The uploader, the series' creator and an editor may.
    expect((await upload(volumeId, books[1]!.bytes, uploader.token)).res.status).toBe(200);
    expect((await upload(volumeId, books[2]!.bytes, owner.token)).res.status).toBe(200);
    expect((await volumeRow(volumeId)).epub_uploaded_by).toBe(owner.id);
    expect((await upload(volumeId, book, uploader.token)).res.status).toBe(403);
    expect((await remove(volumeId, (await member('editor')).token)).res.status).toBe(200);
    // A volume without an EPUB takes anyone's; then it is theirs to remove.
    expect((await upload(volumeId, book, other.token)).res.status).toBe(200);
    expect((await remove(volumeId, other.token)).res.status).toBe(200);
    expect((await volumeRow(volumeId)).epub_key).toBe('');
  });

  it('deletes a volume with its EPUB and the cover extracted from it, once the row is gone', async () => {
    const { volumeId } = await addVolume(db);
    expect((await upload(volumeId, book, creator.token)).res.status).toBe(200);
    const ours = (key: string) => key.includes(`/${volumeId}/`);
    expect(storedKeys(storage).filter(ours)).toHaveLength(2);
    const files = await deleteVolume(db, volumeId, undefined, storage);
    expect(files?.epub_key).toMatch(/\.epub$/);
    expect(await db.selectFrom('lightnovel_volume').select('id').where('id', '=', volumeId).execute()).toEqual([]);
    expect(storedKeys(storage).filter(ours)).toEqual([]);
  });

  it('tells an upload with another type, to any path shaped like the EPUB route, the type to send', async () => {
    const { volumeId } = await addVolume(db);
    for (const [path, type] of [
      [`/api/lightnovel/volumes/${volumeId}/epub`, 'application/zip'],
      [`/api/lightnovel/volumes/${volumeId}/epub/`, 'text/plain'],
      ['/api/lightnovel/volumes/abc/epub', 'multipart/form-data; boundary=x'],
      [`/api/lightnovel/volumes/${volumeId}/epub`, 'application/json'],
    ] as const) {
      const res = await app.request(path, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${creator.token}` },
        body: new Uint8Array(book),
      });
      const body = (await res.json()) as ApiFailure;
      expect([path, type, res.status, body.code, body.message]).toEqual([
        path,
        type,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        expect.stringContaining('application/epub+zip'),
      ]);
    }
  });

  it('logs a request its client cut off as an abort, not as an error', async () => {
    const logs: string[] = [];
    const record = (level: string) => (_: unknown, message: string) => logs.push(`${level} ${message}`);
    const logger = { info: record('info'), warn: record('warn'), error: record('error') } as unknown as Logger;
    const probe = new Hono();
    probe.post('/reset', () => {
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    });
    probe.post('/wrapped', () => {
      throw new Error('pipeline failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    });
    probe.post('/broken', () => {
      throw new Error('a real bug');
    });
    probe.onError((error, c) => toErrorResponse(c, error, logger));
    expect((await probe.request('/reset', { method: 'POST' })).status).toBe(400);
    expect((await probe.request('/wrapped', { method: 'POST' })).status).toBe(400);
    expect((await probe.request('/broken', { method: 'POST' })).status).toBe(500);
    expect(logs).toEqual([
      'info request aborted by the client',
      'info request aborted by the client',
      'error unhandled API error',
    ]);
  });

  it('treats an upload whose client disconnects mid-body as an abort, not an error', async () => {
    const { volumeId } = await addVolume(db);
    const logs: string[] = [];
    const record = (level: string) => (_: unknown, message: string) => logs.push(`${level} ${message}`);
    const logger = app.ctx.logger;
    const recording = new Proxy(logger, {
      get: (target, key: keyof Logger) =>
        key === 'error' || key === 'warn' || key === 'info' ? record(key) : target[key],
    });
    (app.ctx as { logger: Logger }).logger = recording;
    const server = createAdaptorServer({ fetch: app.api.fetch });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/lightnovel/volumes/${volumeId}/epub HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Content-Type: ${EPUB}\r\nContent-Length: ${5 * 1024 * 1024}\r\nAuthorization: Bearer ${creator.token}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(256 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      (app.ctx as { logger: Logger }).logger = logger;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(logs.filter((line) => !line.startsWith('info'))).toEqual([]);
    expect((await volumeRow(volumeId)).epub_key).toBe('');
    // The part of the body that came is not left in the data folder.
    expect(readdirSync(join(app.ctx.config.dataDir, 'tmp'))).toEqual([]);
  });

  it('refuses a body past the cap while streaming it, when no length was announced', async () => {
    const { volumeId } = await addVolume(db);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > EPUB_MAX_BYTES + 4 * 1024 * 1024) return controller.close();
        sent += 1024 * 1024;
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const res = await app.request(`/api/lightnovel/volumes/${volumeId}/epub`, {
      method: 'POST',
      headers: { 'content-type': EPUB, authorization: `Bearer ${creator.token}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await volumeRow(volumeId)).epub_key).toBe('');
  });

  it('serves published series to everyone, unpublished ones to their creator and reviewers only', async () => {
    const owner = await member('creator');
    const draft = await addVolume(db, { status: 'draft', createdBy: owner.id });
    expect((await upload(draft.volumeId, book, owner.token)).res.status).toBe(200);
    expect((await download(draft.volumeId)).status).toBe(404);
    expect((await download(draft.volumeId, (await member('user')).token)).status).toBe(404);
    expect((await download(draft.volumeId, owner.token)).status).toBe(200);
    expect((await download(draft.volumeId, (await member('editor')).token)).status).toBe(200);
    const empty = await addVolume(db);
    const res = await download(empty.volumeId);
    expect([res.status, ((await res.json()) as ApiFailure).code]).toEqual([404, 'NOT_FOUND']);
  });

  it('removes a book: the object is deleted and the file is gone', async () => {
    const { volumeId } = await addVolume(db);
    expect((await upload(volumeId, book, creator.token)).res.status).toBe(200);
    const key = (await volumeRow(volumeId)).epub_key;
    const { res, body } = await remove(volumeId, creator.token);
    expect(res.status).toBe(200);
    expect(body.success && body.data.epub).toBeNull();
    expect(await volumeRow(volumeId)).toMatchObject({ epub_key: '', epub_size: 0, epub_meta: '{}' });
    expect(await storage.head(key)).toBeNull();
    expect((await download(volumeId)).status).toBe(404);
    // Removing again is not an error.
    expect((await remove(volumeId, creator.token)).res.status).toBe(200);
  });
});

describe('the demo EPUBs', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('are attached once to main volume 1 of demo series 1 to 3, validated and with covers', async () => {
    const db = app.ctx.db;
    // Series 1…4 in order on a fresh database; the fourth has no demo book.
    const volumes = [];
    for (let i = 0; i < 4; i++) volumes.push(await addVolume(db));
    expect(volumes.map((v) => v.seriesId)).toEqual([1, 2, 3, 4]);
    const attached = await seedDemoEpubs(db, app.ctx.storage);
    expect(attached).toEqual(volumes.slice(0, 3).map((v) => v.volumeId));
    expect(await seedDemoEpubs(db, app.ctx.storage)).toEqual([]);
    const rows = await db
      .selectFrom('lightnovel_volume')
      .select(['lightnovel_id', 'epub_key', 'epub_meta', 'cover'])
      .orderBy('lightnovel_id')
      .execute();
    expect(rows.map((row) => [row.lightnovel_id, row.epub_key !== '', row.cover !== ''])).toEqual([
      [1, true, true],
      [2, true, true],
      [3, true, true],
      [4, false, false],
    ]);
    expect(JSON.parse(rows[1]!.epub_meta)).toEqual({
      title: '雨夜信笺　第一卷',
      language: 'zh',
      vertical: true,
      rtl: true,
    });
  });
});
