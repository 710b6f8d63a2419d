import type CompressorClass from 'compressorjs';
import { describe, expect, it, vi } from 'vitest';
import { COMPRESS_DEFAULTS, type CompressSettings } from './image-compress.ts';
import {
  canCompressIn,
  compressWithQualitySteps,
  compressorEncoder,
  createRequestHandler,
  dataUrlToBlob,
  EncodeFailure,
  installCompressorShims,
  reasonOfCompressorError,
  type CompressOutcome,
  type CompressReply,
  type Encoder,
  type ShimScope,
} from './image-compress.worker.ts';

const MB = 1024 * 1024;
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** An encoder whose output size is `bytesAtFullQuality × quality`, recording each call. */
function fakeEncoder(bytesAtFullQuality: number, typeOf: (mimeType: string) => string = (type) => type) {
  const calls: { quality: number; mimeType: string }[] = [];
  const encode: Encoder = async (quality, mimeType) => {
    calls.push({ quality, mimeType });
    // The loop reads only the size and type.
    const blob = { size: Math.round(bytesAtFullQuality * quality), type: typeOf(mimeType) } as Blob;
    return { blob, width: 400, height: 300 };
  };
  return { encode, calls };
}

describe('the quality loop', () => {
  it('keeps the first encoding when it fits', async () => {
    const { encode, calls } = fakeEncoder(1 * MB);
    const outcome = await compressWithQualitySteps(encode, COMPRESS_DEFAULTS);
    expect(outcome).toMatchObject({ ok: true, quality: 0.8, iterations: 1, width: 400, height: 300 });
    expect(calls).toEqual([{ quality: 0.8, mimeType: 'image/webp' }]);
  });

  it('lowers the quality by 0.1 until the result fits, without rounding drift', async () => {
    const { encode, calls } = fakeEncoder(10 * MB);
    const outcome = await compressWithQualitySteps(encode, COMPRESS_DEFAULTS);
    expect(calls.map((call) => call.quality)).toEqual([0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]);
    expect(outcome).toMatchObject({ ok: true, quality: 0.2, iterations: 7 });
    if (outcome.ok) expect(outcome.blob.size).toBeLessThanOrEqual(2 * MB);
  });

  it('stops at the minimum quality and fails when nothing fits', async () => {
    const { encode, calls } = fakeEncoder(100 * MB);
    const outcome = await compressWithQualitySteps(encode, COMPRESS_DEFAULTS);
    expect(calls.map((call) => call.quality)).toEqual([0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]);
    expect(outcome).toEqual({ ok: false, reason: 'upload.reason.tooLarge' });
  });

  it('never goes below the minimum quality', async () => {
    const { encode, calls } = fakeEncoder(100 * MB);
    await compressWithQualitySteps(encode, { ...COMPRESS_DEFAULTS, quality: 0.25, minQuality: 0.1 });
    expect(calls.map((call) => call.quality)).toEqual([0.25, 0.15, 0.1]);
  });

  it('makes at most maxIterations encodings', async () => {
    const { encode, calls } = fakeEncoder(100 * MB);
    const outcome = await compressWithQualitySteps(encode, { ...COMPRESS_DEFAULTS, maxIterations: 3 });
    expect(calls).toHaveLength(3);
    expect(outcome.ok).toBe(false);
  });

  it('switches to JPEG at the same quality when the browser cannot write the asked format', async () => {
    // Safari's canvas has no WebP encoder and answers with PNG.
    const { encode, calls } = fakeEncoder(10 * MB, (type) => (type === 'image/webp' ? 'image/png' : type));
    const outcome = await compressWithQualitySteps(encode, COMPRESS_DEFAULTS);
    expect(calls.slice(0, 2)).toEqual([
      { quality: 0.8, mimeType: 'image/webp' },
      { quality: 0.8, mimeType: 'image/jpeg' },
    ]);
    expect(outcome).toMatchObject({ ok: true, quality: 0.2, iterations: 8 });
    if (outcome.ok) expect(outcome.blob.type).toBe('image/jpeg');
  });

  it('tries a lossless format once: its size does not follow the quality', async () => {
    const { encode, calls } = fakeEncoder(10 * MB);
    const outcome = await compressWithQualitySteps(encode, { ...COMPRESS_DEFAULTS, mimeType: 'image/png' });
    expect(calls).toHaveLength(1);
    expect(outcome).toEqual({ ok: false, reason: 'upload.reason.tooLarge' });
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const { calls } = fakeEncoder(10 * MB);
    const encode: Encoder = async (quality, mimeType) => {
      calls.push({ quality, mimeType });
      controller.abort(new Error('stop'));
      return { blob: { size: 5 * MB, type: mimeType } as Blob, width: 1, height: 1 };
    };
    await expect(compressWithQualitySteps(encode, COMPRESS_DEFAULTS, controller.signal)).rejects.toThrow('stop');
    expect(calls).toHaveLength(1);
  });
});

