import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_QUALITY,
  DEFAULT_RESPONSIVE_WIDTHS,
  IMAGE_PRESETS,
  PIXEL_DENSITIES,
  SCREEN_BREAKPOINTS,
  densitySrcSet,
  isTransformableImage,
  processImageUrl,
  responsiveSrcSet,
  type ImageParams,
  type ImageUrlOptions,
} from './image-url.ts';

const options: ImageUrlOptions = {
  imageBedUrl: 'https://img.hikari.test/uploads',
  allowedHosts: ['lain.bgm.tv', 'CDN.Example.com:8443'],
};
/** The store's default before the real configuration arrives: a relative image bed. */
const relativeBed: ImageUrlOptions = { imageBedUrl: '/media', allowedHosts: [] };

const enc = encodeURIComponent;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('constants', () => {
  it('match the spec', () => {
    expect(IMAGE_PRESETS).toEqual({
      thumbnail: { width: 150, height: 150, fit: 'cover' },
      small: { width: 300 },
      medium: { width: 600 },
      large: { width: 1200 },
      avatar: { width: 200, height: 200, fit: 'cover' },
      banner: { width: 1920, height: 600, fit: 'cover' },
      hq: { quality: 95 },
      modern: { format: 'avif' },
    });
    expect(DEFAULT_RESPONSIVE_WIDTHS).toEqual([300, 600, 1200]);
    expect(DEFAULT_QUALITY).toBe(85);
    expect(SCREEN_BREAKPOINTS).toEqual({ xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, xxl: 1536 });
    expect(PIXEL_DENSITIES).toEqual([1, 2]);
  });

  it('presets can be spread into params', () => {
    const params: ImageParams = { ...IMAGE_PRESETS.thumbnail, ...IMAGE_PRESETS.modern };
    expect(processImageUrl('https://lain.bgm.tv/a.jpg', params, options)).toBe(
      `/img?url=${enc('https://lain.bgm.tv/a.jpg')}&w=150&h=150&q=85&f=avif&fit=cover`,
    );
  });
});

describe('isTransformableImage', () => {
  it.each([
    'https://img.hikari.test/uploads/2025/a.jpg',
    'https://img.hikari.test/other/a.png',
    'http://img.hikari.test/a.webp',
    'https://lain.bgm.tv/pic/cover/l/ab/cd.jpg',
    'https://LAIN.BGM.TV/a.JPEG',
    'https://lain.bgm.tv/a.GIF',
    'https://cdn.example.com:8443/a.png',
    'https://lain.bgm.tv/avatar?id=3',
    'https://lain.bgm.tv/a.svg?v=2',
    '/media/a.png',
    '/media/2025/01/封面.webp',
    '/media/upload?id=1',
    '  https://lain.bgm.tv/a.jpg  ',
    'https://lain.bgm.tv/a.png#frag',
  ])('accepts %j', (url) => {
    expect(isTransformableImage(url, options)).toBe(true);
  });

  it.each([
    '',
    '   ',
    'data:image/png;base64,iVBORw0KGgo=',
    'blob:https://img.hikari.test/1234-5678',
    'javascript:alert(1)//a.png',
    'ftp://lain.bgm.tv/a.png',
    'a.png',
    './media/a.png',
    'media/a.png',
    '/images/default-avatar.svg',
    '/static/a.png',
    '/mediax/a.png',
    '/media/../api/secret.png',
    '/media/%2e%2e/api/secret.png',
    '/media\\..\\api\\x.png',
    '//lain.bgm.tv/a.png',
    '//evil.com/a.png',
    'https://evil.com/a.png',
    'https://lain.bgm.tv.evil.com/a.png',
    'https://evil.com/lain.bgm.tv/a.png',
    'https://evil.com/a.png?https://lain.bgm.tv/a.png',
    'https://lain.bgm.tv@evil.com/a.png',
    'https://user:pass@lain.bgm.tv/a.png',
    'https://cdn.example.com/a.png',
    'https://cdn.example.com:9000/a.png',
    'https://lain.bgm.tv/a.svg',
    'https://lain.bgm.tv/a.avif',
    'https://lain.bgm.tv/a.png/',
    'https://lain.bgm.tv/a.pngx',
    'https://lain.bgm.tv/jpg',
    'https://lain.bgm.tv/a?',
    '/img?url=%2Fmedia%2Fa.png&w=100',
    'https://img.hikari.test/img?url=%2Fmedia%2Fa.png&w=100',
    'https://',
    'http://[::1/a.png',
  ])('rejects %j', (url) => {
    expect(isTransformableImage(url, options)).toBe(false);
  });

  it('treats the image bed host as our own, with its port', () => {
    const local: ImageUrlOptions = { imageBedUrl: 'http://localhost:4321/media', allowedHosts: [] };
    expect(isTransformableImage('http://localhost:4321/media/a.png', local)).toBe(true);
    expect(isTransformableImage('http://localhost:4322/media/a.png', local)).toBe(false);
    expect(isTransformableImage('http://localhost:4321/img?url=x', local)).toBe(false);
  });

  it('with a relative image bed, accepts only /media/ paths', () => {
    expect(isTransformableImage('/media/a.png', relativeBed)).toBe(true);
    expect(isTransformableImage('https://lain.bgm.tv/a.png', relativeBed)).toBe(false);
    expect(isTransformableImage('http://site.invalid/media/a.png', relativeBed)).toBe(false);
  });

  it('matches allowed hosts exactly, ignoring case and padding', () => {
    const padded: ImageUrlOptions = { imageBedUrl: '', allowedHosts: ['  Pics.Example.ORG '] };
    expect(isTransformableImage('https://pics.example.org/a.png', padded)).toBe(true);
    expect(isTransformableImage('https://sub.pics.example.org/a.png', padded)).toBe(false);
    expect(isTransformableImage('https://example.org/a.png', padded)).toBe(false);
  });

  it('rejects everything when the options are malformed, without throwing', () => {
    const broken = { imageBedUrl: 42, allowedHosts: null } as unknown as ImageUrlOptions;
    expect(isTransformableImage('https://lain.bgm.tv/a.png', broken)).toBe(false);
  });
});

