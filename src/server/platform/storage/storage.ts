import type { Readable } from 'node:stream';
import type { ErrorCode } from '../../../shared/api.ts';
import { translator } from '../../../shared/i18n/catalogues.ts';
import { messageRef, translateRef, type Locale, type MessageKey, type MessageRef } from '../../../shared/i18n/index.ts';

/** What a stored object is, without its bytes. */
export interface StoredObjectInfo {
  key: string;
  size: number;
  contentType: string;
  lastModified: Date;
}

/** A stored object with a stream of its bytes; the caller must consume or destroy `body`. */
export interface StoredObject extends StoredObjectInfo {
  body: Readable;
}

export interface PresignPutInput {
  key: string;
  /** The one Content-Type the upload must be sent with. */
  contentType: string;
  /** Largest body the address accepts. */
  maxBytes: number;
  expiresInSeconds: number;
  /**
   * The exact size, when the client said it beforehand. S3 signs it (the upload must be exactly this
   * long); the local driver uses it as a tighter cap.
   */
  contentLength?: number;
}

export interface PresignedPut {
  url: string;
  /** Headers the client must send with its PUT. */
  headers: Record<string, string>;
  expiresAt: Date;
}

/** Object storage as both drivers (a folder on disk, an S3-compatible bucket) offer it. */
export interface Storage {
  readonly driver: 'local' | 's3';
  /** An address the client can PUT the object to directly, without credentials. */
  presignPut(input: PresignPutInput): Promise<PresignedPut>;
  /** Stores (or replaces) an object; other readers never see it half written. */
  put(key: string, body: Uint8Array | Readable, contentType: string): Promise<StoredObjectInfo>;
  get(key: string): Promise<StoredObject | null>;
  head(key: string): Promise<StoredObjectInfo | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Where browsers read the object. */
  publicUrl(key: string): string;
}

/** The codes a storage error answers with (each one of the API's ERROR_CODES). */
export const STORAGE_ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UPLOAD_URL_EXPIRED',
  'UPLOAD_URL_USED',
  'UPLOAD_SIGNATURE_INVALID',
  'UPLOAD_INCOMPLETE',
  'METHOD_NOT_ALLOWED',
  'IMAGE_QUEUE_FULL',
  'STORAGE_FULL',
  'INTERNAL_ERROR',
] as const satisfies readonly ErrorCode[];

export type StorageErrorCode = (typeof STORAGE_ERROR_CODES)[number];

/** A storage request the caller (or the uploading client) got wrong, with the HTTP status it maps to. */
export class StorageError extends Error {
  readonly status: number;
  readonly code: StorageErrorCode;
  /** `message` is a message reference (`messageRef`), written in the reader's language by `storageErrorText`. */
  constructor(status: number, code: StorageErrorCode, message: MessageRef) {
    super(message);
    this.name = 'StorageError';
    this.status = status;
    this.code = code;
  }
}

/** A storage message reference in a language (the request's, by the same rule as the pages). */
export function storageText(locale: Locale, message: string): string {
  return translateRef(translator(locale), message);
}

export const MAX_KEY_LENGTH = 512;
const MAX_SEGMENT_LENGTH = 128;
const MAX_SEGMENTS = 8;
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function keyProblem(key: unknown): MessageRef | null {
  const bad = (problem: MessageKey, params?: Record<string, number>) =>
    messageRef(problem, { key: String(JSON.stringify(key)), ...params });
  if (typeof key !== 'string' || key.length === 0) return bad('server.storage.key.empty');
  if (key.length > MAX_KEY_LENGTH) return bad('server.storage.key.tooLong', { max: MAX_KEY_LENGTH });
  if (/[\u0000-\u001f\u007f]/.test(key)) return bad('server.storage.key.control');
  if (key.includes('\\')) return bad('server.storage.key.backslash');
  if (key.startsWith('/')) return bad('server.storage.key.leadingSlash');
  const segments = key.split('/');
  if (segments.length > MAX_SEGMENTS) return bad('server.storage.key.depth', { max: MAX_SEGMENTS });
  for (const segment of segments) {
    if (segment === '') return bad('server.storage.key.emptySegment');
    if (segment === '.' || segment === '..') return bad('server.storage.key.dotSegment');
    if (segment.length > MAX_SEGMENT_LENGTH)
      return bad('server.storage.key.segmentTooLong', { max: MAX_SEGMENT_LENGTH });
    // A leading dot would hide the file from /media and could collide with the driver's own temp folder.
    if (!SEGMENT.test(segment)) return bad('server.storage.key.segmentCharacters');
  }
  return null;
}

