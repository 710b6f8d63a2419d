import { messageRef, type MessageKey, type Params, type Translate } from '../shared/i18n/index.ts';
import type { CompressOutcome, WorkerMessage, WorkerRequest } from './image-compress.worker.ts';

/**
 * Image compression before upload (spec §9 "Upload compression defaults"): compressorjs in a module
 * Web Worker, bundled by Vite; on the main thread when the browser cannot run it in a worker.
 */

/**
 * The key of an upload failure's reason: a failed step (`upload.reason.*`, shown inside `upload.failed`
 * as its `{reason}`) or a check before the upload starts (`upload.loginFirst`, `upload.selectImage`,
 * `upload.invalidType`).
 */
export type UploadReason = Exclude<
  Extract<MessageKey, `upload.${string}`>,
  'upload.failed' | `upload.status.${string}`
>;

/** An upload step that failed, with the reason to show (`upload failed: {reason}`). */
export class UploadFailure extends Error {
  override readonly name = 'UploadFailure';
  readonly reason: UploadReason;
  readonly params: Params | undefined;

  constructor(reason: UploadReason, params?: Params, options?: ErrorOptions) {
    super(messageRef(reason, params), options);
    this.reason = reason;
    this.params = params;
  }
}

/** The sentence for a failed upload in the reader's language ("上传失败: 图片加载失败"). */
export function describeUploadFailure(error: unknown, t: Translate): string {
  const failure = error instanceof UploadFailure ? error : new UploadFailure('upload.reason.processing');
  return t('upload.failed', { reason: t(failure.reason, failure.params) });
}

export interface CompressSettings {
  /** The largest result accepted, in bytes. */
  maxSizeBytes: number;
  /** The first quality tried (0–1]. */
  quality: number;
  /** The quality the loop never goes below. */
  minQuality: number;
  /** The output format. When the browser cannot write it, JPEG is written instead. */
  mimeType: string;
  /** Compress in a Web Worker (falls back to the main thread when one cannot run). */
  useWorker: boolean;
  /** At most this many encodings. */
  maxIterations: number;
  /** How much the quality drops after a result that is too large. */
  step: number;
  /** Shrink the image to fit maxWidth × maxHeight (aspect kept). Off by default. */
  resize: boolean;
  /** Used only when `resize` is on. */
  maxWidth: number;
  /** Used only when `resize` is on. */
  maxHeight: number;
}

export interface CompressOptions extends CompressSettings {
  signal?: AbortSignal | undefined;
}

/** Spec §9: 2 MB, quality 0.8 down to 0.1 in steps of 0.1, at most 10 tries, webp, in a worker. */
export const COMPRESS_DEFAULTS: Readonly<CompressSettings> = Object.freeze({
  maxSizeBytes: 2 * 1024 * 1024,
  quality: 0.8,
  minQuality: 0.1,
  mimeType: 'image/webp',
  useWorker: true,
  maxIterations: 10,
  step: 0.1,
  resize: false,
  maxWidth: 2560,
  maxHeight: 1440,
});

export interface CompressResult {
  /** The image to upload (its `type` names the format). */
  blob: Blob;
  /** Size in pixels (of the file's header when the original was kept). */
  width: number;
  height: number;
  /** The quality of the encoding kept; null when the original was kept. */
  quality: number | null;
  /** How many encodings were made (0 when the original was kept). */
  iterations: number;
  /** The original was kept untouched (already small enough, or animated). */
  passedThrough: boolean;
}

/**
 * Defaults with the given options over them (`undefined` keeps the default). A setting out of range is
 * a programming error and throws a RangeError.
 */