describe('compressorjs failures', () => {
  it('map to the upload reasons of the spec', () => {
    expect(reasonOfCompressorError(new Error('Failed to load the image.'))).toBe('upload.reason.imageLoad');
    expect(reasonOfCompressorError(new Error('Failed to read the image with FileReader.'))).toBe(
      'upload.reason.readInfo',
    );
    expect(reasonOfCompressorError(new Error('Failed to read the compressed image with Blob.arrayBuffer().'))).toBe(
      'upload.reason.conversion',
    );
    expect(reasonOfCompressorError(new Error('The current browser does not support image compression.'))).toBe(
      'upload.reason.canvas',
    );
    expect(reasonOfCompressorError(new Error('The first argument must be an image File or Blob object.'))).toBe(
      'upload.reason.notImage',
    );
    expect(reasonOfCompressorError(new TypeError('x is undefined'))).toBe('upload.reason.processing');
    expect(reasonOfCompressorError(new EncodeFailure('upload.reason.canvas'))).toBe('upload.reason.canvas');
  });
});

type CompressorOptions = NonNullable<ConstructorParameters<typeof CompressorClass>[1]>;

/** A stand-in for compressorjs: `behave` plays one run through the hooks it was given. */
function fakeCompressor(behave: (options: CompressorOptions, file: Blob, self: { aborted: boolean }) => void) {
  const made: { options: CompressorOptions; self: { aborted: boolean; image: { close: () => void } } }[] = [];
  class Fake {
    aborted = false;
    image = { close: vi.fn() };
    options: CompressorOptions;

    constructor(file: Blob, options: CompressorOptions) {
      this.options = options;
      made.push({ options, self: this });
      queueMicrotask(() => behave(options, file, this));
    }

    abort() {
      this.aborted = true;
      this.options.error?.(new Error('The compression process has been aborted.'));
    }
  }
  return { Compressor: Fake as unknown as typeof CompressorClass, made };
}

function canvasOf(width: number, height: number) {
  const encodings: { type?: string; quality?: number }[] = [];
  const canvas = {
    width,
    height,
    encodings,
    toBlob(callback: (blob: Blob | null) => void, type?: string, quality?: number) {
      encodings.push({ type, quality });
      queueMicrotask(() => callback(type === 'image/broken' ? null : new Blob([], { type })));
    },
  };
  return canvas as typeof canvas & HTMLCanvasElement;
}
const context = {} as CanvasRenderingContext2D;
const resizeOff = { resize: false, maxWidth: 2560, maxHeight: 1440 };

