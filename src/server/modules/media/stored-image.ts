import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { messageRef } from '../../../shared/i18n/index.ts';
import { sharedTransformQueue } from './image.service.ts';
import { HttpError } from '../../platform/errors.ts';
import { UPLOAD_MAX_BYTES } from '../../../shared/media/upload.ts';
import {
  confirmUpload,
  contentTypeForKey,
  type Storage,
  StorageError,
  type StoredObjectInfo,
  tooLarge,
} from '../../platform/storage/storage.ts';

/** Most pixels an uploaded image may have, all frames counted (a 40-megapixel photo; bombs are refused). */
export const MAX_UPLOAD_PIXELS = 40_000_000;
/** Longest side. */
export const MAX_UPLOAD_SIDE = 16_384;

/** The format sharp reports for each content type we store. */
const FORMATS: Record<string, { format: 'webp' | 'jpeg' | 'png' | 'gif' | 'avif'; reported: string }> = {
  'image/webp': { format: 'webp', reported: 'webp' },
  'image/jpeg': { format: 'jpeg', reported: 'jpeg' },
  'image/png': { format: 'png', reported: 'png' },
  'image/gif': { format: 'gif', reported: 'gif' },
  'image/avif': { format: 'avif', reported: 'heif' },
};

const notImage = () => new StorageError(415, 'UNSUPPORTED_MEDIA_TYPE', 'server.upload.notImage');

/**
 * How a checked image is written again. WebP, what browsers send, at quality 82 and the fastest effort:
 * a 12-megapixel photo takes 0.7 s instead of 1.9 s and comes out no larger than it went in (the
 * browser has compressed it already; quality 90 would grow it by half).
 */
const ENCODE_OPTIONS: Partial<Record<string, object>> = {
  webp: { quality: 82, effort: 0 },
  png: { compressionLevel: 9 },
};

/**
 * An uploaded image made safe to serve: it must decode as an image of the format its content type says
 * (an HTML or SVG page named .png does not), within the pixel limits (read from the header, before
 * decoding: a decompression bomb never expands), and it is written again by sharp, which keeps the
 * pixels (and frames) but drops EXIF, GPS and other metadata. Throws a StorageError the uploader sees.
 */
export async function sanitizeImage(input: Buffer, contentType: string): Promise<Buffer> {
  const expected = FORMATS[contentType];
  if (!expected) throw notImage();
  const open = (limitInputPixels: number | false) =>
    sharp(input, { limitInputPixels, animated: true, failOn: 'error' });
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    // The header only: the size is checked before a single pixel is decoded.
    meta = await open(false).metadata();
  } catch {
    throw notImage();
  }
  if (meta.format !== expected.reported) throw notImage();
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const frames = meta.pages ?? 1;
  if (width < 1 || height < 1) throw notImage();
  if (width > MAX_UPLOAD_SIDE || height > MAX_UPLOAD_SIDE || width * height * frames > MAX_UPLOAD_PIXELS) {
    throw new StorageError(
      413,
      'PAYLOAD_TOO_LARGE',
      messageRef('server.upload.tooManyPixels', { max: MAX_UPLOAD_PIXELS / 1_000_000 }),
    );
  }
  let pipeline = open(MAX_UPLOAD_PIXELS);
  // The camera's orientation is applied to the pixels, since the tag that said it goes.
  if (frames === 1 && meta.orientation !== undefined && meta.orientation !== 1) pipeline = pipeline.rotate();
  try {
    return await pipeline.toFormat(expected.format, ENCODE_OPTIONS[expected.format] ?? { quality: 90 }).toBuffer();
  } catch {
    throw notImage();
  }
}

/**
 * Upload checks wait in the image queue that /img uses, so a few decodes run at a time however many
 * uploads arrive (a 40-megapixel decode takes 160 MB). Uploads wait longer than page images would:
 * a member who just chose a picture would rather wait a few seconds than be refused, and a waiting
 * upload holds nothing but its request (the file is read when its turn comes). A page image that
 * arrives during a burst of uploads takes the next free slot (the client with the fewest running goes
 * first), so it waits for one upload check at most (under a second).
 */
export const UPLOAD_QUEUE_LIMITS = { maxQueued: 256, perClientQueued: 256 } as const;

/** `sanitizeImage` of the bytes `load` gives, in the image queue; refused with 503 past its limits. */
async function sanitizeInQueue(load: () => Promise<Buffer>, contentType: string): Promise<Buffer> {
  try {
    return await sharedTransformQueue.run(
      'uploads',
      async () => sanitizeImage(await load(), contentType),
      UPLOAD_QUEUE_LIMITS,
    );
  } catch (error) {
    // The queue's refusals (too many waiting) in the storage's terms; anything else as it is.
    if (error instanceof HttpError && (error.status === 429 || error.status === 503))
      throw new StorageError(503, 'IMAGE_QUEUE_FULL', 'server.imageQueueFull');
    throw error;
  }
}

/** The local driver's check of a signed upload, on its temp file before it is renamed into place. */
export async function sanitizeUploadedImage(file: string, contentType: string): Promise<void> {
  await writeFile(file, await sanitizeInQueue(() => readFile(file), contentType), { mode: 0o600 });
}

/**
 * Checks an uploaded image the first time something uses it (a comment, an avatar). Uploads to S3 go
 * straight to the bucket, so this is where they get the same treatment as local ones: within the size
 * cap, really an image of its type, metadata stripped (the object is replaced). An object that fails
 * is deleted and the error is passed on. Local uploads were checked on arrival, so they pass as they are.
 */
export async function confirmStoredImage(storage: Storage, key: string): Promise<StoredObjectInfo> {
  const contentType = contentTypeForKey(key);
  if (!contentType?.startsWith('image/')) throw notImage();
  const info = await confirmUpload(storage, key, { maxBytes: UPLOAD_MAX_BYTES, contentType });
  if (storage.driver === 'local') return info;
  // The object is opened when its turn in the queue comes (a waiting check holds no connection), and read
  // no further than the cap: it may have been PUT again, larger, since the size was looked at.
  const read = async () => {
    const object = await storage.get(key);
    if (!object) throw new StorageError(400, 'UPLOAD_INCOMPLETE', 'server.storage.notUploaded');
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of object.body) {
      bytes += (chunk as Buffer).length;
      if (bytes > UPLOAD_MAX_BYTES) {
        object.body.destroy();
        throw tooLarge(UPLOAD_MAX_BYTES);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  };
  let safe: Buffer;
  try {
    safe = await sanitizeInQueue(read, contentType);
  } catch (error) {
    // Only an image refused for what it is goes; a busy queue or a network error leaves it for next time.
    if (error instanceof StorageError && (error.status === 413 || error.status === 415)) await storage.delete(key);
    throw error;
  }
  return storage.put(key, safe, contentType);
}
