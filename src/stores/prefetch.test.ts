import { describe, expect, it } from 'vitest';
import { PREFETCH_CONCURRENCY, canPrefetch, createPrefetchQueue, extractChunkUrls } from './prefetch.ts';

describe('prefetch', () => {
  it('stays off with data saver or on 2g connections', () => {
    expect(canPrefetch(undefined)).toBe(true);
    expect(canPrefetch({ effectiveType: '4g' })).toBe(true);
    expect(canPrefetch({ saveData: true, effectiveType: '4g' })).toBe(false);
    expect(canPrefetch({ effectiveType: 'slow-2g' })).toBe(false);
    expect(canPrefetch({ effectiveType: '2g' })).toBe(false);
  });

  it('runs at most 4 at once and never the same URL twice', async () => {
    const release: (() => void)[] = [];
    let peak = 0;
    let running = 0;
    const queue = createPrefetchQueue(
      () =>
        new Promise<void>((resolve) => {
          running++;
          peak = Math.max(peak, running);
          release.push(() => {
            running--;
            resolve();
          });
        }),
    );
    for (let i = 0; i < 10; i++) queue.enqueue(`/page/${i}`);
    queue.enqueue('/page/1');
    expect(queue.active()).toBe(PREFETCH_CONCURRENCY);
    while (release.length) {
      release.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(peak).toBe(4);
    expect(queue.seen().size).toBe(10);
  });

  it('finds the chunks a page will load', () => {
    const html = `<astro-island component-url="/_astro/A.abc.js" renderer-url="/_astro/client.def.js"></astro-island>
      <script type="module" src="/_astro/page.123.js"></script><img src="/favicon.svg">`;
    expect(extractChunkUrls(html, 'https://h.example/')).toEqual([
      'https://h.example/_astro/A.abc.js',
      'https://h.example/_astro/client.def.js',
      'https://h.example/_astro/page.123.js',
    ]);
  });
});
