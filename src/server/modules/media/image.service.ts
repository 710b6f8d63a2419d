import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { ImageQuery } from './image-query.ts';
import type { Config } from '../../platform/config.ts';
import { HttpError } from '../../platform/errors.ts';
import { loadImageSource, resolveImageSource, type ImageSource } from './image-source.ts';

const CONTENT_TYPES = { webp: 'image/webp', avif: 'image/avif', jpeg: 'image/jpeg', png: 'image/png' } as const;
/** Decompression-bomb guard: refuse sources above this many pixels. */
const MAX_INPUT_PIXELS = 50_000_000;

export interface TransformedImage {
  body: Buffer;
  contentType: string;
  etag: string;
}

function cacheKey(source: ImageSource, query: ImageQuery): string {
  // Keyed by where the bytes come from, so spellings of one URL share a variant.
  const origin = source.kind === 'local' ? `file:${source.file}` : source.url.href;
  const canonical = JSON.stringify([origin, query.w, query.h, query.q, query.f, query.fit, query.g, query.blur]);
  return createHash('sha256').update(canonical).digest('hex');
}

const inFlight = new Map<string, Promise<TransformedImage>>();

/** At most this many sharp jobs at once, so transformations cannot starve the thread pool (argon2). */
const MAX_CONCURRENT_TRANSFORMS = 2;
let running = 0;
const queue: (() => void)[] = [];
async function withTransformSlot<T>(job: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_TRANSFORMS) await new Promise<void>((resolve) => queue.push(resolve));
  running++;
  try {
    return await job();
  } finally {
    running--;
    queue.shift()?.();
  }
}

/**
 * Resizes/re-encodes an image with sharp. Results are cached on disk under DATA_DIR/cache/img, and
 * concurrent requests for the same variant share one transformation.
 */
export async function transformImage(
  config: Config,
  query: ImageQuery,
  fetcher: typeof fetch = fetch,
  /** Called before a variant that is not cached yet is made (rate limits). */
  beforeTransform: () => Promise<void> = async () => undefined,
): Promise<TransformedImage> {
  const source = resolveImageSource(query.url, config);
  const key = cacheKey(source, query);
  const format = query.f ?? 'webp';
  const file = path.join(config.dataDir, 'cache/img', key.slice(0, 2), `${key}.${format}`);
  const cached = await readFile(file).catch(() => null);
  if (cached) return { body: cached, contentType: CONTENT_TYPES[format], etag: `"${key.slice(0, 32)}"` };

  const pending = inFlight.get(key);
  if (pending) return pending;
  await beforeTransform();
  const job = withTransformSlot(async () => {
    const input = await loadImageSource(source, fetcher);
    let pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
    if (query.w || query.h) {
      pipeline = pipeline.resize({
        width: query.w,
        height: query.h,
        fit: query.fit ?? 'cover',
        position: query.g === 'centre' || !query.g ? 'centre' : query.g,
        withoutEnlargement: true,
      });
    }
    if (query.blur) pipeline = pipeline.blur(query.blur);
    const quality = query.q ?? 85;
    pipeline = pipeline.toFormat(format, format === 'png' ? { compressionLevel: 9 } : { quality });
    const body = await pipeline.toBuffer().catch(() => {
      throw new HttpError(422, 'VALIDATION_FAILED', '无法处理该图片');
    });
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, body);
    await rename(temp, file);
    return { body, contentType: CONTENT_TYPES[format], etag: `"${key.slice(0, 32)}"` };
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
  if (!meta?.format) throw new HttpError(415, 'VALIDATION_FAILED', '来源不是图片');
  const last = (source.kind === 'local' ? path.basename(source.file) : source.url.pathname.split('/').pop()) || 'image';
  const filename = last.replace(/[^\w.\-\u4e00-\u9fff]/g, '_').slice(0, 100) || 'image';
  return { body, contentType: `image/${meta.format}`, filename };
}
