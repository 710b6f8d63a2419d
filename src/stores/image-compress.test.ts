import { describe, expect, it } from 'vitest';
import { translator } from '../shared/i18n/catalogues.ts';
import {
  COMPRESS_DEFAULTS,
  assertCompressible,
  compressImage,
  createWorkerClient,
  describeUploadFailure,
  formatSize,
  readImageHeader,
  resolveCompressOptions,
  UploadFailure,
  type WorkerLike,
} from './image-compress.ts';
import type { CompressOutcome, WorkerMessage, WorkerRequest } from './image-compress.worker.ts';

const MB = 1024 * 1024;
const flush = () => new Promise((resolve) => setImmediate(resolve));

// Headers of small images, byte by byte.
const text = (value: string) => [...value].map((char) => char.charCodeAt(0));
const u16le = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const u32le = (n: number) => u32be(n).reverse();
const bytes = (...parts: number[][]) => new Uint8Array(parts.flat());
const pngChunk = (type: string, data: number[]) => [...u32be(data.length), ...text(type), ...data, 0, 0, 0, 0];

const gif = (width: number, height: number) => bytes(text('GIF89a'), u16le(width), u16le(height), [0, 0, 0]);
const png = (width: number, height: number, animated = false) =>
  bytes(
    [0x89],
    text('PNG\r\n\x1a\n'),
    pngChunk('IHDR', [...u32be(width), ...u32be(height), 8, 6, 0, 0, 0]),
    animated ? pngChunk('acTL', [...u32be(2), ...u32be(0)]) : [],
    pngChunk('IDAT', []),
  );
const webpVp8x = (width: number, height: number, animated: boolean) =>
  bytes(
    text('RIFF'),
    u32le(100),
    text('WEBPVP8X'),
    u32le(10),
    [animated ? 0x02 : 0, 0, 0, 0],
    u24le(width - 1),
    u24le(height - 1),
  );
const webpVp8 = (width: number, height: number) =>
  bytes(
    text('RIFF'),
    u32le(100),
    text('WEBPVP8 '),
    u32le(80),
    [0, 0, 0, 0x9d, 0x01, 0x2a],
    u16le(width),
    u16le(height),
  );
const webpVp8l = (width: number, height: number) =>
  bytes(text('RIFF'), u32le(100), text('WEBPVP8L'), u32le(80), [0x2f], u32le((width - 1) | ((height - 1) << 14)));
const avif = (width: number, height: number, brand = 'avif') =>
  bytes(
    u32be(24),
    text('ftyp'),
    text(brand),
    u32be(0),
    text('mif1'),
    text(brand),
    u32be(20),
    text('ispe'),
    u32be(0),
    u32be(width),
    u32be(height),
  );

const imageFile = (header: Uint8Array, type: string, size = header.length) => {
  const body = new Uint8Array(size);
  body.set(header.subarray(0, size));
  return new Blob([body], { type });
};

