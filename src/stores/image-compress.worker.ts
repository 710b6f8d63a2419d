import type CompressorClass from 'compressorjs';
import type { CompressSettings, UploadReason } from './image-compress.ts';

/**
 * The image compressor behind `compressImage` (image-compress.ts): compressorjs at a falling quality
 * until the image fits. This module is loaded two ways:
 * - as a module Web Worker (the normal case): it gives compressorjs the few DOM objects it expects
 *   (`window`, `document.createElement('canvas')`, `Image`), built on OffscreenCanvas and
 *   createImageBitmap, says `{ready}` once, then answers each `{id, file, options}` with
 *   `{id, ok: true, blob, width, height, quality, iterations}` or `{id, ok: false, reason}`, and stops
 *   the request on `{id, abort: true}`;
 * - imported on the page when a worker cannot be used: it then runs on the main thread with the real
 *   DOM and installs nothing.
 */

export interface CompressRequest {
  id: number;
  file: Blob;
  options: CompressSettings;
}
/** The page gave up waiting (its AbortSignal fired): stop the work and send nothing back. */
export interface AbortRequest {
  id: number;
  abort: true;
}
export type WorkerRequest = CompressRequest | AbortRequest;

export interface Compressed {
  blob: Blob;
  width: number;
  height: number;
  quality: number;
  iterations: number;
}
export type CompressOutcome = ({ ok: true } & Compressed) | { ok: false; reason: UploadReason };
export type CompressReply = CompressOutcome & { id: number };
/** Sent once after start: whether this worker can compress (else the page compresses itself). */
export interface WorkerReady {
  ready: boolean;
}
export type WorkerMessage = CompressReply | WorkerReady;

/** One encoding of the image at a quality, in a format. */
export interface Encoded {
  blob: Blob;
  width: number;
  height: number;
}
export type Encoder = (quality: number, mimeType: string) => Promise<Encoded>;
export type StepSettings = Pick<
  CompressSettings,
  'maxSizeBytes' | 'quality' | 'minQuality' | 'step' | 'maxIterations' | 'mimeType'
>;

/** Formats whose size follows the quality setting; for the others one attempt says it all. */
const LOSSY_TYPES = new Set(['image/webp', 'image/jpeg', 'image/avif']);
/** Every browser's canvas writes JPEG; Safari's writes no WebP and silently gives PNG instead. */
const FALLBACK_TYPE = 'image/jpeg';

/** A failure with the message key the upload shows as its reason. */
export class EncodeFailure extends Error {
  override readonly name = 'EncodeFailure';
  readonly reason: UploadReason;

  constructor(reason: UploadReason) {
    super(reason);
    this.reason = reason;
  }
}

const roundQuality = (quality: number) => Math.round(quality * 1e6) / 1e6;

/**
 * The quality loop: encode at `quality`; while the result is larger than `maxSizeBytes`, lower the
 * quality by `step` (never below `minQuality`), for at most `maxIterations` encodings. The first result
 * that fits wins. When the lowest quality still does not fit, the answer is a failure
 * (`upload.reason.tooLarge`), not an oversized image: the caller can retry with `resize: true`.
 * When the browser cannot write the asked format (its result has another type), the next attempts use
 * JPEG at the same quality.
 */
export async function compressWithQualitySteps(
  encode: Encoder,
  settings: StepSettings,
  signal?: AbortSignal,
): Promise<CompressOutcome> {
  let quality = settings.quality;
  let mimeType = settings.mimeType;
  let iterations = 0;
  while (iterations < settings.maxIterations) {
    signal?.throwIfAborted();
    const encoded = await encode(quality, mimeType);
    iterations += 1;
    if (encoded.blob.type !== mimeType && mimeType !== FALLBACK_TYPE && LOSSY_TYPES.has(mimeType)) {
      mimeType = FALLBACK_TYPE;
      continue;
    }
    if (encoded.blob.size <= settings.maxSizeBytes) return { ok: true, ...encoded, quality, iterations };
    if (quality <= settings.minQuality || !LOSSY_TYPES.has(mimeType)) break;
    quality = Math.max(settings.minQuality, roundQuality(quality - settings.step));
  }
  return { ok: false, reason: 'upload.reason.tooLarge' };
}

