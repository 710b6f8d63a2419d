import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3StorageFor, startS3Server, type TestS3Server } from '../../../../tests/support/s3-server.ts';
import type { S3Storage } from '../../platform/storage/storage.s3.ts';
import type { StorageError } from '../../platform/storage/storage.ts';
import { confirmStoredImage } from './stored-image.ts';

/** Uploads to S3 skip our server: the first use checks them as the local driver does on arrival. */
describe('images uploaded to S3, on first use', () => {
  let server: TestS3Server;
  let storage: S3Storage;

  beforeAll(async () => {
    server = await startS3Server();
    storage = s3StorageFor(server, 'https://img.example.com/media');
  });
  afterAll(async () => {
    storage.close();
    await server.stop();
  });

  /** PUTs `body` through a presigned address, as the browser does. */
  async function upload(key: string, body: Uint8Array, contentType: string) {
    const signed = await storage.presignPut({ key, contentType, maxBytes: 4 * 1024 * 1024, expiresInSeconds: 120 });
    const res = await fetch(signed.url, { method: 'PUT', body: new Uint8Array(body), headers: signed.headers });
    expect(res.status).toBe(200);
  }

  async function bytesOf(key: string): Promise<Buffer> {
    const object = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it('replaces a real image with a copy without its metadata', async () => {
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#39c5bb' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'secret name' } })
      .toBuffer();
    await upload('comment/3/photo.jpeg', photo, 'image/jpeg');
    expect((await bytesOf('comment/3/photo.jpeg')).includes('secret name')).toBe(true);
    const info = await confirmStoredImage(storage, 'comment/3/photo.jpeg');
    expect(info.contentType).toBe('image/jpeg');
    const stored = await bytesOf('comment/3/photo.jpeg');
    expect(stored.includes('secret name')).toBe(false);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'jpeg', width: 40, height: 30 });
  });

  it('deletes a page uploaded under an image name, and says why', async () => {
    const page = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    await upload('comment/3/page.png', page, 'image/png');
    const error = await confirmStoredImage(storage, 'comment/3/page.png').catch((e: unknown) => e as StorageError);
    expect(error).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await storage.head('comment/3/page.png')).toBeNull();
  });

  it('takes exactly the size the address was made for, when the browser gives it', async () => {
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#39c5bb' } })
      .webp()
      .toBuffer();
    const signed = await storage.presignPut({
      key: 'comment/3/sized.webp',
      contentType: 'image/webp',
      maxBytes: 4 * 1024 * 1024,
      contentLength: image.length,
      expiresInSeconds: 120,
    });
    const put = (body: Uint8Array<ArrayBuffer>) => fetch(signed.url, { method: 'PUT', body, headers: signed.headers });
    const larger = new Uint8Array(image.length + 1000);
    larger.set(image);
    expect((await put(larger)).status).toBe(403);
    expect((await put(new Uint8Array(image))).status).toBe(200);
  });

  it('keeps an image whose check could not run, and deletes one refused for what it is', async () => {
    const { sharedTransformQueue } = await import('./image.service.ts');
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#39c5bb' } })
      .webp()
      .toBuffer();
    await upload('comment/3/busy.webp', image, 'image/webp');
    // The queue refuses (as when full): the object stays for the next use.
    const run = sharedTransformQueue.run.bind(sharedTransformQueue);
    sharedTransformQueue.run = () => Promise.reject(Object.assign(new Error('full'), { status: 503 }));
    try {
      await expect(confirmStoredImage(storage, 'comment/3/busy.webp')).rejects.toThrow();
    } finally {
      sharedTransformQueue.run = run;
    }
    expect(await storage.head('comment/3/busy.webp')).not.toBeNull();
    expect((await confirmStoredImage(storage, 'comment/3/busy.webp')).contentType).toBe('image/webp');
  });

  it('refuses what was never uploaded', async () => {
    const error = await confirmStoredImage(storage, 'comment/3/none.webp').catch((e: unknown) => e as StorageError);
    expect(error).toMatchObject({ status: 400, code: 'UPLOAD_INCOMPLETE' });
  });
});
