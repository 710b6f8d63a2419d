import { describe, expect, it } from 'vitest';
import { cacheControlFor } from './static-files.ts';

describe('static file caching', () => {
  it('caches hashed assets forever, build files never, pages with revalidation', () => {
    expect(cacheControlFor('/_astro/index.C0ffee.js')).toContain('immutable');
    expect(cacheControlFor('/builds/latest.json')).toBe('no-cache');
    expect(cacheControlFor('/docs/index.html')).toContain('must-revalidate');
    expect(cacheControlFor('/docs/guide')).toContain('must-revalidate');
    expect(cacheControlFor('/favicon.svg')).toBe('public, max-age=3600');
  });
});
