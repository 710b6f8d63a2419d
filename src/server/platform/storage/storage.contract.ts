import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmUpload, type Storage, type StorageError } from './storage.ts';

/** The driver under test and how to take it down again. */
export interface ContractSubject {
  storage: Storage;
  /** Where `publicUrl` points (IMAGE_BED_URL). */
  publicBaseUrl: string;
  close: () => Promise<void>;
}

const bytes = (value: string) => new Uint8Array(Buffer.from(value));

async function rejection(promise: Promise<unknown>): Promise<StorageError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!error) throw new Error('expected the call to fail');
  return error as StorageError;
}

const upload = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'PUT', body: bytes(body), headers });

/** What every storage driver must do; each driver's test file runs it against a real backend. */
export function describeStorageContract(name: string, setup: () => Promise<ContractSubject>): void {
  describe(`${name} storage contract`, () => {
    let subject: ContractSubject;
    let storage: Storage;
    // Each test writes under its own folder, so tests never see each other's objects.
    const folder = () => `contract/${randomUUID()}`;

    beforeAll(async () => {
      subject = await setup();
      storage = subject.storage;
    });
    afterAll(async () => {
      await subject?.close();
    });

    it('stores, describes, reads and deletes an object', async () => {
      const key = `${folder()}/cover.png`;
      const written = await storage.put(key, bytes('png bytes'), 'image/png');
      expect(written).toMatchObject({ key, size: 9, contentType: 'image/png' });

      const info = await storage.head(key);
      expect(info).toMatchObject({ key, size: 9, contentType: 'image/png' });
      expect(info?.lastModified).toBeInstanceOf(Date);

      const object = await storage.get(key);
      expect(object).toMatchObject({ key, size: 9, contentType: 'image/png' });
      expect(await text(object!.body)).toBe('png bytes');

      await storage.delete(key);
      expect(await storage.head(key)).toBeNull();
      expect(await storage.get(key)).toBeNull();
    });

    it('replaces an object and accepts a stream as the body', async () => {
      const key = `${folder()}/a.webp`;
      await storage.put(key, bytes('first version'), 'image/webp');
      await storage.put(key, Readable.from([Buffer.from('second '), Buffer.from('version!')]), 'image/webp');
      const object = await storage.get(key);
      expect(await text(object!.body)).toBe('second version!');
      expect(object?.size).toBe(15);
    });

    it('answers null for what is not there, and deleting it is not an error', async () => {
      const key = `${folder()}/missing.jpg`;
      expect(await storage.head(key)).toBeNull();
      expect(await storage.get(key)).toBeNull();
      await expect(storage.delete(key)).resolves.toBeUndefined();
      // A "folder" holding objects is not an object either.
      const parent = folder();
      await storage.put(`${parent}/x.png`, bytes('x'), 'image/png');
      expect(await storage.head(parent)).toBeNull();
    });

    it('refuses unsafe keys in every operation', async () => {
      for (const key of ['../escape.png', '/abs.png', 'a\\b.png', 'a//b.png', 'a/\u0000.png', '.hidden.png', '']) {
        expect((await rejection(storage.put(key, bytes('x'), 'image/png'))).code).toBe('VALIDATION_FAILED');
        expect((await rejection(storage.get(key))).code).toBe('VALIDATION_FAILED');
        expect((await rejection(storage.head(key))).code).toBe('VALIDATION_FAILED');
        expect((await rejection(storage.delete(key))).code).toBe('VALIDATION_FAILED');
        const presign = storage.presignPut({ key, contentType: 'image/png', maxBytes: 10, expiresInSeconds: 60 });
        expect((await rejection(presign)).code).toBe('VALIDATION_FAILED');
        expect(() => storage.publicUrl(key)).toThrow(/^server\.storage\.key\./);
      }
    });

    it('stores an object only with the type its name says', async () => {
      const key = `${folder()}/page.png`;
      const error = await rejection(storage.put(key, bytes('<script>'), 'text/html'));
      expect(error).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect((await rejection(storage.put(`${folder()}/page.html`, bytes('<p>'), 'text/html'))).status).toBe(415);
      expect(await storage.head(key)).toBeNull();
    });

    it('gives the public address under IMAGE_BED_URL', () => {
      expect(storage.publicUrl('avatar/42/a1.webp')).toBe(`${subject.publicBaseUrl}/avatar/42/a1.webp`);
    });

    it('takes a presigned PUT from a client that has no credentials', async () => {
      const key = `${folder()}/b2c3.webp`;
      const before = Date.now();
      const signed = await storage.presignPut({
        key,
        contentType: 'image/webp',
        maxBytes: 1000,
        expiresInSeconds: 300,
      });
      expect(signed.headers['Content-Type']).toBe('image/webp');
      expect(signed.expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 299_000);
      expect(signed.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 300_000);
      // The client builds the public address from the last path segment of the upload address.
      expect(new URL(signed.url).pathname.split('/').pop()).toBe('b2c3.webp');

      const answer = await upload(signed.url, 'webp image', signed.headers);
      expect(answer.status).toBe(200);
      expect(await storage.head(key)).toMatchObject({ size: 10, contentType: 'image/webp' });
      expect(await text((await storage.get(key))!.body)).toBe('webp image');
    });

    it('takes one upload per presigned address: a second PUT is refused and the first object stays', async () => {
      const key = `${folder()}/once.png`;
      const signed = await storage.presignPut({ key, contentType: 'image/png', maxBytes: 1000, expiresInSeconds: 300 });
      expect((await upload(signed.url, 'first', signed.headers)).status).toBe(200);
      const again = await upload(signed.url, 'replaced', signed.headers);
      // Our server answers 409 UPLOAD_URL_USED; S3 answers its own 412 PreconditionFailed.
      expect([409, 412]).toContain(again.status);
      expect(await text((await storage.get(key))!.body)).toBe('first');
      // Leaving out the condition does not help: the local driver needs none, S3 signed it.
      const bare = await upload(signed.url, 'replaced', { 'Content-Type': 'image/png' });
      expect([403, 409]).toContain(bare.status);
      expect(await text((await storage.get(key))!.body)).toBe('first');
      // The server's own writes still replace (a checked image is written back over the upload).
      await storage.put(key, bytes('checked'), 'image/png');
      expect(await text((await storage.get(key))!.body)).toBe('checked');
    });

    it('refuses a presigned PUT with another content type, and stores nothing', async () => {
      const key = `${folder()}/c.png`;
      const signed = await storage.presignPut({ key, contentType: 'image/png', maxBytes: 1000, expiresInSeconds: 300 });
      const answer = await upload(signed.url, '<html>', { 'Content-Type': 'text/html' });
      expect([403, 415]).toContain(answer.status);
      expect(await storage.head(key)).toBeNull();
    });

    it('refuses a presigned address moved to another key', async () => {
      const key = `${folder()}/d.png`;
      const signed = await storage.presignPut({ key, contentType: 'image/png', maxBytes: 1000, expiresInSeconds: 300 });
      const moved = signed.url.replace('/d.png?', '/e.png?');
      expect(moved).not.toBe(signed.url);
      const answer = await upload(moved, 'png', signed.headers);
      expect(answer.status).toBe(403);
      expect(await storage.head(key.replace('d.png', 'e.png'))).toBeNull();
    });

    it('refuses a body longer than the length the client announced', async () => {
      const key = `${folder()}/f.png`;
      const signed = await storage.presignPut({
        key,
        contentType: 'image/png',
        maxBytes: 1000,
        contentLength: 5,
        expiresInSeconds: 300,
      });
      const answer = await upload(signed.url, 'more than five bytes', signed.headers);
      expect([403, 413]).toContain(answer.status);
      expect(await storage.head(key)).toBeNull();
    });

    it('refuses to sign nonsense', async () => {
      const key = `${folder()}/g.png`;
      const base = { key, contentType: 'image/png', maxBytes: 100, expiresInSeconds: 60 };
      expect((await rejection(storage.presignPut({ ...base, contentType: 'image/jpeg' }))).status).toBe(415);
      expect((await rejection(storage.presignPut({ ...base, maxBytes: 0 }))).status).toBe(400);
      expect((await rejection(storage.presignPut({ ...base, expiresInSeconds: 0 }))).status).toBe(400);
      expect((await rejection(storage.presignPut({ ...base, expiresInSeconds: 8 * 86400 }))).status).toBe(400);
      expect((await rejection(storage.presignPut({ ...base, contentLength: 101 }))).code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('checks an upload again afterwards and deletes one that is too big', async () => {
      const key = `${folder()}/h.gif`;
      await storage.put(key, bytes('0123456789'), 'image/gif');
      await expect(confirmUpload(storage, key, { maxBytes: 10, contentType: 'image/gif' })).resolves.toMatchObject({
        size: 10,
      });
      const error = await rejection(confirmUpload(storage, key, { maxBytes: 9, contentType: 'image/gif' }));
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await storage.head(key)).toBeNull();
      const missing = await rejection(confirmUpload(storage, key, { maxBytes: 9, contentType: 'image/gif' }));
      expect(missing.code).toBe('UPLOAD_INCOMPLETE');
    });
  });
}
