import { z } from 'zod';
import {
  IMAGE_FITS,
  IMAGE_FORMATS,
  IMAGE_GRAVITIES,
  MAX_BLUR,
  MAX_IMAGE_DIMENSION,
  MIN_BLUR,
} from '../../../shared/image-params.ts';
import { queryDecimal, queryInt } from '../../../shared/input-rules.ts';

/**
 * Sizes a variant may have: a requested width or height is rounded up to the next of these, so the
 * number of distinct variants (each a transformation and a cache file) stays small.
 */
export const SIZE_STEPS = [
  16,
  24,
  32,
  40,
  48,
  64,
  80,
  100,
  120,
  150,
  160,
  200,
  240,
  300,
  320,
  400,
  480,
  600,
  640,
  720,
  800,
  960,
  1080,
  1200,
  1440,
  1600,
  1920,
  2400,
  2560,
  3200,
  MAX_IMAGE_DIMENSION,
];
const snapSize = (n: number) => SIZE_STEPS.find((step) => step >= n) ?? MAX_IMAGE_DIMENSION;
const QUALITY_STEPS = [10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 100];
const snapQuality = (n: number) => QUALITY_STEPS.find((step) => step >= n) ?? 100;

/** GET /img query: the source URL and the transformation. */
export const imageQuerySchema = z.object({
  url: z.string().min(1, { error: 'validation.imageUrl.missing' }).max(2048, { error: 'validation.imageUrl.tooLong' }),
  // Numbers in decimal digits only: "0x10", "1e3" or " 5" are refused, not read as some other size.
  w: queryInt({ min: 1, max: MAX_IMAGE_DIMENSION, label: 'validation.label.width' }).transform(snapSize).optional(),
  h: queryInt({ min: 1, max: MAX_IMAGE_DIMENSION, label: 'validation.label.height' }).transform(snapSize).optional(),
  q: queryInt({ min: 1, max: 100, label: 'validation.label.quality' }).transform(snapQuality).optional(),
  f: z.enum(IMAGE_FORMATS).optional(),
  fit: z.enum(IMAGE_FITS).optional(),
  g: z.enum(IMAGE_GRAVITIES).optional(),
  blur: queryDecimal({ min: MIN_BLUR, max: MAX_BLUR, label: 'validation.label.blur' })
    .transform((b) => Math.max(1, Math.round(b)))
    .optional(),
});

export type ImageQuery = z.infer<typeof imageQuerySchema>;
