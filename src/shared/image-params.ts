import { z } from 'zod';

/** Query parameters of GET /img, our image transformation endpoint (spec §3 "Image processing parameters"). */
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

export const imageQuerySchema = z.object({
  url: z.string().min(1, { error: '缺少图片地址' }).max(2048, { error: '图片地址过长' }),
  w: z.coerce.number().int().min(1).max(MAX_IMAGE_DIMENSION).optional(),
  h: z.coerce.number().int().min(1).max(MAX_IMAGE_DIMENSION).optional(),
  q: z.coerce.number().int().min(1).max(100).optional(),
  f: z.enum(IMAGE_FORMATS).optional(),
  fit: z.enum(IMAGE_FITS).optional(),
  g: z.enum(IMAGE_GRAVITIES).optional(),
  blur: z.coerce.number().min(0.3).max(100).optional(),
});

export type ImageQuery = z.infer<typeof imageQuerySchema>;
