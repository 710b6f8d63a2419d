import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
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
 * Streams a request body into a private temporary file under `tempDir` (in the data folder, on disk:
 * the system's temporary folder is often memory), failing with 413 past `maxBytes`, and hands the file
 * to `use`; the file and its folder are removed afterwards whatever happens.
 */
export async function withUploadedFile<T>(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tempDir: string,
  use: (path: string, size: number) => Promise<T>,
): Promise<T> {
  await mkdir(tempDir, { recursive: true, mode: 0o700 });
  const folder = await mkdtemp(join(tempDir, 'epub-'));
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

/**
 * At most `max` tasks run at once; a further one waits up to `waitMs` for a turn and is then refused
 * with the error `refused` makes. A finishing task hands its turn to the oldest waiting one.
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  readonly max: number;
  waitMs: number;
  constructor(max: number, waitMs: number) {
    this.max = max;
    this.waitMs = waitMs;
  }

  async run<T>(task: () => Promise<T>, refused: () => Error): Promise<T> {
    if (this.active < this.max) this.active++;
    else await this.turn(refused);
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  private turn(refused: () => Error): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        reject(refused());
      }, this.waitMs);
      this.waiting.push(go);
    });
  }
}

/**
 * Removes upload folders a crashed process left in `tempDir` (older than `olderThanMs`, far longer than
 * any upload may take, so another process's upload in progress is never touched).
 */
export async function removeStaleUploads(tempDir: string, olderThanMs = 60 * 60 * 1000, now = Date.now()) {
  let names: string[];
  try {
    names = await readdir(tempDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith('epub-')) continue;
    const folder = join(tempDir, name);
    try {
      if (now - (await stat(folder)).mtimeMs < olderThanMs) continue;
      await rm(folder, { recursive: true, force: true });
      removed++;
    } catch {
      // Gone meanwhile.
    }
  }
  return removed;
}