/** compressorjs reports failures as English sentences; each maps to one upload reason. */
const COMPRESSOR_ERRORS: [RegExp, UploadReason][] = [
  [/must be (a File or Blob|an image)/i, 'upload.reason.notImage'],
  [/does not support image compression/i, 'upload.reason.canvas'],
  [/compressed image/i, 'upload.reason.conversion'],
  [/read the image/i, 'upload.reason.readInfo'],
  [/load the image/i, 'upload.reason.imageLoad'],
];

export function reasonOfCompressorError(error: unknown): UploadReason {
  if (error instanceof EncodeFailure) return error.reason;
  const message = error instanceof Error ? error.message : String(error);
  return COMPRESSOR_ERRORS.find(([pattern]) => pattern.test(message))?.[1] ?? 'upload.reason.processing';
}

type Compressor = InstanceType<typeof CompressorClass>;
interface ClosableImage {
  close?: () => void;
}
/** The canvas compressorjs drew on: an HTMLCanvasElement on the page, the stand-in in the worker. */
interface DrawnCanvas {
  width: number;
  height: number;
  toBlob(callback: (blob: Blob | null) => void, type?: string, quality?: number): void;
}

/** An encoder that keeps what it drew between calls; `dispose` frees it. */
export type CanvasEncoder = Encoder & { dispose(): void };

/**
 * Encodes with compressorjs. EXIF orientation is applied (compressorjs reads it from JPEGs; the decoder
 * applies it for the other formats) and EXIF is dropped, location included. `strict` is off: the loop,
 * not compressorjs, decides whether the original is kept. The first call runs compressorjs (read,
 * decode, orient, resize, draw, encode); later calls in the same format encode the canvas it drew
 * again at the new quality, which is what compressorjs would do after the same steps.
 */
