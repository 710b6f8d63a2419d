import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3StorageFor, startS3Server, type TestS3Server } from '../../../../tests/support/s3-server.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { HttpError } from '../../platform/errors.ts';
import type { S3Storage } from '../../platform/storage/storage.s3.ts';
import { createUser } from '../users/users.service.ts';
import { nextUpdatedAt } from './emoji.repository.ts';
import { addEmojis, createEmojiSet, emojiImageKey, getEmojiSet, type EmojiDeps } from './emoji.service.ts';

const BED = 'https://img.example.com/media';

describe('emoji images on S3, checked when they become emojis', () => {
  let server: TestS3Server;
  let storage: S3Storage;
  let t: TestDatabase;
  let deps: EmojiDeps;
  let viewer: { id: string; group: 'creator' };

  beforeAll(async () => {
    server = await startS3Server();
    storage = s3StorageFor(server, BED);
    t = await createTestDatabase();
    const user = await createUser(t.db, { name: 'S3Maker', email: 's3maker@example.test', passwordHash: 'x' });
    viewer = { id: user.id, group: 'creator' };
    deps = { db: t.db, storage, logger: { warn: () => undefined } };
  });
  afterAll(async () => {
    storage.close();
    await server.stop();
    await t.destroy();
  });

  /** PUTs `body` through a presigned address, as the browser does after POST /api/upload. */
  async function upload(key: string, body: Uint8Array, contentType: string) {
    const signed = await storage.presignPut({ key, contentType, maxBytes: 4 * 1024 * 1024, expiresInSeconds: 120 });
    const res = await fetch(signed.url, { method: 'PUT', body: new Uint8Array(body), headers: signed.headers });
    expect(res.status).toBe(200);
    return storage.publicUrl(key);
  }

  async function bytesOf(key: string): Promise<Buffer> {
    const object = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it('reads a storage key only from the exact public address of the set’s folder', () => {
    expect(emojiImageKey(storage, 7, `${BED}/emoji/7/a1-B_2.webp`)).toBe('emoji/7/a1-B_2.webp');
    expect(emojiImageKey(storage, 7, `${BED}/emoji/7/smile.png`)).toBe('emoji/7/smile.png');
    for (const src of [
      `${BED}/emoji/8/a1.webp`,
      `${BED}/emoji/70/a1.webp`,
      `${BED}/emoji/7/a1.svg`,
      `${BED}/emoji/7/a1.epub`,
      `${BED}/emoji/7/../8/a1.webp`,
      `${BED}/emoji/7/%2e%2e/a1.webp`,
      `${BED}/emoji/7/a%20b.webp`,
      `${BED}/emoji/7/.a1.webp`,
      `${BED}/emoji/7/a1.webp?x=1`,
      `${BED}/emoji/7/a1.webp#x`,
      `${BED}/emoji/7/`,
      `https://img.example.com.evil.example/media/emoji/7/a1.webp`,
      `https://img.example.com/mediaX/emoji/7/a1.webp`,
      `http://img.example.com/media/emoji/7/a1.webp`,
    ]) {
      expect(emojiImageKey(storage, 7, src), src).toBeNull();
    }
  });

  it('strips an image’s metadata on first use, and refuses (and deletes) a page named as an image', async () => {
    const set = await createEmojiSet(deps, viewer, 's3-set');
    const photo = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#39c5bb' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'secret name' } })
      .toBuffer();
    const src = await upload(`emoji/${set.id}/photo.jpeg`, photo, 'image/jpeg');
    const page = await upload(
      `emoji/${set.id}/page.png`,
      new TextEncoder().encode('<html><script>alert(1)</script></html>'),
      'image/png',
    );

    const refused = await addEmojis(deps, viewer, {
      emojiSetId: set.id,
      emojis: [
        { name: 'photo', src },
        { name: 'page', src: page },
      ],
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await storage.head(`emoji/${set.id}/page.png`)).toBeNull();
    expect((await getEmojiSet(deps, viewer, { id: set.id })).emojis).toEqual([]);

    const added = await addEmojis(deps, viewer, { emojiSetId: set.id, emojis: [{ name: 'photo', src }] });
    expect(added.emojis.map((e) => [e.name, e.src])).toEqual([['photo', src]]);
    const stored = await bytesOf(`emoji/${set.id}/photo.jpeg`);
    expect(stored.includes('secret name')).toBe(false);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'jpeg', width: 24, height: 24 });

    const missing = await addEmojis(deps, viewer, {
      emojiSetId: set.id,
      emojis: [{ name: 'ghost', src: `${BED}/emoji/${set.id}/ghost.webp` }],
    }).catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 400, code: 'UPLOAD_INCOMPLETE' });
  });
});

describe('updatedAt', () => {
  it('moves forward on every change, even within one millisecond or behind a clock step back', () => {
    const previous = '2026-11-24T10:00:00.000Z';
    expect(nextUpdatedAt(previous, new Date('2026-11-24T10:00:01.000Z'))).toBe('2026-11-24T10:00:01.000Z');
    expect(nextUpdatedAt(previous, new Date(previous))).toBe('2026-11-24T10:00:00.001Z');
    expect(nextUpdatedAt(previous, new Date('2026-11-24T09:59:00.000Z'))).toBe('2026-11-24T10:00:00.001Z');
  });
});
