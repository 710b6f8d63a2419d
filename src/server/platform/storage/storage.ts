import type { Readable } from 'node:stream';
import type { ErrorCode } from '../../../shared/api.ts';

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
  'UPLOAD_SIGNATURE_INVALID',
  'UPLOAD_INCOMPLETE',
  'METHOD_NOT_ALLOWED',
  'INTERNAL_ERROR',
] as const satisfies readonly ErrorCode[];

export type StorageErrorCode = (typeof STORAGE_ERROR_CODES)[number];

/** A storage request the caller (or the uploading client) got wrong, with the HTTP status it maps to. */
export class StorageError extends Error {
  readonly status: number;
  readonly code: StorageErrorCode;
  constructor(status: number, code: StorageErrorCode, message: string) {
    super(message);
    this.name = 'StorageError';
    this.status = status;
    this.code = code;
  }
}

export const MAX_KEY_LENGTH = 512;
const MAX_SEGMENT_LENGTH = 128;
const MAX_SEGMENTS = 8;
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function keyProblem(key: unknown): string | null {
  if (typeof key !== 'string' || key.length === 0) return '不能为空';
  if (key.length > MAX_KEY_LENGTH) return `不能超过 ${MAX_KEY_LENGTH} 个字符`;
  if (/[\u0000-\u001f\u007f]/.test(key)) return '不能包含控制字符';
  if (key.includes('\\')) return '不能包含反斜杠';
  if (key.startsWith('/')) return '不能以 / 开头';
  const segments = key.split('/');
  if (segments.length > MAX_SEGMENTS) return `最多 ${MAX_SEGMENTS} 级目录`;
  for (const segment of segments) {
    if (segment === '') return '不能包含空的路径段（// 或结尾的 /）';
    if (segment === '.' || segment === '..') return '不能包含 . 或 .. 路径段';
    if (segment.length > MAX_SEGMENT_LENGTH) return `每段不能超过 ${MAX_SEGMENT_LENGTH} 个字符`;
    // A leading dot would hide the file from /media and could collide with the driver's own temp folder.
    if (!SEGMENT.test(segment)) return '每段只能由字母、数字、.、_、- 组成，且不能以 . 开头';
  }
  return null;
}

/** Throws a 400 StorageError unless `key` is a safe object key such as `avatar/42/a1b2.webp`. */
export function assertValidKey(key: unknown): asserts key is string {
  const problem = keyProblem(key);
  if (problem) throw new StorageError(400, 'VALIDATION_FAILED', `存储路径 ${JSON.stringify(key)} 无效：${problem}`);
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
    throw new StorageError(415, 'UNSUPPORTED_MEDIA_TYPE', `不支持的文件类型：${key}`);
  }
  if (contentType !== expected) {
    throw new StorageError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `文件类型 ${JSON.stringify(contentType)} 与文件名不符，应为 ${expected}`,
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
    throw new StorageError(400, 'VALIDATION_FAILED', 'maxBytes 必须是正整数');
  }
  if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
    throw new StorageError(400, 'VALIDATION_FAILED', `上传地址的有效期必须在 1 到 ${MAX_PRESIGN_SECONDS} 秒之间`);
  }
  if (contentLength === undefined) return maxBytes;
  if (!Number.isSafeInteger(contentLength) || contentLength < 1) {
    throw new StorageError(400, 'VALIDATION_FAILED', 'contentLength 必须是正整数');
  }
  if (contentLength > maxBytes) throw tooLarge(maxBytes);
  return contentLength;
}

export const tooLarge = (maxBytes: number) =>
  new StorageError(413, 'PAYLOAD_TOO_LARGE', `文件过大，最大 ${formatBytes(maxBytes)}`);

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
  if (!info) throw new StorageError(400, 'UPLOAD_INCOMPLETE', '文件还没有上传完成，请重新上传');
  if (info.size > rules.maxBytes) {
    await storage.delete(key);
    throw tooLarge(rules.maxBytes);
  }
  if (normalizeContentType(info.contentType) !== rules.contentType) {
    await storage.delete(key);
    throw new StorageError(415, 'UNSUPPORTED_MEDIA_TYPE', `文件类型应为 ${rules.contentType}`);
  }
  return info;
}