export function compressorEncoder(
  Compressor: typeof CompressorClass,
  file: Blob,
  settings: Pick<CompressSettings, 'resize' | 'maxWidth' | 'maxHeight'>,
  signal?: AbortSignal,
): CanvasEncoder {
  let kept: { canvas: DrawnCanvas; mimeType: string } | null = null;

  const encodeAgain = (canvas: DrawnCanvas, quality: number, mimeType: string) =>
    new Promise<Encoded>((resolve, reject) => {
      canvas.toBlob(
        (blob) => {
          if (blob) resolve({ blob, width: canvas.width, height: canvas.height });
          else reject(new EncodeFailure('upload.reason.conversion'));
        },
        mimeType,
        quality,
      );
    });

  const firstEncoding = (quality: number, mimeType: string) =>
    new Promise<Encoded>((resolve, reject) => {
      let drawn: DrawnCanvas | null = null;
      let compressor: Compressor | null = null;
      const onAbort = () => compressor?.abort();
      const finish = () => {
        signal?.removeEventListener('abort', onAbort);
        // The worker's Image holds a decoded bitmap (tens of MB for a photo): free it now.
        (compressor as unknown as { image?: ClosableImage } | null)?.image?.close?.();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      compressor = new Compressor(file, {
        strict: false,
        checkOrientation: true,
        retainExif: false,
        quality,
        mimeType,
        convertSize: Infinity,
        ...(settings.resize ? { maxWidth: settings.maxWidth, maxHeight: settings.maxHeight } : {}),
        drew(_context, canvas) {
          drawn = canvas;
        },
        success(result) {
          finish();
          // compressorjs hands back the original when it could not draw (no usable canvas) or when the
          // canvas could not be written in the asked format.
          if (result === file || !drawn) {
            reject(new EncodeFailure(drawn ? 'upload.reason.conversion' : 'upload.reason.canvas'));
            return;
          }
          kept = { canvas: drawn, mimeType };
          resolve({ blob: result, width: drawn.width, height: drawn.height });
        },
        error(error) {
          finish();
          reject(signal?.aborted ? signal.reason : error);
        },
      });
      if (signal?.aborted) onAbort();
    });

  const encode = (quality: number, mimeType: string) => {
    // A JPEG is drawn on white, other formats on transparent: another format means drawing again.
    if (kept && kept.mimeType === mimeType) return encodeAgain(kept.canvas, quality, mimeType);
    kept = null;
    return firstEncoding(quality, mimeType);
  };
  return Object.assign(encode, {
    dispose() {
      // Shrinking the canvas frees its pixels now rather than at the next garbage collection.
      if (kept) kept.canvas.width = kept.canvas.height = 0;
      kept = null;
    },
  });
}

let compressorModule: Promise<typeof CompressorClass> | null = null;

/** compressorjs, loaded on first use (in the worker: after the DOM stand-ins exist). */
export function loadCompressor(): Promise<typeof CompressorClass> {
  compressorModule ??= import('compressorjs').then((module) => module.default);
  return compressorModule;
}

/**
 * Compresses in this thread. A failure comes back as `{ok: false, reason}`; an abort rejects with the
 * signal's reason.
 */
export async function compressHere(
  file: Blob,
  settings: CompressSettings,
  signal?: AbortSignal,
): Promise<CompressOutcome> {
  try {
    const encoder = compressorEncoder(await loadCompressor(), file, settings, signal);
    try {
      return await compressWithQualitySteps(encoder, settings, signal);
    } finally {
      encoder.dispose();
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return { ok: false, reason: reasonOfCompressorError(error) };
  }
}

/** The worker's side of the protocol: requests run side by side, matched to replies by id. */
export function createRequestHandler(
  compress: (file: Blob, settings: CompressSettings, signal: AbortSignal) => Promise<CompressOutcome>,
  post: (reply: CompressReply) => void,
): (request: WorkerRequest) => void {
  const running = new Map<number, AbortController>();
  return (request) => {
    if ('abort' in request) {
      running.get(request.id)?.abort();
      running.delete(request.id);
      return;
    }
    const { id, file, options } = request;
    const controller = new AbortController();
    running.set(id, controller);
    const reply = (outcome: CompressOutcome) => {
      if (controller.signal.aborted) return;
      running.delete(id);
      post({ id, ...outcome });
    };
    compress(file, options, controller.signal).then(reply, () =>
      reply({ ok: false, reason: 'upload.reason.processing' }),
    );
  };
}

/** What the stand-ins need from the worker's global scope (injectable for tests). */
export interface ShimScope {
  OffscreenCanvas: typeof OffscreenCanvas;
  createImageBitmap: (image: Blob, options?: ImageBitmapOptions) => Promise<ImageBitmap>;
  FileReader?: typeof FileReader;
  navigator?: unknown;
  atob: (data: string) => string;
  btoa: (data: string) => string;
  window?: unknown;
  document?: unknown;
  Image?: unknown;
}

type Listener = (() => void) | null;

/** Decodes a data: URL without fetch (a page's CSP may not allow fetching data: or blob: URLs). */
export function dataUrlToBlob(url: string, atob: (data: string) => string): Blob | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,/.exec(url);
  if (!match) return null;
  const body = url.slice(match[0].length);
  let bytes: Uint8Array<ArrayBuffer>;
  if (match[3]) {
    const typed = Uint8Array as unknown as { fromBase64?(text: string): Uint8Array<ArrayBuffer> };
    if (typed.fromBase64) {
      bytes = typed.fromBase64(body);
    } else {
      const binary = atob(body);
      bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    }
  } else {
    bytes = new TextEncoder().encode(decodeURIComponent(body));
  }
  return new Blob([bytes], { type: match[1] || 'text/plain' });
}

/**
 * Gives compressorjs the DOM it expects on a worker's global scope. compressorjs reads `window` and
 * `window.document` once, when it is first evaluated, so this must run before it is imported. It
 * touches: `window.{document, URL, FileReader, ArrayBuffer, btoa, navigator}`; `document.createElement
 * ('canvas')` with `width`, `height`, `getContext('2d')` (fillStyle, fillRect, save, translate, rotate,
 * scale, drawImage, restore, createImageData, putImageData, getImageData) and `toBlob`; `new Image()`
 * with `onload`, `onerror`, `onabort`, `src`, `alt`, `crossOrigin`, `complete`, `naturalWidth`,
 * `naturalHeight`; and `URL.createObjectURL`/`revokeObjectURL`.
 */
export function installCompressorShims(scope: ShimScope): void {
  // Object URLs handed to the stand-in Image only: it reads the Blob back from here, so no fetch is needed.
  const blobs = new Map<string, Blob>();
  let nextUrl = 0;
  const objectUrls = {
    createObjectURL(blob: Blob): string {
      const url = `blob:image-compress/${(nextUrl += 1)}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL(url: string): void {
      blobs.delete(url);
    },
  };

  class WorkerImage {
    onload: Listener = null;
    onerror: Listener = null;
    onabort: Listener = null;
    alt = '';
    crossOrigin: string | null = null;
    complete = true;
    naturalWidth = 0;
    naturalHeight = 0;
    bitmap: ImageBitmap | null = null;
    #src = '';

    get src(): string {
      return this.#src;
    }

    set src(url: string) {
      this.close();
      this.#src = url;
      this.complete = false;
      const blob = blobs.get(url) ?? (url.startsWith('data:') ? dataUrlToBlob(url, scope.atob) : null);
      const decoded = blob
        ? scope.createImageBitmap(blob, { imageOrientation: 'from-image' })
        : Promise.reject(new Error('unknown image URL'));
      decoded.then(
        (bitmap) => {
          if (this.#src !== url) {
            bitmap.close();
            return;
          }
          this.bitmap = bitmap;
          this.naturalWidth = bitmap.width;
          this.naturalHeight = bitmap.height;
          this.complete = true;
          this.#fire(this.onload);
        },
        () => {
          if (this.#src !== url) return;
          this.complete = true;
          this.#fire(this.onerror);
        },
      );
    }

    /** Frees the bitmap; a decode still under way is dropped when it ends. */
    close(): void {
      this.bitmap?.close();
      this.bitmap = null;
      blobs.delete(this.#src);
      this.#src = '';
    }

    #fire(listener: Listener): void {
      try {
        listener?.();
      } catch {
        // A handler that throws would leave compressorjs waiting forever; report it as a failed load.
        if (listener !== this.onerror) this.onerror?.();
      }
    }
  }

  const { OffscreenCanvas: Canvas } = scope;
  function createCanvas() {
    const canvas = new Canvas(300, 150);
    return {
      get width() {
        return canvas.width;
      },
      set width(value: number) {
        canvas.width = value;
      },
      get height() {
        return canvas.height;
      },
      set height(value: number) {
        canvas.height = value;
      },
      getContext(type: string) {
        if (type !== '2d') return null;
        const context = canvas.getContext('2d');
        if (!context) return null;
        // compressorjs draws its Image; the canvas only accepts the decoded bitmap.
        const drawImage = context.drawImage.bind(context) as (...args: unknown[]) => void;
        (context as unknown as { drawImage: (...args: unknown[]) => void }).drawImage = (image, ...rest) =>
          drawImage(image instanceof WorkerImage ? image.bitmap : image, ...rest);
        return context;
      },
      toBlob(callback: (blob: Blob | null) => void, type?: string, quality?: number) {
        canvas.convertToBlob({ type, quality }).then(callback, () => callback(null));
      },
    };
  }

  const document = {
    createElement(tag: string) {
      if (tag.toLowerCase() !== 'canvas') throw new Error(`<${tag}> is not available in the compression worker`);
      return createCanvas();
    },
  };
  scope.document = document;
  scope.Image = WorkerImage;
  scope.window = {
    document,
    Image: WorkerImage,
    URL: objectUrls,
    FileReader: scope.FileReader,
    navigator: scope.navigator,
    ArrayBuffer,
    Uint8Array,
    Blob,
    atob: scope.atob,
    btoa: scope.btoa,
  };
}

/** Whether this scope can decode and encode images off the page. */
export function canCompressIn(scope: Partial<ShimScope>): boolean {
  if (typeof scope.OffscreenCanvas !== 'function' || typeof scope.createImageBitmap !== 'function') return false;
  if (typeof scope.FileReader !== 'function') return false;
  try {
    return new scope.OffscreenCanvas(1, 1).getContext('2d') !== null;
  } catch {
    return false;
  }
}

interface WorkerScope extends ShimScope {
  postMessage(message: WorkerMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerRequest>) => void): void;
}

function startWorker(scope: WorkerScope): void {
  if (!canCompressIn(scope)) {
    scope.postMessage({ ready: false });
    return;
  }
  installCompressorShims(scope);
  const handle = createRequestHandler(compressHere, (reply) => scope.postMessage(reply));
  scope.addEventListener('message', (event) => handle(event.data));
  loadCompressor().then(
    () => scope.postMessage({ ready: true }),
    () => scope.postMessage({ ready: false }),
  );
}

const workerGlobal = (globalThis as { WorkerGlobalScope?: abstract new () => unknown }).WorkerGlobalScope;
if (typeof workerGlobal === 'function' && globalThis instanceof workerGlobal) {
  startWorker(globalThis as unknown as WorkerScope);
}
