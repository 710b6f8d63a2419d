import { randomUUID } from 'node:crypto';
import { createWriteStream, type Stats } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createSignedPutHandler } from './signed-put-handler.ts';
import { signUploadUrl, verifyUploadUrl, type UploadGrant } from './signed-url.ts';
import {
  addressUsed,
  assertContentTypeFits,
  assertValidKey,
  checkPresignInput,
  contentTypeForKey,
  encodeKeyPath,
  StorageError,
  tooLarge,
  type PresignedPut,
  type PresignPutInput,
  type Storage,
  type StoredObject,
  type StoredObjectInfo,
} from './storage.ts';

export interface LocalStorageOptions {
  /** The media folder (DATA_DIR/media); created 0700 when missing. */
  dir: string;
  /** Signs upload addresses; at least 32 characters, kept between restarts so addresses stay valid. */
  secret: string;
  /** Where signed PUTs go, e.g. `https://example.com/media-upload`; its path is what the handler expects. */
  uploadBaseUrl: string;
  /** Where stored files are read, e.g. IMAGE_BED_URL (`https://example.com/media`). */
  publicBaseUrl: string;
  /** Milliseconds since the epoch; replaceable so expiry can be tested. */
  now?: () => number;
  /** Told about failures that are not the client's fault (full disk, permissions). */
  onError?: (error: unknown) => void;
}

// Uploads are written here first and renamed into place, so a file is either complete or absent.
// A dot folder: keys cannot start with a dot, and /media does not serve dot files.
const TEMP_FOLDER = '.tmp';

const isMissing = (error: unknown) =>
  error instanceof Error && 'code' in error && ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(String(error.code));

const isTaken = (error: unknown) => error instanceof Error && 'code' in error && error.code === 'EEXIST';

const incomplete = (cause?: unknown) => {
  const error = new StorageError(400, 'UPLOAD_INCOMPLETE', 'server.storage.interrupted');
  if (cause !== undefined) error.cause = cause;
  return error;
};

/** Checks an uploaded temp file of this content type; throws a StorageError to refuse it. */
export type UploadInspector = (file: string, contentType: string) => Promise<void>;