export function resolveCompressOptions(options: Partial<CompressSettings> = {}): CompressSettings {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const settings: CompressSettings = { ...COMPRESS_DEFAULTS, ...given };
  const { maxSizeBytes, quality, minQuality, step, maxIterations, maxWidth, maxHeight, mimeType } = settings;
  const problems = [
    !(maxSizeBytes > 0) && 'maxSizeBytes must be above 0',
    !(quality > 0 && quality <= 1) && 'quality must be in (0, 1]',
    !(minQuality > 0 && minQuality <= quality) && 'minQuality must be in (0, quality]',
    !(step > 0) && 'step must be above 0',
    !(Number.isInteger(maxIterations) && maxIterations >= 1) && 'maxIterations must be a whole number ≥ 1',
    !(maxWidth > 0 && maxHeight > 0) && 'maxWidth and maxHeight must be above 0',
    !/^image\/[\w.+-]+$/.test(mimeType) && 'mimeType must be an image type',
  ].filter(Boolean);
  if (problems.length > 0) throw new RangeError(`compressImage: ${problems.join('; ')}`);
  return settings;
}

/** Spec §5: compression needs a Blob or File that is an image. */
export function assertCompressible(file: unknown): asserts file is Blob {
  if (file === null || file === undefined) throw new UploadFailure('upload.reason.noFile');
  if (!(file instanceof Blob) || !file.type.startsWith('image/')) throw new UploadFailure('upload.reason.notImage');
}

export interface ImageHeader {
  width: number | null;
  height: number | null;
  /** Holds (or may hold) several frames: re-encoding on a canvas would keep only the first. */
  animated: boolean;
}

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0));

function indexOfAscii(bytes: Uint8Array, text: string, from = 0): number {
  for (let i = from; i + text.length <= bytes.length; i++) if (ascii(bytes, i, text)) return i;
  return -1;
}

/**
 * Size and animation from the first bytes of a GIF, PNG (APNG), WebP or AVIF file; null for other
 * formats. A GIF always counts as animated (telling needs the whole file).
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16le = (at: number) => (at + 2 <= bytes.length ? view.getUint16(at, true) : null);
  const u32be = (at: number) => (at + 4 <= bytes.length ? view.getUint32(at) : null);
  const u24le = (at: number) =>
    at + 3 <= bytes.length ? bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) : null;

  if (ascii(bytes, 0, 'GIF8')) return { width: u16le(6), height: u16le(8), animated: true };

  if (ascii(bytes, 1, 'PNG\r\n\x1a\n')) {
    let animated = false;
    for (let at = 8; at + 8 <= bytes.length;) {
      const length = u32be(at)!;
      if (ascii(bytes, at + 4, 'acTL')) animated = true;
      if (ascii(bytes, at + 4, 'IDAT')) break;
      at += 12 + length;
    }
    return { width: u32be(16), height: u32be(20), animated };
  }

  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) {
    if (ascii(bytes, 12, 'VP8X')) {
      const flags = bytes[20] ?? 0;
      const w = u24le(24);
      const h = u24le(27);
      return { width: w === null ? null : w + 1, height: h === null ? null : h + 1, animated: (flags & 0x02) !== 0 };
    }
    if (ascii(bytes, 12, 'VP8 ')) {
      const w = u16le(26);
      const h = u16le(28);
      return { width: w === null ? null : w & 0x3fff, height: h === null ? null : h & 0x3fff, animated: false };
    }
    if (ascii(bytes, 12, 'VP8L') && bytes.length >= 25) {
      const [b1, b2, b3, b4] = [bytes[21]!, bytes[22]!, bytes[23]!, bytes[24]!];
      return {
        width: 1 + (((b2 & 0x3f) << 8) | b1),
        height: 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6)),
        animated: false,
      };
    }
    return { width: null, height: null, animated: false };
  }

  if (ascii(bytes, 4, 'ftyp')) {
    const boxEnd = Math.min(u32be(0) ?? 0, bytes.length);
    const brands: string[] = [];
    for (let at = 8; at + 4 <= boxEnd; at += 4) brands.push(String.fromCharCode(...bytes.subarray(at, at + 4)));
    if (!brands.some((brand) => brand === 'avif' || brand === 'avis')) return null;
    const ispe = indexOfAscii(bytes, 'ispe', boxEnd);
    return {
      width: ispe < 0 ? null : u32be(ispe + 8),
      height: ispe < 0 ? null : u32be(ispe + 12),
      animated: brands[0] === 'avis',
    };
  }
  return null;
}

/** Formats kept as they are when already small enough: re-encoding them to WebP rarely helps. */
const KEPT_WHEN_SMALL = new Set(['image/webp', 'image/avif']);
/** Formats whose header `readImageHeader` reads. */
const HEADER_TYPES = /^image\/(gif|png|apng|webp|avif)$/;
/** Formats a worker cannot decode (createImageBitmap takes no SVG there); the page draws them. */
const MAIN_THREAD_ONLY = /^image\/svg\+xml$/;
/** Enough of a file for the headers `readImageHeader` reads (an APNG's acTL comes before its data). */
const HEADER_BYTES = 64 * 1024;