describe('the compressorjs encoder', () => {
  const photo = new Blob([new Uint8Array(10)], { type: 'image/jpeg' });

  it('asks for one encoding at the quality and format, orientation applied, EXIF dropped', async () => {
    const { Compressor, made } = fakeCompressor((options) => {
      options.drew?.(context, canvasOf(4000, 3000));
      options.success?.(new Blob([new Uint8Array(5)], { type: 'image/webp' }));
    });
    const encoded = await compressorEncoder(Compressor, photo, resizeOff)(0.7, 'image/webp');
    expect(encoded).toMatchObject({ width: 4000, height: 3000 });
    expect(encoded.blob.type).toBe('image/webp');
    expect(made[0]!.options).toMatchObject({
      quality: 0.7,
      mimeType: 'image/webp',
      strict: false,
      checkOrientation: true,
      retainExif: false,
    });
    expect(made[0]!.options.maxWidth).toBeUndefined();
    expect(made[0]!.self.image.close).toHaveBeenCalled();
  });

  it('encodes the drawn canvas again for the next quality, and draws again for another format', async () => {
    const canvas = canvasOf(4000, 3000);
    const { Compressor, made } = fakeCompressor((options) => {
      options.drew?.(context, canvas);
      options.success?.(new Blob([new Uint8Array(5)], { type: String(options.mimeType) }));
    });
    const encode = compressorEncoder(Compressor, photo, resizeOff);
    await encode(0.8, 'image/webp');
    const second = await encode(0.7, 'image/webp');
    expect(made).toHaveLength(1);
    expect(canvas.encodings).toEqual([{ type: 'image/webp', quality: 0.7 }]);
    expect(second).toMatchObject({ width: 4000, height: 3000 });
    expect(second.blob.type).toBe('image/webp');

    await encode(0.7, 'image/jpeg');
    expect(made).toHaveLength(2);
    await expect(encode(0.6, 'image/broken')).resolves.toBeDefined();
    encode.dispose();
    expect([canvas.width, canvas.height]).toEqual([0, 0]);
  });

  it('reports a canvas that cannot be written again as a conversion failure', async () => {
    const canvas = canvasOf(10, 10);
    const { Compressor } = fakeCompressor((options) => {
      options.drew?.(context, canvas);
      options.success?.(new Blob([], { type: 'image/broken' }));
    });
    const encode = compressorEncoder(Compressor, photo, resizeOff);
    await encode(0.8, 'image/broken');
    await expect(encode(0.7, 'image/broken')).rejects.toMatchObject({ reason: 'upload.reason.conversion' });
  });

  it('passes the size limits only when resizing', async () => {
    const { Compressor, made } = fakeCompressor((options) => {
      options.drew?.(context, canvasOf(2560, 1440));
      options.success?.(new Blob([], { type: 'image/webp' }));
    });
    await compressorEncoder(Compressor, photo, { ...resizeOff, resize: true })(0.8, 'image/webp');
    expect(made[0]!.options).toMatchObject({ maxWidth: 2560, maxHeight: 1440 });
  });

  it('reports the original coming back as a canvas or conversion failure', async () => {
    const undrawn = fakeCompressor((options, file) => options.success?.(file));
    await expect(compressorEncoder(undrawn.Compressor, photo, resizeOff)(0.8, 'image/webp')).rejects.toMatchObject({
      reason: 'upload.reason.canvas',
    });
    const unwritten = fakeCompressor((options, file) => {
      options.drew?.(context, canvasOf(10, 10));
      options.success?.(file);
    });
    await expect(compressorEncoder(unwritten.Compressor, photo, resizeOff)(0.8, 'image/webp')).rejects.toMatchObject({
      reason: 'upload.reason.conversion',
    });
  });

  it('aborts the run and rejects with the signal reason', async () => {
    const { Compressor, made } = fakeCompressor(() => {});
    const controller = new AbortController();
    const run = compressorEncoder(Compressor, photo, resizeOff, controller.signal)(0.8, 'image/webp');
    await flush();
    const reason = new DOMException('gone', 'AbortError');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(made[0]!.self.aborted).toBe(true);
  });
});