/** Files in a folder on this machine; uploads arrive through signed PUT addresses served by `handleSignedPut`. */
export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  readonly dir: string;
  /** Answers a signed upload (plain node:http); mount it at the path of `uploadBaseUrl`. */
  readonly handleSignedPut: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  private readonly secret: string;
  private readonly uploadBaseUrl: string;
  private readonly uploadPath: string;
  private readonly publicBaseUrl: string;
  private readonly now: () => number;

  constructor(options: LocalStorageOptions) {
    if (options.secret.length < 32) throw new Error('The upload signing secret must be at least 32 characters');
    this.dir = path.resolve(options.dir);
    this.secret = options.secret;
    this.uploadBaseUrl = options.uploadBaseUrl.replace(/\/+$/, '');
    this.uploadPath = new URL(this.uploadBaseUrl, 'http://localhost').pathname;
    this.publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
    this.handleSignedPut = createSignedPutHandler(this, options.onError ?? (() => {}));
  }

  async presignPut(input: PresignPutInput): Promise<PresignedPut> {
    const maxBytes = checkPresignInput(input);
    const expires = Math.floor(this.now() / 1000) + input.expiresInSeconds;
    const grant: UploadGrant = { key: input.key, contentType: input.contentType, maxBytes, expires };
    return {
      url: signUploadUrl(this.uploadBaseUrl, grant, this.secret),
      headers: { 'Content-Type': input.contentType },
      expiresAt: new Date(expires * 1000),
    };
  }

  /** What a signed upload request (its path and query) may do; throws a 403 StorageError otherwise. */
  verifyUpload(requestTarget: string): UploadGrant {
    return verifyUploadUrl(requestTarget, this.uploadPath, this.secret, this.now());
  }

  async put(key: string, body: Uint8Array | Readable, contentType: string): Promise<StoredObjectInfo> {
    assertValidKey(key);
    assertContentTypeFits(key, contentType);
    return this.write(key, body, Number.MAX_SAFE_INTEGER);
  }

  /** Checks (and may rewrite) every file a signed upload brings before it is served; see `inspectUploads`. */
  private uploadInspector: UploadInspector | null = null;

  /**
   * Has every signed upload checked before it is renamed into place: `inspect` gets the temp file
   * and its content type, may rewrite the file, and throws a StorageError to refuse it (nothing is
   * kept). The media module installs its image check here.
   */
  inspectUploads(inspect: UploadInspector): void {
    this.uploadInspector = inspect;
  }

  /**
   * A signed upload's body: written like `write`, checked by the upload inspector first, and never over
   * an existing object (409 UPLOAD_URL_USED): of two PUTs to one address exactly one is kept.
   */
  receiveUpload(key: string, source: Readable, maxBytes: number, contentType: string): Promise<StoredObjectInfo> {
    const inspect = this.uploadInspector;
    return this.write(key, source, maxBytes, inspect ? (file) => inspect(file, contentType) : undefined, {
      exclusive: true,
    });
  }

  /**
   * Writes to a temp file and moves it into place. Past `maxBytes` it stops with a 413 StorageError;
   * a source that ends early or fails gives UPLOAD_INCOMPLETE. Either way no file is left behind.
   * `inspect` looks at a non-empty temp file before it is moved, and may refuse it by throwing.
   * `exclusive` keeps an existing object and answers UPLOAD_URL_USED instead of replacing it.
   */
  async write(
    key: string,
    source: Uint8Array | Readable,
    maxBytes: number,
    inspect?: (file: string) => Promise<void>,
    options: { exclusive?: boolean } = {},
  ): Promise<StoredObjectInfo> {
    const target = this.pathFor(key);
    const tempDir = path.join(this.dir, TEMP_FOLDER);
    await mkdir(tempDir, { recursive: true, mode: 0o700 });
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const temp = path.join(tempDir, `${randomUUID()}.part`);
    try {
      if (source instanceof Uint8Array) {
        if (source.byteLength > maxBytes) throw tooLarge(maxBytes);
        await writeFile(temp, source, { flag: 'wx', mode: 0o600, flush: true });
      } else {
        await streamToFile(source, temp, maxBytes);
      }
      if (inspect && (await stat(temp)).size > 0) await inspect(temp);
      if (options.exclusive) {
        // link() fails when the target exists, in one step, so it settles races between processes too.
        await link(temp, target).catch((error: unknown) => Promise.reject(isTaken(error) ? addressUsed() : error));
        await rm(temp, { force: true });
      } else {
        await rename(temp, target);
      }
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const info = await this.head(key);
    if (!info) throw new Error(`${target} vanished right after it was written`);
    return info;
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    let handle;
    try {
      handle = await open(this.pathFor(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return null;
    }
    return { ...this.infoFrom(key, stats), body: handle.createReadStream() };
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    assertValidKey(key);
    try {
      const stats = await stat(this.pathFor(key));
      return stats.isFile() ? this.infoFrom(key, stats) : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const file = this.pathFor(key);
    const stats = await stat(file).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (stats?.isFile()) await rm(file, { force: true });
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `${this.publicBaseUrl}/${encodeKeyPath(key)}`;
  }

  /** Removes temp files a crashed process left behind (uploads in progress are younger than `olderThanMs`). */
  async removeStaleUploads(olderThanMs = 3600_000): Promise<number> {
    const tempDir = path.join(this.dir, TEMP_FOLDER);
    const names = await readdir(tempDir).catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error)));
    let removed = 0;
    for (const name of names) {
      const file = path.join(tempDir, name);
      const stats = await stat(file).catch(() => null);
      if (stats && this.now() - stats.mtimeMs > olderThanMs) {
        await rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  private pathFor(key: string): string {
    assertValidKey(key);
    const file = path.join(this.dir, ...key.split('/'));
    // The key rules already forbid escaping the folder; this keeps it true if they ever change.
    if (!file.startsWith(this.dir + path.sep))
      throw new StorageError(400, 'VALIDATION_FAILED', 'server.storage.pathInvalid');
    return file;
  }

  private infoFrom(key: string, stats: Stats): StoredObjectInfo {
    return {
      key,
      size: stats.size,
      contentType: contentTypeForKey(key) ?? 'application/octet-stream',
      lastModified: stats.mtime,
    };
  }
}

/** Copies `source` into a new file `temp` (0600, synced), failing past `maxBytes` or when the source breaks off. */
async function streamToFile(source: Readable, temp: string, maxBytes: number): Promise<void> {
  // A request whose client left while the folders were being made has already closed.
  if (source.destroyed) throw incomplete();
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  // pipe() does not pass on a source's failure or early end; both must stop the copy.
  const onError = (error: unknown) => counter.destroy(incomplete(error));
  const onClose = () => {
    if (!source.readableEnded) counter.destroy(incomplete());
  };
  source.on('error', onError);
  source.once('close', onClose);
  const out = createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true });
  const outClosed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  source.pipe(counter);
  try {
    await pipeline(counter, out);
  } catch (error) {
    // Leave the source alone: the caller still answers the client on the same connection.
    source.unpipe(counter);
    throw error;
  } finally {
    source.off('error', onError);
    source.off('close', onClose);
    await outClosed;
  }
}
