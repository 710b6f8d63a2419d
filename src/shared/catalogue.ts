import { z } from 'zod';
import {
  FAVORITE_ITEM_TYPES,
  LIST_SORTS,
  NSFW_FILTERS,
  PLATFORMS,
  PLAY_STATUSES,
  RATING_TEXT_MAX,
  TRANSLATION_TYPES,
} from './catalogue-model.ts';

/** The Galgame catalogue contract: the request schemas here, values, shapes and paths in catalogue-model.ts. */
export * from './catalogue-model.ts';

/** /galgame/list query: every filter lives in the URL. */
export const galgameListQuerySchema = z.object({
  tag: z.coerce.number().int().positive().optional().catch(undefined),
  platform: z.enum(PLATFORMS).optional().catch(undefined),
  year: z.coerce.number().int().min(1980).max(2100).optional().catch(undefined),
  translation: z.enum(TRANSLATION_TYPES).optional().catch(undefined),
  nsfw: z.enum(NSFW_FILTERS).default('all').catch('all'),
  sort: z.enum(LIST_SORTS).default('date').catch('date'),
  page: z.coerce.number().int().min(1).max(10_000).default(1).catch(1),
});
export type GalgameListQuery = z.infer<typeof galgameListQuerySchema>;

export const favoriteBodySchema = z.object({
  itemType: z.enum(FAVORITE_ITEM_TYPES, { error: '收藏类型无效' }),
  itemId: z.coerce.number({ error: '缺少收藏对象' }).int().positive({ error: '收藏对象无效' }),
});

export const ratingBodySchema = z.object({
  score: z.coerce
    .number({ error: '请选择评分' })
    .int({ error: '评分必须是 1–10 的整数' })
    .min(1, { error: '评分最低 1 分' })
    .max(10, { error: '评分最高 10 分' }),
  status: z.enum(PLAY_STATUSES, { error: '请选择游玩状态' }),
  text: z
    .string()
    .trim()
    .max(RATING_TEXT_MAX, { error: `短评最多 ${RATING_TEXT_MAX} 个字符` })
    .default(''),
  spoiler: z.boolean().default(false),
});
export type RatingBody = z.input<typeof ratingBodySchema>;