describe('compression options', () => {
  it('default to spec §9', () => {
    expect(COMPRESS_DEFAULTS).toEqual({
      maxSizeBytes: 2 * MB,
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
    expect(Object.isFrozen(COMPRESS_DEFAULTS)).toBe(true);
  });

  it('take what is given over the defaults and ignore undefined', () => {
    expect(resolveCompressOptions({ resize: true, quality: undefined, maxSizeBytes: MB })).toEqual({
      ...COMPRESS_DEFAULTS,
      resize: true,
      maxSizeBytes: MB,
    });
    expect(resolveCompressOptions()).toEqual(COMPRESS_DEFAULTS);
  });

  it('refuse values out of range', () => {
    expect(() => resolveCompressOptions({ quality: 0 })).toThrow(RangeError);
    expect(() => resolveCompressOptions({ quality: 1.2 })).toThrow(/quality/);
    expect(() => resolveCompressOptions({ quality: 0.5, minQuality: 0.6 })).toThrow(/minQuality/);
    expect(() => resolveCompressOptions({ step: 0 })).toThrow(/step/);
    expect(() => resolveCompressOptions({ maxIterations: 1.5 })).toThrow(/maxIterations/);
    expect(() => resolveCompressOptions({ maxSizeBytes: -1 })).toThrow(/maxSizeBytes/);
    expect(() => resolveCompressOptions({ mimeType: 'text/plain' })).toThrow(/mimeType/);
    expect(() => resolveCompressOptions({ maxWidth: 0 })).toThrow(/maxWidth/);
  });
});

describe('input checks', () => {
  const reasonOf = async (file: unknown) => {
    const error = await compressImage(file as Blob).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UploadFailure);
    return (error as UploadFailure).reason;
  };

  it('need a file', async () => {
    expect(await reasonOf(null)).toBe('upload.reason.noFile');
    expect(await reasonOf(undefined)).toBe('upload.reason.noFile');
  });

  it('need a Blob or File whose type is an image', async () => {
    expect(await reasonOf('photo.jpg')).toBe('upload.reason.notImage');
    expect(await reasonOf({ type: 'image/png', size: 3 })).toBe('upload.reason.notImage');
    expect(await reasonOf(new Blob(['hello'], { type: 'text/plain' }))).toBe('upload.reason.notImage');
    expect(await reasonOf(new Blob([new Uint8Array(4)]))).toBe('upload.reason.notImage');
    expect(await reasonOf(new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }))).toBe('upload.reason.notImage');
    expect(() => assertCompressible(new File([], 'a.png', { type: 'image/png' }))).not.toThrow();
  });

  it('reject options out of range before anything else', async () => {
    await expect(compressImage(new Blob([], { type: 'image/png' }), { quality: 3 })).rejects.toThrow(RangeError);
  });

  it('stop at once when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('cancelled', 'AbortError'));
    const photo = new Blob([new Uint8Array(8)], { type: 'image/jpeg' });
    await expect(compressImage(photo, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('image headers', () => {
  it('give the size of GIF, PNG, WebP and AVIF files', () => {
    expect(readImageHeader(gif(320, 200))).toEqual({ width: 320, height: 200, animated: true });
    expect(readImageHeader(png(1920, 1080))).toEqual({ width: 1920, height: 1080, animated: false });
    expect(readImageHeader(webpVp8(800, 600))).toEqual({ width: 800, height: 600, animated: false });
    expect(readImageHeader(webpVp8l(1000, 700))).toEqual({ width: 1000, height: 700, animated: false });
    expect(readImageHeader(webpVp8x(4000, 3000, false))).toEqual({ width: 4000, height: 3000, animated: false });
    expect(readImageHeader(avif(1280, 720))).toEqual({ width: 1280, height: 720, animated: false });
  });

  it('tell animated images apart', () => {
    expect(readImageHeader(png(10, 10, true))?.animated).toBe(true);
    expect(readImageHeader(webpVp8x(10, 10, true))?.animated).toBe(true);
    expect(readImageHeader(avif(10, 10, 'avis'))?.animated).toBe(true);
  });

  it('know nothing of other formats', () => {
    expect(readImageHeader(bytes([0xff, 0xd8, 0xff, 0xe1]))).toBeNull();
    expect(readImageHeader(new Uint8Array(0))).toBeNull();
    expect(readImageHeader(bytes(u32be(16), text('ftypheic'), u32be(0)))).toBeNull();
  });
});

describe('images kept as they are', () => {
  it('keep a WebP or AVIF that already fits', async () => {
    for (const [header, type] of [
      [webpVp8(800, 600), 'image/webp'],
      [avif(1280, 720), 'image/avif'],
    ] as const) {
      const file = imageFile(header, type, 500_000);
      const result = await compressImage(file);
      expect(result.blob).toBe(file);
      expect(result).toMatchObject({ passedThrough: true, iterations: 0, quality: null });
    }
    expect((await compressImage(imageFile(webpVp8(800, 600), 'image/webp'))).width).toBe(800);
  });

  it('keep a GIF or animated image that fits, even when a resize is asked', async () => {
    const file = imageFile(gif(320, 200), 'image/gif', MB);
    expect(await compressImage(file, { resize: true })).toEqual({
      blob: file,
      width: 320,
      height: 200,
      quality: null,
      iterations: 0,
      passedThrough: true,
    });
    const apng = imageFile(png(64, 64, true), 'image/png', 1000);
    expect((await compressImage(apng)).blob).toBe(apng);
  });

  it('refuse an animated image too large to keep, naming the limit', async () => {
    const file = imageFile(webpVp8x(500, 500, true), 'image/webp', 3 * MB);
    const error = await compressImage(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UploadFailure);
    expect(error).toMatchObject({ reason: 'upload.reason.animatedTooLarge', params: { max: '2 MB' } });
    await expect(
      compressImage(imageFile(gif(1, 1), 'image/gif', 600_000), { maxSizeBytes: 500_000 }),
    ).rejects.toMatchObject({ reason: 'upload.reason.animatedTooLarge', params: { max: '488 KB' } });
  });

  it('encode a still image that needs work (here without a canvas: it fails as an upload failure)', async () => {
    // Node has neither Worker nor canvas, so this runs compressorjs on the "page" and it cannot draw.
    const big = imageFile(webpVp8(800, 600), 'image/webp', 3 * MB);
    await expect(compressImage(big)).rejects.toBeInstanceOf(UploadFailure);
    const resized = imageFile(webpVp8(8000, 6000), 'image/webp', 1000);
    await expect(compressImage(resized, { resize: true })).rejects.toBeInstanceOf(UploadFailure);
  });
});

describe('failure messages', () => {
  it('read "upload failed: {reason}" in the reader language', () => {
    const zh = translator('zh-CN');
    const en = translator('en');
    expect(describeUploadFailure(new UploadFailure('upload.reason.imageLoad'), zh)).toBe('上传失败: 图片加载失败');
    expect(describeUploadFailure(new UploadFailure('upload.reason.imageLoad'), en)).toBe(
      'upload failed: image load failed',
    );
    expect(describeUploadFailure(new UploadFailure('upload.reason.storage', { status: 'Forbidden' }), en)).toBe(
      'upload failed: Failed to upload file to R2: Forbidden',
    );
    expect(describeUploadFailure(new UploadFailure('upload.reason.tooLarge', { max: '2 MB' }), zh)).toContain('2 MB');
    expect(describeUploadFailure(new Error('anything'), en)).toBe('upload failed: image processing failed');
  });

  it('carry their key as a message reference and name the size limit readably', () => {
    const failure = new UploadFailure('upload.reason.tooLarge', { max: '2 MB' });
    expect(failure).toBeInstanceOf(Error);
    expect(failure.name).toBe('UploadFailure');
    expect(failure.message).toBe('upload.reason.tooLarge?max=2+MB');
    expect(formatSize(2 * MB)).toBe('2 MB');
    expect(formatSize(1.5 * MB)).toBe('1.5 MB');
    expect(formatSize(300 * 1024)).toBe('300 KB');
  });
});

/** A Worker stand-in: what the page posts, and what the test answers. */
class FakeWorker implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  onmessageerror: WorkerLike['onmessageerror'] = null;
  posted: WorkerRequest[] = [];
  terminated = false;

  postMessage(message: WorkerRequest) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  send(data: WorkerMessage) {
    this.onmessage?.({ data } as MessageEvent<WorkerMessage>);
  }
  crash() {
    this.onerror?.({ preventDefault() {} } as ErrorEvent);
  }
}

describe('the page side of the worker protocol', () => {
  const settings = { ...COMPRESS_DEFAULTS };
  const file = new Blob([new Uint8Array(4)], { type: 'image/jpeg' });
  const ok = (size: number): CompressOutcome => ({
    ok: true,
    blob: new Blob([new Uint8Array(size)], { type: 'image/webp' }),
    width: 4,
    height: 3,
    quality: 0.8,
    iterations: 1,
  });

  function setup() {
    const workers: FakeWorker[] = [];
    const client = createWorkerClient(() => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    });
    return { workers, client };
  }

  it('starts one worker on first use, waits for it, and matches replies to requests by id', async () => {
    const { workers, client } = setup();
    const first = client.run(file, settings);
    const second = client.run(file, settings);
    await flush();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.posted).toEqual([]);
    workers[0]!.send({ ready: true });
    await flush();
    expect(workers[0]!.posted).toEqual([
      { id: 1, file, options: settings },
      { id: 2, file, options: settings },
    ]);
    const answer = ok(10);
    workers[0]!.send({ id: 2, ok: false, reason: 'upload.reason.imageLoad' });
    workers[0]!.send({ id: 1, ...answer });
    workers[0]!.send({ id: 99, ok: false, reason: 'upload.reason.processing' });
    expect(await first).toEqual(answer);
    expect(await second).toEqual({ ok: false, reason: 'upload.reason.imageLoad' });

    const third = client.run(file, settings);
    await flush();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.posted[2]).toEqual({ id: 3, file, options: settings });
    workers[0]!.send({ id: 3, ...answer });
    expect(await third).toEqual(answer);
  });

  it('tells the worker to stop an aborted request and rejects with the signal reason', async () => {
    const { workers, client } = setup();
    const controller = new AbortController();
    const run = client.run(file, settings, controller.signal);
    await flush();
    workers[0]!.send({ ready: true });
    await flush();
    const reason = new DOMException('cancelled', 'AbortError');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(workers[0]!.posted[1]).toEqual({ id: 1, abort: true });
    workers[0]!.send({ id: 1, ...ok(1) });
  });

  it('gives up on workers for good when one cannot start, so the page compresses itself', async () => {
    const { workers, client } = setup();
    const run = client.run(file, settings);
    await flush();
    workers[0]!.crash();
    expect(await run).toBeNull();
    expect(workers[0]!.terminated).toBe(true);
    expect(await client.run(file, settings)).toBeNull();
    expect(workers).toHaveLength(1);
  });

  it('gives up too when the worker says it cannot compress (no OffscreenCanvas there)', async () => {
    const { workers, client } = setup();
    const run = client.run(file, settings);
    await flush();
    workers[0]!.send({ ready: false });
    expect(await run).toBeNull();
  });

  it('gives up when the Worker constructor throws', async () => {
    const client = createWorkerClient(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(await client.run(file, settings)).toBeNull();
  });

  it('fails the requests of a crashed worker and starts a new one for the next', async () => {
    const { workers, client } = setup();
    const run = client.run(file, settings);
    await flush();
    workers[0]!.send({ ready: true });
    await flush();
    workers[0]!.crash();
    expect(await run).toEqual({ ok: false, reason: 'upload.reason.processing' });
    expect(workers[0]!.terminated).toBe(true);

    const next = client.run(file, settings);
    await flush();
    expect(workers).toHaveLength(2);
    workers[1]!.send({ ready: true });
    await flush();
    expect(workers[1]!.posted).toEqual([{ id: 2, file, options: settings }]);
    workers[1]!.send({ id: 2, ...ok(5) });
    expect((await next)?.ok).toBe(true);
  });

  it('treats a reply that cannot be read as a crash', async () => {
    const { workers, client } = setup();
    const run = client.run(file, settings);
    await flush();
    workers[0]!.send({ ready: true });
    await flush();
    workers[0]!.onmessageerror?.({} as MessageEvent);
    expect(await run).toEqual({ ok: false, reason: 'upload.reason.processing' });
  });
});
