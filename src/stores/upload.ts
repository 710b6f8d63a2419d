import type { UploadAddress, UploadFormat } from '../shared/media/upload.ts';
import type { Translate } from '../shared/i18n/index.ts';
import {
  compressImage,
  describeUploadFailure,
  UploadFailure,
  type CompressOptions,
  type UploadReason,
} from './image-compress.ts';
import { $publicConfig } from './public-config.ts';
import { $session } from './session.ts';

/**
 * One image from the member's device to our storage (spec §7 Upload, §4 image upload states): checked,
 * compressed in the browser, an upload address asked for, the image PUT there with its content type.
 */

export type UploadStatus = 'processing' | 'uploading' | 'done' | 'error';

/** What the upload belongs to: `{type, id}` of `POST /api/upload`. */
export interface UploadTarget {
  type: string;
  id: string | number;
}

export interface UploadOptions {
  /** Compression settings beyond the defaults (the insert dialog turns resizing on). */
  compress?: Partial<CompressOptions>;
  signal?: AbortSignal;
  onStatus?: (status: Exclude<UploadStatus, 'error'>) => void;
  /** Bytes sent so far while uploading. */
  onProgress?: (loaded: number, total: number) => void;
}

export interface UploadedImage {
  /** Public URL: the image bed + `type/id/` + the file name of the upload address. */
  url: string;
  width: number;
  height: number;
  bytes: number;
}

/** The transport, replaceable in tests. */
export interface UploadDeps {
  requestAddress(
    target: UploadTarget,
    format: UploadFormat,
    size: number,
    signal?: AbortSignal,
  ): Promise<UploadAddress>;
  put(address: UploadAddress, blob: Blob, options: Pick<UploadOptions, 'signal' | 'onProgress'>): Promise<void>;
  compress: typeof compressImage;
  loggedIn(): boolean;
  imageBedUrl(): string;
}

const FORMAT_OF_TYPE: Record<string, UploadFormat> = {
  'image/webp': 'webp',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/**
 * The public URL of an upload (spec §7): the image bed, `type/id/`, and the last path segment of the
 * upload address (its query, the signature, is not part of the name).
 */
export function publicImageUrl(imageBedUrl: string, target: UploadTarget, uploadUrl: string): string {
  let name = '';
  try {
    name = new URL(uploadUrl, 'http://upload.invalid').pathname.split('/').pop() ?? '';
  } catch {
    name = '';
  }
  if (!/^[A-Za-z0-9_-]+\.[a-z0-9]+$/.test(name)) throw new UploadFailure('upload.reason.filename');
  return `${imageBedUrl.replace(/\/+$/, '')}/${target.type}/${target.id}/${name}`;
}

/**
 * What to tell the member: the checks before an upload (log in, choose an image, images only) as they
 * are, a failed step as `upload failed: {reason}`. An AbortError (the image was removed) says nothing.
 */
export function uploadFailureText(t: Translate, error: unknown): string {
  const reason =
    typeof error === 'string' ? (error as UploadReason) : error instanceof UploadFailure ? error.reason : null;
  if (reason === 'upload.loginFirst' || reason === 'upload.selectImage' || reason === 'upload.invalidType')
    return t(reason);
  return describeUploadFailure(typeof error === 'string' ? new UploadFailure(error as UploadReason) : error, t);
}

export async function uploadImage(
  file: Blob | null | undefined,
  target: UploadTarget,
  options: UploadOptions = {},
  deps: UploadDeps = browserDeps,
): Promise<UploadedImage> {
  if (!deps.loggedIn()) throw new UploadFailure('upload.loginFirst');
  if (!file) throw new UploadFailure('upload.selectImage');
  if (!file.type.startsWith('image/')) throw new UploadFailure('upload.invalidType');
  options.onStatus?.('processing');
  const compressed = await deps.compress(file, { ...options.compress, signal: options.signal });
  const format = FORMAT_OF_TYPE[compressed.blob.type];
  if (!format) throw new UploadFailure('upload.reason.conversion');
  options.onStatus?.('uploading');
  const address = await deps.requestAddress(target, format, compressed.blob.size, options.signal);
  await deps.put(address, compressed.blob, options);
  const url = publicImageUrl(deps.imageBedUrl(), target, address.url);
  options.onStatus?.('done');
  return { url, width: compressed.width, height: compressed.height, bytes: compressed.blob.size };
}

/** A PUT that has sent nothing for this long is given up (the connection is gone). */
export const PUT_STALL_MS = 60_000;

/** PUTs with XMLHttpRequest, the one browser API that reports upload progress. */
function xhrPut(
  address: UploadAddress,
  blob: Blob,
  options: Pick<UploadOptions, 'signal' | 'onProgress'>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(new DOMException('The upload was cancelled', 'AbortError'));
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    let stall = setTimeout(() => xhr.abort(), PUT_STALL_MS);
    let stalled = false;
    const settle = () => {
      clearTimeout(stall);
      signal?.removeEventListener('abort', onAbort);
    };
    xhr.open('PUT', address.url);
    for (const [name, value] of Object.entries(address.headers)) {
      // The browser sets Content-Length itself and refuses to be told.
      if (name.toLowerCase() !== 'content-length') xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      clearTimeout(stall);
      stall = setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, PUT_STALL_MS);
      options.onProgress?.(event.loaded, event.lengthComputable ? event.total : blob.size);
    };
    xhr.onload = () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      reject(new UploadFailure('upload.reason.storage', { status: storageMessage(xhr) }));
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadFailure('upload.reason.storage', { status: xhr.statusText || 'network error' }));
    };
    xhr.onabort = () => {
      settle();
      reject(
        stalled || !signal?.aborted
          ? new UploadFailure('upload.reason.storage', { status: 'timeout' })
          : new DOMException('The upload was cancelled', 'AbortError'),
      );
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(blob);
  });
}

/** Our storage answers with a JSON envelope whose message says what went wrong; S3 with XML. */
function storageMessage(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not ours
  }
  return xhr.statusText || String(xhr.status);
}

const browserDeps: UploadDeps = {
  async requestAddress(target, format, size, signal) {
    const [{ api }, { mediaContract }] = await Promise.all([
      import('./api-client.ts'),
      import('../shared/media/media.contract.ts'),
    ]);
    try {
      const answer = await api.call(
        mediaContract.upload,
        { body: { type: target.type, id: String(target.id), format, size } },
        { signal },
      );
      return answer.data;
    } catch (error) {
      // The server's message (too many uploads, creators only…) says more than the generic reason.
      const message = error instanceof Error && error.message ? error.message : '';
      throw message
        ? new UploadFailure('upload.reason.addressRefused', { detail: message }, { cause: error })
        : new UploadFailure('upload.reason.address', undefined, { cause: error });
    }
  },
  put: xhrPut,
  compress: compressImage,
  loggedIn: () => $session.get() !== null,
  imageBedUrl: () => $publicConfig.get().imageBedUrl,
};