/**
 * The original when no encoding is needed: an animated image (any GIF, APNG, animated WebP or AVIF) is
 * never re-encoded, since a canvas keeps only its first frame — it is kept when it fits (even when a
 * resize is asked) and refused otherwise; a still WebP or AVIF, or a PNG when PNG is the output, is kept
 * when it fits and no resize is asked. Only formats whose header gives the size are kept.
 */
async function keepOriginal(file: Blob, settings: CompressSettings): Promise<CompressResult | null> {
  const fits = file.size <= settings.maxSizeBytes;
  const header = HEADER_TYPES.test(file.type)
    ? readImageHeader(new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer()))
    : null;
  // A header without a size is damaged: the decoder will say so.
  if (!header || header.width === null || header.height === null) return null;
  const { width, height, animated } = header;
  if (animated && !fits) {
    throw new UploadFailure('upload.reason.animatedTooLarge', reasonParams('upload.reason.animatedTooLarge', settings));
  }
  const keep =
    animated || (fits && !settings.resize && (file.type === settings.mimeType || KEPT_WHEN_SMALL.has(file.type)));
  return keep ? { blob: file, width, height, quality: null, iterations: 0, passedThrough: true } : null;
}

/** "2 MB", "500 KB": a size limit as people read it, in every language. */
export function formatSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number(mb.toFixed(1))} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** The parameters of a reason's message (the size limits name the limit). */
function reasonParams(reason: UploadReason, settings: CompressSettings): Params | undefined {
  return reason === 'upload.reason.tooLarge' || reason === 'upload.reason.animatedTooLarge'
    ? { max: formatSize(settings.maxSizeBytes) }
    : undefined;
}

