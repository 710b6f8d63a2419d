/**
 * The parameters of GET /img, our image transformation endpoint (spec §3 "Image processing
 * parameters"). Shared by the image URL rule (browser) and the endpoint (server).
 */
export const IMAGE_FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;
export const IMAGE_FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
export const IMAGE_GRAVITIES = [
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
] as const;
export const MAX_IMAGE_DIMENSION = 4096;
export const MIN_BLUR = 0.3;
export const MAX_BLUR = 100;

export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ImageFit = (typeof IMAGE_FITS)[number];
export type ImageGravity = (typeof IMAGE_GRAVITIES)[number];
