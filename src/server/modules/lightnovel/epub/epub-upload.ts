import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { messageRef } from '../../../../shared/i18n/index.ts';
import { HttpError } from '../../../platform/errors.ts';
import { formatBytes } from '../../../platform/storage/storage.ts';

export const uploadTooLarge = (maxBytes: number) =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', messageRef('epub.tooLarge', { max: formatBytes(maxBytes) }));

/** Passes bytes on until `maxBytes`, then fails the stream (the body is never read past the cap). */
function capped(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(uploadTooLarge(maxBytes));
      done(null, chunk);
    },
  });
}

/**
 * Streams a request body into a private temporary file, failing with 413 past `maxBytes`, and hands
 * the file to `use`; the file and its folder are removed afterwards whatever happens.
 */
export async function withUploadedFile<T>(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  use: (path: string, size: number) => Promise<T>,
): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'hikari-epub-'));
  try {
    const path = join(folder, 'upload.epub');
    let size = 0;
    const source = body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : Readable.from([]);
    await pipeline(
      source,
      capped(maxBytes),
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(path, { mode: 0o600 }),
    );
    return await use(path, size);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
