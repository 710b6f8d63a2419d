import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3StorageFor, startS3Server, type TestS3Server } from '../../../../tests/support/s3-server.ts';
import { confirmUpload, type StorageError } from './storage.ts';
import { S3Storage } from './storage.s3.ts';
import { describeStorageContract } from './storage.contract.ts';

const PUBLIC_BASE = 'https://img.example.com/media';

function storageFor(server: TestS3Server): S3Storage {
  return s3StorageFor(server, PUBLIC_BASE);
}

describeStorageContract('s3', async () => {
  const server = await startS3Server();
  const storage = storageFor(server);
  return {
    storage,
    publicBaseUrl: PUBLIC_BASE,
    close: async () => {
      storage.close();
      await server.stop();
    },
  };
});

describe('s3 presigned uploads', () => {
  let server: TestS3Server;
  let storage: S3Storage;

  beforeAll(async () => {
    server = await startS3Server();
    storage = storageFor(server);
  });
  afterAll(async () => {
    storage.close();
    await server.stop();
  });

  it('addresses the bucket path-style on a custom endpoint and signs the content type', async () => {
    const signed = await storage.presignPut({
      key: 'post/7/x1.jpg',
      contentType: 'image/jpeg',
      maxBytes: 100,
      expiresInSeconds: 120,
    });
    const url = new URL(signed.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${server.endpoint}/${server.bucket}/post/7/x1.jpg`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    // Only a PUT that creates the object matches the signature (If-None-Match: *, see the contract).
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-type', 'if-none-match']),
    );
    expect(signed.headers).toEqual({ 'Content-Type': 'image/jpeg', 'If-None-Match': '*' });
    // No checksum the browser could not compute is part of the signature.
    expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('signs the exact length when the client announced it', async () => {
    const signed = await storage.presignPut({
      key: 'post/7/len.png',
      contentType: 'image/png',
      maxBytes: 100,
      contentLength: 4,
      expiresInSeconds: 120,
    });
    expect(new URL(signed.url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
    const shorter = await fetch(signed.url, { method: 'PUT', body: 'abc', headers: signed.headers });
    expect(shorter.status).toBe(403);
    const exact = await fetch(signed.url, { method: 'PUT', body: 'abcd', headers: signed.headers });
    expect(exact.status).toBe(200);
    expect(await storage.head('post/7/len.png')).toMatchObject({ size: 4 });
  });

  it('catches an oversized upload afterwards when no length was signed', async () => {
    const key = 'post/7/big.png';
    const signed = await storage.presignPut({ key, contentType: 'image/png', maxBytes: 8, expiresInSeconds: 120 });
    // S3 cannot cap a presigned PUT by itself: the upload lands...
    const answer = await fetch(signed.url, { method: 'PUT', body: 'twelve bytes', headers: signed.headers });
    expect(answer.status).toBe(200);
    // ...and the check after it removes the object.
    const error = await confirmUpload(storage, key, { maxBytes: 8, contentType: 'image/png' }).catch(
      (e: unknown) => e as StorageError,
    );
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(await storage.head(key)).toBeNull();
  });

  it('refuses an upload signed with other credentials', async () => {
    const forged = new S3Storage({
      endpoint: server.endpoint,
      region: server.region,
      bucket: server.bucket,
      accessKeyId: server.accessKeyId,
      secretAccessKey: 'not-the-secret',
      publicBaseUrl: PUBLIC_BASE,
    });
    const signed = await forged.presignPut({
      key: 'post/7/forged.png',
      contentType: 'image/png',
      maxBytes: 100,
      expiresInSeconds: 120,
    });
    forged.close();
    const answer = await fetch(signed.url, { method: 'PUT', body: 'png', headers: signed.headers });
    expect(answer.status).toBe(403);
    expect(await storage.head('post/7/forged.png')).toBeNull();
  });
});
