/**
 * The image URL rule: images on the allowed hosts are requested through the server's `GET /img`
 * transformation endpoint (resize, re-encode, blur); every other URL is used as it is.
 */
import {
  IMAGE_FITS,
  IMAGE_FORMATS,
  IMAGE_GRAVITIES,
  MAX_BLUR,
  MAX_IMAGE_DIMENSION,
  MIN_BLUR,
  type ImageFit,
  type ImageFormat,
} from './image-params.ts';

export type { ImageFit, ImageFormat };
export { MAX_BLUR, MAX_IMAGE_DIMENSION, MIN_BLUR };

export interface ImageParams {
  width?: number;
  height?: number;
  quality?: number;
  format?: ImageFormat;
  fit?: ImageFit;
  gravity?: string;
  blur?: number;
}

/** The public config fields `imageBedUrl` and `imageAllowedHosts` (src/shared/public-config.ts). */
export interface ImageUrlOptions {
  imageBedUrl: string;
  allowedHosts: string[];
}

export const IMAGE_PRESETS = {
  thumbnail: { width: 150, height: 150, fit: 'cover' },
  small: { width: 300 },
  medium: { width: 600 },
  large: { width: 1200 },
  avatar: { width: 200, height: 200, fit: 'cover' },
  banner: { width: 1920, height: 600, fit: 'cover' },
  hq: { quality: 95 },
  modern: { format: 'avif' },
} as const satisfies Record<string, ImageParams>;

export const DEFAULT_RESPONSIVE_WIDTHS = [300, 600, 1200];
export const DEFAULT_QUALITY = 85;
export const DEFAULT_FORMAT: ImageFormat = 'webp';
export const SCREEN_BREAKPOINTS = { xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, xxl: 1536 };
export const PIXEL_DENSITIES = [1, 2];

export const IMAGE_ENDPOINT = '/img';
export const MEDIA_PATH_PREFIX = '/media/';

const FORMATS: readonly string[] = IMAGE_FORMATS;
const FITS: readonly string[] = IMAGE_FITS;
const GRAVITIES: readonly string[] = IMAGE_GRAVITIES;
const IMAGE_EXTENSION = /\.(?:jpe?g|png|gif|webp)$/i;
// Only used to resolve site-relative paths; never requested.
const SITE_BASE = 'http://site.invalid';

function ownHost(imageBedUrl: string): string | null {
  try {
    const bed = new URL(imageBedUrl);
    return bed.protocol === 'http:' || bed.protocol === 'https:' ? bed.host : null;
  } catch {
    // A relative image bed ('/media') has no host of its own: only /media/ paths are ours.
    return null;
  }
}

function isTransformable(raw: string, options: ImageUrlOptions): boolean {
  const url = raw.trim();
  if (url.length === 0) return false;
  if (url.startsWith('/') && !url.startsWith('//')) {
    const parsed = new URL(url, SITE_BASE);
    // Resolved, so '/media/../api/x.png' and '/media\\..' do not slip out of /media/.
    if (parsed.origin !== SITE_BASE || !parsed.pathname.startsWith(MEDIA_PATH_PREFIX)) return false;
    if (!url.startsWith(MEDIA_PATH_PREFIX)) return false;
    return IMAGE_EXTENSION.test(parsed.pathname) || parsed.search.length > 0;
  }
  if (!/^https?:\/\//i.test(url)) return false;
  const parsed = new URL(url);
  // The endpoint would fetch with them; an image link has no business carrying credentials.
  if (parsed.username || parsed.password) return false;
  const own = ownHost(options.imageBedUrl);
  const allowed = parsed.host === own || options.allowedHosts.some((h) => h.trim().toLowerCase() === parsed.host);
  if (!allowed) return false;
  // Already rewritten: the endpoint on our own host.
  if (parsed.host === own && parsed.pathname === IMAGE_ENDPOINT) return false;
  return IMAGE_EXTENSION.test(parsed.pathname) || parsed.search.length > 0;
}

/** True when `url` is an image on the allowed hosts that the /img endpoint may transform. */
export function isTransformableImage(url: string, options: ImageUrlOptions): boolean {
  try {
    return isTransformable(url, options);
  } catch {
    return false;
  }
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const finite = (value: number | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

function transformQuery(params: ImageParams): string[] {
  const query: string[] = [];
  if (finite(params.width)) query.push(`w=${clamp(Math.round(params.width), 1, MAX_IMAGE_DIMENSION)}`);
  if (finite(params.height)) query.push(`h=${clamp(Math.round(params.height), 1, MAX_IMAGE_DIMENSION)}`);
  const quality = finite(params.quality) ? clamp(Math.round(params.quality), 1, 100) : DEFAULT_QUALITY;
  query.push(`q=${quality}`);
  const format = params.format && FORMATS.includes(params.format) ? params.format : DEFAULT_FORMAT;
  query.push(`f=${format}`);
  if (params.fit && FITS.includes(params.fit)) query.push(`fit=${params.fit}`);
  const gravity = params.gravity?.trim().toLowerCase();
  if (gravity && GRAVITIES.includes(gravity)) query.push(`g=${gravity}`);
  // No blur (0 or less) is no parameter; otherwise one decimal is all the endpoint distinguishes.
  if (finite(params.blur) && params.blur > 0)
    query.push(`blur=${clamp(Math.round(params.blur * 10) / 10, MIN_BLUR, MAX_BLUR)}`);
  return query;
}

/**
 * The /img URL for an allowed image with the given transformation; any other URL unchanged.
 * Quality defaults to 85 and format to webp; unknown fit or gravity values are left out.
 */
export function processImageUrl(url: string, params: ImageParams, options: ImageUrlOptions): string {
  try {
    if (!isTransformable(url, options)) return url;
    return `${IMAGE_ENDPOINT}?${[`url=${encodeURIComponent(url.trim())}`, ...transformQuery(params)].join('&')}`;
  } catch (error) {
    console.warn('[image-url] using the original image URL:', error instanceof Error ? error.message : error);
    return url;
  }
}

/** `srcset` with one candidate per width ("/img?…&w=300… 300w, …"); '' when the image is not transformable. */
export function responsiveSrcSet(
  url: string,
  options: ImageUrlOptions,
  widths: number[] = DEFAULT_RESPONSIVE_WIDTHS,
  params: ImageParams = {},
): string {
  if (!isTransformableImage(url, options)) return '';
  const sizes = [
    ...new Set(widths.filter((w) => finite(w) && w > 0).map((w) => clamp(Math.round(w), 1, MAX_IMAGE_DIMENSION))),
  ].sort((a, b) => a - b);
  const candidates: string[] = [];
  for (const width of sizes) {
    const src = processImageUrl(url, { ...params, width }, options);
    if (src === url) return '';
    candidates.push(`${src} ${width}w`);
  }
  return candidates.join(', ');
}

/** `srcset` for a fixed-size image at 1x and 2x; '' when the image is not transformable. */
export function densitySrcSet(
  url: string,
  width: number,
  height: number | undefined,
  options: ImageUrlOptions,
  params: ImageParams = {},
): string {
  if (!isTransformableImage(url, options)) return '';
  const candidates: string[] = [];
  for (const density of PIXEL_DENSITIES) {
    const scaled: ImageParams = { ...params, width: width * density };
    if (height !== undefined) scaled.height = height * density;
    const src = processImageUrl(url, scaled, options);
    if (src === url) return '';
    candidates.push(`${src} ${density}x`);
  }
  return candidates.join(', ');
}