describe('processImageUrl', () => {
  it('rewrites with only the given params, in a fixed order', () => {
    const url = 'https://lain.bgm.tv/pic/a.jpg';
    expect(
      processImageUrl(
        url,
        { width: 300, height: 200, quality: 70, format: 'png', fit: 'contain', gravity: 'north', blur: 5 },
        options,
      ),
    ).toBe(`/img?url=${enc(url)}&w=300&h=200&q=70&f=png&fit=contain&g=north&blur=5`);
    expect(processImageUrl(url, { width: 600 }, options)).toBe(`/img?url=${enc(url)}&w=600&q=85&f=webp`);
  });

  it('defaults to quality 85 and webp when nothing else is asked', () => {
    expect(processImageUrl('/media/a.png', {}, options)).toBe(`/img?url=${enc('/media/a.png')}&q=85&f=webp`);
  });

  it('encodes the original URL completely', () => {
    const url = 'https://lain.bgm.tv/a b/图.png?x=1&y=2#z';
    const out = processImageUrl(url, { width: 10 }, options);
    expect(out.startsWith(`/img?url=${enc(url)}&w=10`)).toBe(true);
    expect(new URL(out, 'http://x').searchParams.get('url')).toBe(url);
    expect(out.split('&')).toHaveLength(4);
  });

  it('trims the URL before encoding it', () => {
    expect(processImageUrl(' /media/a.png\n', {}, options)).toBe(`/img?url=${enc('/media/a.png')}&q=85&f=webp`);
  });

  it('rounds and clamps sizes and quality', () => {
    const url = '/media/a.png';
    const q = (params: ImageParams) => new URL(processImageUrl(url, params, options), 'http://x').searchParams;
    expect(q({ width: 299.5, height: 100.4 }).get('w')).toBe('300');
    expect(q({ width: 299.5, height: 100.4 }).get('h')).toBe('100');
    expect(q({ width: 0 }).get('w')).toBe('1');
    expect(q({ width: -50 }).get('w')).toBe('1');
    expect(q({ width: 10_000, height: 5000 }).get('w')).toBe('4096');
    expect(q({ height: 5000 }).get('h')).toBe('4096');
    expect(q({ quality: 0 }).get('q')).toBe('1');
    expect(q({ quality: 150 }).get('q')).toBe('100');
    expect(q({ quality: 72.6 }).get('q')).toBe('73');
  });

  it('leaves out sizes and quality that are not finite numbers', () => {
    const out = processImageUrl(
      '/media/a.png',
      { width: Number.NaN, height: Infinity, quality: Number.NaN, blur: Number.NaN },
      options,
    );
    expect(out).toBe(`/img?url=${enc('/media/a.png')}&q=85&f=webp`);
  });

  it('clamps blur to 0.3–100 with one decimal, and treats 0 as no blur', () => {
    const blur = (value: number) =>
      new URL(processImageUrl('/media/a.png', { blur: value }, options), 'http://x').searchParams.get('blur');
    expect(blur(0.1)).toBe('0.3');
    expect(blur(0.3)).toBe('0.3');
    expect(blur(2.345)).toBe('2.3');
    expect(blur(0.1 + 0.2)).toBe('0.3');
    expect(blur(500)).toBe('100');
    expect(blur(0)).toBeNull();
    expect(blur(-3)).toBeNull();
  });

  it('accepts every documented fit, format and gravity', () => {
    const q = (params: ImageParams) =>
      new URL(processImageUrl('/media/a.png', params, options), 'http://x').searchParams;
    for (const fit of ['cover', 'contain', 'fill', 'inside', 'outside'] as const)
      expect(q({ fit }).get('fit')).toBe(fit);
    for (const format of ['webp', 'avif', 'jpeg', 'png'] as const) expect(q({ format }).get('f')).toBe(format);
    for (const g of [
      'centre',
      'north',
      'south',
      'east',
      'west',
      'northeast',
      'northwest',
      'southeast',
      'southwest',
      'attention',
      'entropy',
    ])
      expect(q({ gravity: g }).get('g')).toBe(g);
    expect(q({ gravity: ' North ' }).get('g')).toBe('north');
  });

  it('drops unknown fit and gravity, and falls back to webp for unknown formats', () => {
    const out = processImageUrl(
      '/media/a.png',
      { fit: 'stretch' as never, gravity: 'middle&x=1', format: 'gif' as never },
      options,
    );
    expect(out).toBe(`/img?url=${enc('/media/a.png')}&q=85&f=webp`);
  });

  it('returns every other URL unchanged', () => {
    for (const url of [
      'data:image/png;base64,AAAA',
      'blob:https://a/1',
      'https://evil.com/a.png',
      '/images/default-avatar.svg',
      '/img?url=x',
      'https://lain.bgm.tv/a.svg',
      '',
    ])
      expect(processImageUrl(url, { width: 100 }, options)).toBe(url);
  });

  it('is idempotent: a rewritten URL is not rewritten again', () => {
    const once = processImageUrl('/media/a.png', { width: 100 }, options);
    expect(processImageUrl(once, { width: 200 }, options)).toBe(once);
  });

  it('returns the original URL and warns once when processing throws', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // A lone surrogate cannot be percent-encoded: encodeURIComponent throws a URIError.
    const url = 'https://lain.bgm.tv/a\uD800.png';
    expect(processImageUrl(url, { width: 100 }, options)).toBe(url);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[1])).toMatch(/URI/i);
  });

  it('returns the original URL and warns when the options are malformed', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const broken = { imageBedUrl: 'https://img.hikari.test', allowedHosts: null } as unknown as ImageUrlOptions;
    expect(processImageUrl('https://lain.bgm.tv/a.png', {}, broken)).toBe('https://lain.bgm.tv/a.png');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('responsiveSrcSet', () => {
  const url = 'https://lain.bgm.tv/a.jpg';
  const src = (w: number, rest = '&q=85&f=webp') => `/img?url=${enc(url)}&w=${w}${rest}`;

  it('lists the default widths', () => {
    expect(responsiveSrcSet(url, options)).toBe(`${src(300)} 300w, ${src(600)} 600w, ${src(1200)} 1200w`);
  });

  it('uses the given widths and params, sorted, rounded and without duplicates', () => {
    expect(responsiveSrcSet(url, options, [640, 320.2, 320, 0, -1, Number.NaN], { format: 'avif', quality: 60 })).toBe(
      `${src(320, '&q=60&f=avif')} 320w, ${src(640, '&q=60&f=avif')} 640w`,
    );
  });

  it('lets the candidate width win over a width in params', () => {
    expect(responsiveSrcSet(url, options, [300], { width: 999 })).toBe(`${src(300)} 300w`);
  });

  it('is empty when the image is not transformable', () => {
    expect(responsiveSrcSet('https://evil.com/a.jpg', options)).toBe('');
    expect(responsiveSrcSet('data:image/png;base64,AAAA', options)).toBe('');
  });

  it('is empty when processing fails', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(responsiveSrcSet('https://lain.bgm.tv/a\uD800.png', options)).toBe('');
  });
});

describe('densitySrcSet', () => {
  const url = '/media/cover.png';

  it('lists 1x and 2x with scaled width and height', () => {
    expect(densitySrcSet(url, 100, 50, options, { fit: 'cover' })).toBe(
      `/img?url=${enc(url)}&w=100&h=50&q=85&f=webp&fit=cover 1x, /img?url=${enc(url)}&w=200&h=100&q=85&f=webp&fit=cover 2x`,
    );
  });

  it('leaves the height out when it is undefined', () => {
    expect(densitySrcSet(url, 300, undefined, options)).toBe(
      `/img?url=${enc(url)}&w=300&q=85&f=webp 1x, /img?url=${enc(url)}&w=600&q=85&f=webp 2x`,
    );
  });

  it('clamps the 2x size to the maximum', () => {
    expect(densitySrcSet(url, 3000, undefined, options)).toContain('&w=4096&q=85&f=webp 2x');
  });

  it('is empty when the image is not transformable', () => {
    expect(densitySrcSet('https://evil.com/a.png', 100, 100, options)).toBe('');
  });
});
