import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { createMediaApp } from './media.app.ts';
import { HttpError } from '../../platform/errors.ts';
import { BLUR_MAX_DIMENSION, blurBox } from './image.service.ts';
import { TransformQueue } from './transform-queue.ts';

/** A promise with its resolve function, to hold a job until the test lets it go. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('transformation queue', () => {
  it('runs a fixed number at once and refuses past the queue bound with 503 and a retry time', async () => {
    const queue = new TransformQueue({ concurrency: 1, maxQueued: 2, perClient: 2, retryAfterSeconds: 7 });
    const hold = gate();
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(`start ${name}`);
      await hold.opened;
      return name;
    };
    const running = queue.run('a', job('a'));
    const queued = [queue.run('b', job('b')), queue.run('c', job('c'))];
    expect(queue.stats()).toEqual({ running: 1, queued: 2 });
    const full = await refusal(queue.run('d', job('d')));
    expect([full.status, full.code, full.details]).toEqual([503, 'IMAGE_QUEUE_FULL', { retryAfter: 7 }]);
    expect(order).toEqual(['start a']);
    hold.open();
    expect(await Promise.all([running, ...queued])).toEqual(['a', 'b', 'c']);
    expect(queue.stats()).toEqual({ running: 0, queued: 0 });
    expect(await queue.run('d', async () => 'd')).toBe('d');
  });

  it('runs at most two per client; a few more wait, beyond that 429 with a retry time', async () => {
    const queue = new TransformQueue({ concurrency: 4, maxQueued: 10, perClient: 2, perClientQueued: 1 });
    const hold = gate();
    const started: string[] = [];
    const job = (name: string) => async () => {
      started.push(name);
      await hold.opened;
    };
    const mine = [queue.run('10.0.0.1', job('a1')), queue.run('10.0.0.1', job('a2')), queue.run('10.0.0.1', job('a3'))];
    // Slots are free, but the address already has two running: its third waits.
    expect(started).toEqual(['a1', 'a2']);
    expect(queue.stats()).toEqual({ running: 2, queued: 1 });
    const fourth = await refusal(queue.run('10.0.0.1', job('a4')));
    expect([fourth.status, fourth.code, fourth.details]).toEqual([429, 'RATE_LIMITED', { retryAfter: 5 }]);
    // Another address is not held back by the first one's share.
    await queue.run('10.0.0.2', async () => started.push('b1'));
    expect(started).toEqual(['a1', 'a2', 'b1']);
    hold.open();
    await Promise.all(mine);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(queue.stats()).toEqual({ running: 0, queued: 0 });
  });

  it('gives a free slot to the client with the fewest jobs running, not to the longest backlog', async () => {
    const queue = new TransformQueue({ concurrency: 2, maxQueued: 10, perClient: 2, perClientQueued: 10 });
    const holds = new Map<string, ReturnType<typeof gate>>();
    const started: string[] = [];
    const job = (name: string) => {
      const hold = gate();
      holds.set(name, hold);
      return async () => {
        started.push(name);
        await hold.opened;
      };
    };
    const all = ['b1', 'b2', 'b3', 'b4'].map((name) => queue.run('blurrer', job(name)));
    all.push(queue.run('reader', job('thumb')));
    expect(started).toEqual(['b1', 'b2']);
    holds.get('b1')?.open();
    await new Promise((r) => setTimeout(r, 0));
    // The reader's one thumbnail goes before the blurrer's third request, though it came later.
    expect(started).toEqual(['b1', 'b2', 'thumb']);
    for (const hold of holds.values()) hold.open();
    await Promise.all(all);
    expect(started.slice(3).sort()).toEqual(['b3', 'b4']);
  });

  it('lets uploads wait in a longer line, while page images keep theirs and go first', async () => {
    const queue = new TransformQueue({ concurrency: 2, maxQueued: 2, perClient: 2, perClientQueued: 2 });
    const hold = gate();
    const started: string[] = [];
    const job = (name: string) => async () => {
      started.push(name);
      await hold.opened;
    };
    const long = { maxQueued: 50, perClientQueued: 50, perClient: 1 };
    const uploads = Array.from({ length: 6 }, (_, i) => queue.run('uploads', job(`u${i}`), long));
    // Uploads take one slot at most: the other is free for a page image at once.
    expect(queue.stats()).toEqual({ running: 1, queued: 5 });
    const pages = [
      queue.run('10.0.0.9', job('p1')),
      queue.run('10.0.0.8', job('p2')),
      queue.run('10.0.0.7', job('p3')),
    ];
    expect(started).toEqual(['u0', 'p1']);
    // Page images still have their own two places in line (the uploads waiting do not count), then 503.
    expect((await refusal(queue.run('10.0.0.6', job('p4')))).status).toBe(503);
    hold.open();
    await Promise.all([...uploads, ...pages]);
    expect(started).toHaveLength(9);
  });

  it('frees the slot and the share when a job fails', async () => {
    const queue = new TransformQueue({ concurrency: 1, maxQueued: 0, perClient: 1 });
    await expect(queue.run('a', () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(queue.stats()).toEqual({ running: 0, queued: 0 });
    expect(await queue.run('a', async () => 1)).toBe(1);
  });

  it('makes blurred variants within the blur limit', () => {
    expect(blurBox({})).toEqual({ width: BLUR_MAX_DIMENSION, height: BLUR_MAX_DIMENSION });
    expect(blurBox({ w: 300, h: 200 })).toEqual({ width: 300, height: 200 });
    expect(blurBox({ w: 1920, h: 1080 })).toEqual({ width: 480, height: 270 });
    expect(blurBox({ h: 960 })).toEqual({ width: undefined, height: 480 });
  });
});

describe('GET /img under load', () => {
  let app: TestApp;
  let png: Buffer;
  beforeAll(async () => {
    app = await createTestApp({ IMAGE_ALLOWED_HOSTS: 'lain.bgm.tv' });
    const dir = app.ctx.config.storage.driver === 'local' ? app.ctx.config.storage.dir : '';
    mkdirSync(path.join(dir, 'covers'), { recursive: true });
    png = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#39c5bb' } })
      .png()
      .toBuffer();
    writeFileSync(path.join(dir, 'covers/large.png'), png);
  });
  afterAll(async () => app.close());

  const remote = (n: number) => `/img?url=${encodeURIComponent(`https://lain.bgm.tv/pic/${n}.png`)}&w=100`;
  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it('answers a cached variant while the queue is full, and refuses new work with 503', async () => {
    const hold = gate();
    const fetcher = (async () => {
      await hold.opened;
      return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
    }) as typeof fetch;
    const media = createMediaApp(app.ctx, {
      queue: new TransformQueue({ concurrency: 1, maxQueued: 1, perClient: 2, retryAfterSeconds: 4 }),
      fetcher,
    });
    const cachedUrl = '/img?url=%2Fmedia%2Fcovers%2Flarge.png&w=200&f=webp';
    expect((await media.request(cachedUrl, from('10.1.0.9'))).status).toBe(200);

    const running = media.request(remote(1), from('10.1.0.1'));
    const queued = media.request(remote(2), from('10.1.0.2'));
    await new Promise((r) => setTimeout(r, 50));
    const full = await media.request(remote(3), from('10.1.0.3'));
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('4');
    expect(await full.json()).toMatchObject({ success: false, code: 'IMAGE_QUEUE_FULL' });

    const hit = await media.request(cachedUrl, from('10.1.0.3'));
    expect(hit.status).toBe(200);
    expect((await sharp(Buffer.from(await hit.arrayBuffer())).metadata()).width).toBe(200);

    hold.open();
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
  });

  it('runs two transformations per address and refuses one past its backlog with 429', async () => {
    const hold = gate();
    const fetcher = (async () => {
      await hold.opened;
      return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
    }) as typeof fetch;
    const media = createMediaApp(app.ctx, {
      queue: new TransformQueue({
        concurrency: 4,
        maxQueued: 10,
        perClient: 2,
        perClientQueued: 0,
        retryAfterSeconds: 2,
      }),
      fetcher,
    });
    const mine = [media.request(remote(11), from('10.2.0.1')), media.request(remote(12), from('10.2.0.1'))];
    await new Promise((r) => setTimeout(r, 50));
    const third = await media.request(remote(13), from('10.2.0.1'));
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('2');
    expect(await third.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    hold.open();
    for (const res of await Promise.all(mine)) expect(res.status).toBe(200);
  });

  it('downscales before blurring: a blurred variant of a large source is small', async () => {
    const media = createMediaApp(app.ctx);
    const whole = await media.request('/img?url=%2Fmedia%2Fcovers%2Flarge.png&blur=20&f=webp');
    expect(whole.status).toBe(200);
    const meta = await sharp(Buffer.from(await whole.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([480, 360]);
    const wide = await media.request('/img?url=%2Fmedia%2Fcovers%2Flarge.png&w=1200&blur=100&f=webp');
    expect((await sharp(Buffer.from(await wide.arrayBuffer())).metadata()).width).toBe(480);
  });
});