/** What the page needs from a Worker (a fake one in tests). */
export interface WorkerLike {
  postMessage(message: WorkerRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  onmessageerror: ((event: MessageEvent) => void) | null;
}

export interface WorkerClient {
  /** The worker's answer, or null when no worker can run here (the caller compresses on the page). */
  run(file: Blob, settings: CompressSettings, signal?: AbortSignal): Promise<CompressOutcome | null>;
}

/**
 * The page's side of the worker protocol. One worker, started on first use and reused; requests carry
 * an id and may run side by side. A worker that fails before it says it is ready (blocked, not
 * loadable, no OffscreenCanvas) is not tried again: every request then returns null. A worker that
 * crashes later is terminated, its requests fail, and the next request starts a new one.
 */
export function createWorkerClient(spawn: () => WorkerLike): WorkerClient {
  let current: WorkerLike | null = null;
  let starting: Promise<WorkerLike | null> | null = null;
  let unusable = false;
  let nextId = 1;
  const pending = new Map<number, (outcome: CompressOutcome) => void>();

  function crash(worker: WorkerLike): void {
    worker.terminate();
    if (current !== worker) return;
    current = null;
    starting = null;
    const waiting = [...pending.values()];
    pending.clear();
    for (const settle of waiting) settle({ ok: false, reason: 'upload.reason.processing' });
  }

  function start(): Promise<WorkerLike | null> {
    if (unusable) return Promise.resolve(null);
    starting ??= new Promise((resolve) => {
      const giveUp = (worker: WorkerLike | null) => {
        worker?.terminate();
        unusable = true;
        starting = null;
        resolve(null);
      };
      let worker: WorkerLike;
      try {
        worker = spawn();
      } catch {
        giveUp(null);
        return;
      }
      worker.onmessage = ({ data }) => {
        if ('ready' in data) {
          if (!data.ready) return giveUp(worker);
          current = worker;
          return resolve(worker);
        }
        const settle = pending.get(data.id);
        if (!settle) return;
        pending.delete(data.id);
        const { id: _id, ...outcome } = data;
        settle(outcome);
      };
      worker.onerror = (event) => {
        event.preventDefault?.();
        if (current === worker) crash(worker);
        else giveUp(worker);
      };
      worker.onmessageerror = () => crash(worker);
    });
    return starting;
  }

  async function run(file: Blob, settings: CompressSettings, signal?: AbortSignal): Promise<CompressOutcome | null> {
    let worker = await start();
    // A crash between the start and now: start again.
    while (worker && worker !== current) worker = await start();
    if (!worker) return null;
    signal?.throwIfAborted();
    const id = nextId++;
    const started = worker;
    return new Promise<CompressOutcome>((resolve, reject) => {
      const onAbort = () => {
        pending.delete(id);
        started.postMessage({ id, abort: true });
        reject(signal?.reason);
      };
      pending.set(id, (outcome) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      started.postMessage({ id, file, options: settings });
    });
  }

  return { run };
}

let workerClient: WorkerClient | null = null;

function sharedWorkerClient(): WorkerClient {
  workerClient ??= createWorkerClient(
    () => new Worker(new URL('./image-compress.worker.ts', import.meta.url), { type: 'module' }),
  );
  return workerClient;
}

function workersUsable(): boolean {
  return (
    typeof Worker === 'function' && typeof OffscreenCanvas === 'function' && typeof createImageBitmap === 'function'
  );
}

async function compressOnPage(file: Blob, settings: CompressSettings, signal?: AbortSignal): Promise<CompressOutcome> {
  const { compressHere } = await import('./image-compress.worker.ts');
  return compressHere(file, settings, signal);
}

/**
 * Compresses an image for upload (spec §9). Returns the original untouched when it already fits and is
 * a WebP or AVIF (and no resize is asked), or is a GIF or other animated image that fits. Otherwise
 * encodes at `quality`, lowering it by `step` down to `minQuality` until the result fits
 * `maxSizeBytes`, for at most `maxIterations` encodings.
 *
 * Rejects with an `UploadFailure` (show it with `describeUploadFailure`):
 * - `upload.reason.noFile` — no file; `upload.reason.notImage` — not a Blob/File whose type is image/*;
 * - `upload.reason.tooLarge` {max} — still larger than maxSizeBytes at minQuality (try `resize: true`);
 * - `upload.reason.animatedTooLarge` {max} — an animated image larger than maxSizeBytes;
 * - `upload.reason.imageLoad`, `readInfo`, `canvas`, `conversion`, `processing` — the browser could not
 *   decode, read, draw or encode it, or the worker crashed.
 * Rejects with the signal's reason when `signal` aborts, and with a RangeError for options out of range.
 */
export async function compressImage(file: Blob, options: Partial<CompressOptions> = {}): Promise<CompressResult> {
  assertCompressible(file);
  const { signal, ...rest } = options;
  const settings = resolveCompressOptions(rest);
  signal?.throwIfAborted();
  const kept = await keepOriginal(file, settings);
  if (kept) return kept;
  signal?.throwIfAborted();

  let outcome: CompressOutcome | null = null;
  if (settings.useWorker && workersUsable() && !MAIN_THREAD_ONLY.test(file.type)) {
    outcome = await sharedWorkerClient().run(file, settings, signal);
  }
  outcome ??= await compressOnPage(file, settings, signal);
  if (!outcome.ok) throw new UploadFailure(outcome.reason, reasonParams(outcome.reason, settings));
  const { blob, width, height, quality, iterations } = outcome;
  return { blob, width, height, quality, iterations, passedThrough: false };
}