describe('the worker protocol', () => {
  const settings: CompressSettings = { ...COMPRESS_DEFAULTS };
  const file = new Blob([new Uint8Array(3)], { type: 'image/png' });
  const done = (size: number): CompressOutcome => ({
    ok: true,
    blob: new Blob([new Uint8Array(size)], { type: 'image/webp' }),
    width: 2,
    height: 1,
    quality: 0.8,
    iterations: 1,
  });

  function setup() {
    const replies: CompressReply[] = [];
    const jobs: { settle: (outcome: CompressOutcome) => void; fail: (error: unknown) => void; signal: AbortSignal }[] =
      [];
    const compress = vi.fn(
      (_file: Blob, _settings: CompressSettings, signal: AbortSignal) =>
        new Promise<CompressOutcome>((settle, fail) => jobs.push({ settle, fail, signal })),
    );
    const handle = createRequestHandler(compress, (reply) => replies.push(reply));
    return { replies, jobs, compress, handle };
  }

  it('answers each request under its id, in the order the work ends', async () => {
    const { replies, jobs, compress, handle } = setup();
    handle({ id: 1, file, options: settings });
    handle({ id: 2, file, options: settings });
    expect(compress).toHaveBeenCalledWith(file, settings, expect.any(AbortSignal));
    jobs[1]!.settle(done(2));
    jobs[0]!.settle({ ok: false, reason: 'upload.reason.imageLoad' });
    await flush();
    expect(replies.map((reply) => [reply.id, reply.ok])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(replies[0]).toMatchObject({ id: 2, ok: true, width: 2, height: 1, quality: 0.8, iterations: 1 });
    expect(replies[1]).toEqual({ id: 1, ok: false, reason: 'upload.reason.imageLoad' });
  });

  it('stops an aborted request and sends nothing for it', async () => {
    const { replies, jobs, handle } = setup();
    handle({ id: 7, file, options: settings });
    handle({ id: 7, abort: true });
    expect(jobs[0]!.signal.aborted).toBe(true);
    jobs[0]!.fail(jobs[0]!.signal.reason);
    await flush();
    expect(replies).toEqual([]);
  });

  it('turns an unexpected error into a processing failure', async () => {
    const { replies, jobs, handle } = setup();
    handle({ id: 3, file, options: settings });
    jobs[0]!.fail(new Error('boom'));
    await flush();
    expect(replies).toEqual([{ id: 3, ok: false, reason: 'upload.reason.processing' }]);
  });
});

describe('the DOM stand-ins for compressorjs', () => {
  function fakeScope() {
    const converted: ImageEncodeOptions[] = [];
    const drawn: unknown[] = [];
    const bitmaps: { width: number; height: number; close: ReturnType<typeof vi.fn> }[] = [];
    let failEncoding = false;
    class FakeCanvas {
      width: number;
      height: number;
      constructor(width: number, height: number) {
        this.width = width;
        this.height = height;
      }
      getContext() {
        return { drawImage: (image: unknown) => drawn.push(image), fillRect: vi.fn() };
      }
      convertToBlob(options: ImageEncodeOptions) {
        converted.push(options);
        return failEncoding ? Promise.reject(new Error('no')) : Promise.resolve(new Blob([], { type: options.type }));
      }
    }
    const decoded: { blob: Blob; options: ImageBitmapOptions | undefined }[] = [];
    const scope: ShimScope & Record<string, unknown> = {
      OffscreenCanvas: FakeCanvas as unknown as typeof OffscreenCanvas,
      createImageBitmap: async (blob, options) => {
        decoded.push({ blob, options });
        if (blob.type === 'image/broken') throw new Error('cannot decode');
        const bitmap = { width: 640, height: 480, close: vi.fn() };
        bitmaps.push(bitmap);
        return bitmap as unknown as ImageBitmap;
      },
      FileReader: class {} as unknown as typeof FileReader,
      navigator: { userAgent: 'test' },
      atob: (text) => Buffer.from(text, 'base64').toString('latin1'),
      btoa: (text) => Buffer.from(text, 'latin1').toString('base64'),
    };
    installCompressorShims(scope);
    return {
      scope,
      converted,
      drawn,
      bitmaps,
      decoded,
      failNextEncoding: () => (failEncoding = true),
    };
  }

  interface ShimImage {
    onload: (() => void) | null;
    onerror: (() => void) | null;
    src: string;
    complete: boolean;
    naturalWidth: number;
    naturalHeight: number;
    close(): void;
  }
  interface ShimWindow {
    document: unknown;
    URL: { createObjectURL(blob: Blob): string; revokeObjectURL(url: string): void };
    FileReader: unknown;
    navigator: unknown;
  }
  interface ShimCanvas {
    width: number;
    height: number;
    getContext(type: string): { drawImage(image: unknown, ...rest: number[]): void } | null;
    toBlob(callback: (blob: Blob | null) => void, type?: string, quality?: number): void;
  }

  function load(image: ShimImage, src: string): Promise<'load' | 'error'> {
    return new Promise((resolve) => {
      image.onload = () => resolve('load');
      image.onerror = () => resolve('error');
      image.src = src;
    });
  }

  it('gives compressorjs a window whose document is the global one', () => {
    const { scope } = fakeScope();
    const window = scope.window as ShimWindow;
    expect(window.document).toBe(scope.document);
    expect(window.FileReader).toBe(scope.FileReader);
    expect(window.navigator).toBe(scope.navigator);
    expect(typeof scope.Image).toBe('function');
  });

  it('decodes an object URL into a bitmap, applying EXIF orientation, and frees it on close', async () => {
    const { scope, decoded, bitmaps } = fakeScope();
    const window = scope.window as ShimWindow;
    const image = new (scope.Image as new () => ShimImage)();
    const blob = new Blob([new Uint8Array(4)], { type: 'image/png' });
    const url = window.URL.createObjectURL(blob);
    expect(url.startsWith('blob:')).toBe(true);
    expect(image.complete).toBe(true);
    const loading = load(image, url);
    expect(image.complete).toBe(false);
    expect(await loading).toBe('load');
    expect(image).toMatchObject({ naturalWidth: 640, naturalHeight: 480, complete: true, src: url });
    expect(decoded[0]).toEqual({ blob, options: { imageOrientation: 'from-image' } });
    image.close();
    expect(bitmaps[0]!.close).toHaveBeenCalled();
  });

  it('decodes data URLs without fetching them', async () => {
    const { scope, decoded } = fakeScope();
    const image = new (scope.Image as new () => ShimImage)();
    expect(await load(image, 'data:image/jpeg;base64,/9j/AA==')).toBe('load');
    expect(decoded[0]!.blob.type).toBe('image/jpeg');
    expect([...new Uint8Array(await decoded[0]!.blob.arrayBuffer())]).toEqual([0xff, 0xd8, 0xff, 0x00]);
  });

  it('reports an undecodable image or an unknown URL as a load error', async () => {
    const { scope } = fakeScope();
    const window = scope.window as ShimWindow;
    const Image = scope.Image as new () => ShimImage;
    const broken = window.URL.createObjectURL(new Blob([], { type: 'image/broken' }));
    expect(await load(new Image(), broken)).toBe('error');
    expect(await load(new Image(), 'blob:nowhere/1')).toBe('error');
  });

  it('reports an onload handler that throws as a load error instead of hanging', async () => {
    const { scope } = fakeScope();
    const window = scope.window as ShimWindow;
    const image = new (scope.Image as new () => ShimImage)();
    const failed = new Promise<void>((resolve) => {
      image.onload = () => {
        throw new Error('draw failed');
      };
      image.onerror = () => resolve();
    });
    image.src = window.URL.createObjectURL(new Blob([], { type: 'image/png' }));
    await failed;
  });

  it('makes canvases on OffscreenCanvas that draw the decoded bitmap and write blobs', async () => {
    const { scope, drawn, bitmaps, converted, failNextEncoding } = fakeScope();
    const document = scope.document as { createElement(tag: string): ShimCanvas };
    expect(() => document.createElement('img')).toThrow();
    const canvas = document.createElement('canvas');
    canvas.width = 40;
    canvas.height = 30;
    expect([canvas.width, canvas.height]).toEqual([40, 30]);
    expect(canvas.getContext('webgl')).toBeNull();

    const window = scope.window as ShimWindow;
    const image = new (scope.Image as new () => ShimImage)();
    await load(image, window.URL.createObjectURL(new Blob([], { type: 'image/png' })));
    canvas.getContext('2d')!.drawImage(image, 0, 0, 40, 30);
    expect(drawn).toEqual([bitmaps[0]]);

    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', 0.6));
    expect(blob?.type).toBe('image/webp');
    expect(converted).toEqual([{ type: 'image/webp', quality: 0.6 }]);
    failNextEncoding();
    expect(await new Promise((resolve) => canvas.toBlob(resolve, 'image/webp', 0.6))).toBeNull();
  });

  it('needs OffscreenCanvas with a 2D context, createImageBitmap and FileReader', () => {
    const { scope } = fakeScope();
    expect(canCompressIn(scope)).toBe(true);
    expect(canCompressIn({ ...scope, OffscreenCanvas: undefined } as Partial<ShimScope>)).toBe(false);
    expect(canCompressIn({ ...scope, createImageBitmap: undefined } as Partial<ShimScope>)).toBe(false);
    expect(canCompressIn({ ...scope, FileReader: undefined })).toBe(false);
  });
});

describe('data URLs', () => {
  const atob = (text: string) => Buffer.from(text, 'base64').toString('latin1');

  it('decode base64 and percent-encoded bodies with their type', async () => {
    const png = dataUrlToBlob('data:image/png;base64,iVBORw==', atob)!;
    expect(png.type).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const svg = dataUrlToBlob('data:image/svg+xml;charset=utf-8,%3Csvg%2F%3E', atob)!;
    expect(svg.type).toBe('image/svg+xml');
    expect(await svg.text()).toBe('<svg/>');
    expect(dataUrlToBlob('blob:x', atob)).toBeNull();
  });
});
