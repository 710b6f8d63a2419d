import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { ImageQuery } from './image-query.ts';
import type { Config } from '../../platform/config.ts';
import { HttpError } from '../../platform/errors.ts';
import { loadImageSource, resolveImageSource, type ImageSource } from './image-source.ts';
import { TransformQueue } from './transform-queue.ts';

const CONTENT_TYPES = { webp: 'image/webp', avif: 'image/avif', jpeg: 'image/jpeg', png: 'image/png' } as const;
/** Decompression-bomb guard: refuse sources above this many pixels (6000 × 6000). */
const MAX_INPUT_PIXELS = 36_000_000;

export interface TransformedImage {
  body: Buffer;
  contentType: string;
  etag: string;
}

function cacheKey(source: ImageSource, query: ImageQuery): string {
  // Keyed by where the bytes come from, so spellings of one URL share a variant.
  const origin = source.kind === 'local' ? `file:${source.file}` : source.url.href;
  const canonical = JSON.stringify([origin, query.w, query.h, query.q, query.f, query.fit, query.g, query.blur]);
  // Blurred variants used to be made at full size; the marker retires those cache entries.
  if (query.blur) return createHash('sha256').update(`blur-downscaled:${canonical}`).digest('hex');
  return createHash('sha256').update(canonical).digest('hex');
}

const inFlight = new Map<string, Promise<TransformedImage>>();

/** One queue for the process: sharp's thread pool is shared by every request. */
export const sharedTransformQueue = new TransformQueue();

// Each running job gets an equal share of the cores; more threads per image would only contend.
sharp.concurrency(Math.max(1, Math.floor(availableParallelism() / sharedTransformQueue.limits.concurrency)));

/** Blurred variants are made at most this large: a blur hides detail, so more pixels only cost time. */
export const BLUR_MAX_DIMENSION = 480;
/** Larger sigmas look the same at that size and cost time in proportion. */
export const MAX_BLUR_SIGMA = 30;

export interface TransformOptions {
  fetcher?: typeof fetch;
  queue?: TransformQueue;
  /** Who asked (the client address): each has a bounded share of the queue. */
  client?: string;
  /** Called before a variant that is not cached yet is made (rate limits). */
  beforeTransform?: () => Promise<void>;
}

/** The box a blurred variant is made in: the requested one scaled down to fit the blur limit. */
export function blurBox(query: Pick<ImageQuery, 'w' | 'h'>): { width: number | undefined; height: number | undefined } {
  if (!query.w && !query.h) return { width: BLUR_MAX_DIMENSION, height: BLUR_MAX_DIMENSION };
  const scale = Math.min(1, BLUR_MAX_DIMENSION / Math.max(query.w ?? 0, query.h ?? 0));
  return {
    width: query.w ? Math.max(1, Math.round(query.w * scale)) : undefined,
    height: query.h ? Math.max(1, Math.round(query.h * scale)) : undefined,
  };
}

async function render(input: Buffer, query: ImageQuery, format: keyof typeof CONTENT_TYPES): Promise<Buffer> {
  let pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
  const position = query.g === 'centre' || !query.g ? 'centre' : query.g;
  if (query.blur) {
    // Downscale first, then blur the small image: blurring the full-resolution source is what is slow.
    const box = blurBox(query);
    const fit = query.w || query.h ? (query.fit ?? 'cover') : 'inside';
    const small = await pipeline
      .resize({ ...box, fit, position, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = small.info;
    pipeline = sharp(small.data, { raw: { width, height, channels } }).blur(Math.min(query.blur, MAX_BLUR_SIGMA));
  } else if (query.w || query.h) {
    pipeline = pipeline.resize({
      width: query.w,
      height: query.h,
      fit: query.fit ?? 'cover',
      position,
      withoutEnlargement: true,
    });
  }
  const quality = query.q ?? 85;
  return pipeline.toFormat(format, format === 'png' ? { compressionLevel: 9 } : { quality }).toBuffer();
}

/**
 * Resizes/re-encodes an image with sharp. Results are cached on disk under DATA_DIR/cache/img; a cached
 * variant is answered at once, never behind the queue. Concurrent requests for the same variant share
 * one transformation; new ones wait in a bounded queue (503 when it is full, 429 past a client's share).
 */
export async function transformImage(
  config: Config,
  query: ImageQuery,
  options: TransformOptions = {},
): Promise<TransformedImage> {
  const source = resolveImageSource(query.url, config);
  const key = cacheKey(source, query);
  const format = query.f ?? 'webp';
  const file = path.join(config.dataDir, 'cache/img', key.slice(0, 2), `${key}.${format}`);
  const etag = `"${key.slice(0, 32)}"`;
  const cached = await readFile(file).catch(() => null);
  if (cached) return { body: cached, contentType: CONTENT_TYPES[format], etag };
  const pending = inFlight.get(key);
  if (pending) return pending;
  await options.beforeTransform?.();
  const started = inFlight.get(key);
  if (started) return started;
  const queue = options.queue ?? sharedTransformQueue;
  const job = queue.run(options.client ?? 'internal', async () => {
    const input = await loadImageSource(source, options.fetcher ?? fetch);
    const body = await render(input, query, format).catch(() => {
      throw new HttpError(422, 'VALIDATION_FAILED', 'server.imageUnprocessable');
    });
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, body, { mode: 0o600 });
    await rename(temp, file);
    return { body, contentType: CONTENT_TYPES[format], etag };
  });
  inFlight.set(key, job);
  try {
    return await job;
  } finally {
    inFlight.delete(key);
  }
}

/** The original image for download, with a file name taken from its path. */
export async function downloadImage(config: Config, raw: string, fetcher: typeof fetch = fetch) {
  const source = resolveImageSource(raw, config);
  const body = await loadImageSource(source, fetcher);
  const meta = await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS })
    .metadata()
    .catch(() => null);
  if (!meta?.format) throw new HttpError(415, 'VALIDATION_FAILED', 'server.notAnImage');
  const last = (source.kind === 'local' ? path.basename(source.file) : source.url.pathname.split('/').pop()) || 'image';
  const filename = last.replace(/[^\w.\-\u4e00-\u9fff]/g, '_').slice(0, 100) || 'image';
  return { body, contentType: `image/${meta.format}`, filename };
}