/** Throws a 400 StorageError unless `key` is a safe object key such as `avatar/42/a1b2.webp`. */
export function assertValidKey(key: unknown): asserts key is string {
  const problem = keyProblem(key);
  if (problem) throw new StorageError(400, 'VALIDATION_FAILED', problem);
}

export function isValidKey(key: unknown): key is string {
  return keyProblem(key) === null;
}

/** Types objects may be stored as, by file extension. SVG and HTML are left out: they can carry scripts. */
const TYPES_BY_EXTENSION: Record<string, string> = {
  avif: 'image/avif',
  gif: 'image/gif',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  epub: 'application/epub+zip',
};

/** The content type a key's extension stands for, or null when objects of that kind are not stored. */
export function contentTypeForKey(key: string): string | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(key)?.[1]?.toLowerCase();
  return (extension && TYPES_BY_EXTENSION[extension]) || null;
}

/** Lower case, without parameters or spaces, as content types are compared here. */
export function normalizeContentType(value: string | undefined): string {
  return (value ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/**
 * An object is stored only with the type its extension names, so the local driver (which keeps no
 * metadata and serves by extension) and S3 (which serves the stored type) always answer the same,
 * and nothing can be stored as HTML under an image name.
 */
export function assertContentTypeFits(key: string, contentType: string): void {
  const expected = contentTypeForKey(key);
  if (!expected) {
    throw new StorageError(415, 'UNSUPPORTED_MEDIA_TYPE', messageRef('server.storage.typeUnsupported', { key }));
  }
  if (contentType !== expected) {
    throw new StorageError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      messageRef('server.storage.typeMismatch', { type: JSON.stringify(contentType), expected }),
    );
  }
}

/** A week, the longest S3 lets a presigned address live. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** Checks what both drivers need before signing an upload address; returns the size cap to sign. */
export function checkPresignInput(input: PresignPutInput): number {
  assertValidKey(input.key);
  assertContentTypeFits(input.key, input.contentType);
  const { maxBytes, expiresInSeconds, contentLength } = input;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new StorageError(400, 'VALIDATION_FAILED', 'server.storage.maxBytes');
  }
  if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
    throw new StorageError(400, 'VALIDATION_FAILED', messageRef('server.storage.expiry', { max: MAX_PRESIGN_SECONDS }));
  }
  if (contentLength === undefined) return maxBytes;
  if (!Number.isSafeInteger(contentLength) || contentLength < 1) {
    throw new StorageError(400, 'VALIDATION_FAILED', 'server.storage.contentLength');
  }
  if (contentLength > maxBytes) throw tooLarge(maxBytes);
  return contentLength;
}

/** An upload address stores one object: once its key holds one, the address is spent and the object stays. */
export const addressUsed = () => new StorageError(409, 'UPLOAD_URL_USED', 'server.storage.urlUsed');

export const tooLarge = (maxBytes: number) =>
  new StorageError(413, 'PAYLOAD_TOO_LARGE', messageRef('server.storage.tooLarge', { max: formatBytes(maxBytes) }));

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** `a/b c.png` → `a/b%20c.png`: each path segment escaped, the slashes kept. */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/**
 * Checks an object after a presigned upload said it finished. S3 cannot cap the size of a presigned PUT
 * unless the exact length was signed, so the size (and type) is checked again here; an object that
 * breaks the rules is deleted and the caller gets the error to pass on.
 */
export async function confirmUpload(
  storage: Storage,
  key: string,
  rules: { maxBytes: number; contentType: string },
): Promise<StoredObjectInfo> {
  const info = await storage.head(key);
  if (!info) throw new StorageError(400, 'UPLOAD_INCOMPLETE', 'server.storage.notUploaded');
  if (info.size > rules.maxBytes) {
    await storage.delete(key);
    throw tooLarge(rules.maxBytes);
  }
  if (normalizeContentType(info.contentType) !== rules.contentType) {
    await storage.delete(key);
    throw new StorageError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      messageRef('server.storage.typeExpected', { type: rules.contentType }),
    );
  }
  return info;
}
