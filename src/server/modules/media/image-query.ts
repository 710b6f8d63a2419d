import { z } from 'zod';
import {
  IMAGE_FITS,
  IMAGE_FORMATS,
  IMAGE_GRAVITIES,
  MAX_BLUR,
  MAX_IMAGE_DIMENSION,
  MIN_BLUR,
} from '../../../shared/image-params.ts';

/** GET /img query: the source URL and the transformation. */
export const imageQuerySchema = z.object({
  url: z.string().min(1, { error: '缺少图片地址' }).max(2048, { error: '图片地址过长' }),
  w: z.coerce.number().int().min(1).max(MAX_IMAGE_DIMENSION).optional(),
  h: z.coerce.number().int().min(1).max(MAX_IMAGE_DIMENSION).optional(),
  q: z.coerce.number().int().min(1).max(100).optional(),
  f: z.enum(IMAGE_FORMATS).optional(),
  fit: z.enum(IMAGE_FITS).optional(),
  g: z.enum(IMAGE_GRAVITIES).optional(),
  blur: z.coerce.number().min(MIN_BLUR).max(MAX_BLUR).optional(),
});

export type ImageQuery = z.infer<typeof imageQuerySchema>;
