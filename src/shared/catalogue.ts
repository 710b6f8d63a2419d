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
import { bodyId, bodyInt, decimalId, queryInt, safeText } from './input-rules.ts';

/** A tag id in a list URL, or a number when code builds the query. */
const decimalIdOrNumber = z.union([decimalId('标签'), z.number().int().positive()]);

/** The Galgame catalogue contract: the request schemas here, values, shapes and paths in catalogue-model.ts. */
export * from './catalogue-model.ts';

/** /galgame/list query: every filter lives in the URL; a value written any other way is ignored. */
export const galgameListQuerySchema = z.object({
  tag: decimalIdOrNumber.optional().catch(undefined),
  platform: z.enum(PLATFORMS).optional().catch(undefined),
  year: queryInt({ min: 1980, max: 2100, label: '年份' }).optional().catch(undefined),
  translation: z.enum(TRANSLATION_TYPES).optional().catch(undefined),
  nsfw: z.enum(NSFW_FILTERS).default('all').catch('all'),
  sort: z.enum(LIST_SORTS).default('date').catch('date'),
  page: queryInt({ min: 1, max: 10_000, label: '页码' }).default(1).catch(1),
});
export type GalgameListQuery = z.infer<typeof galgameListQuerySchema>;

const favoriteItemType = z.enum(FAVORITE_ITEM_TYPES, { error: '收藏类型无效' });

/** POST /api/user/favorites body: `itemId` is a JSON number. */
export const favoriteBodySchema = z.object({
  itemType: favoriteItemType,
  itemId: bodyId('收藏对象'),
});

/** GET /api/user/favorites/check query: `itemId` in decimal digits. */
export const favoriteCheckQuerySchema = z.object({
  itemType: favoriteItemType,
  itemId: decimalId('收藏对象'),
});

export const ratingBodySchema = z.object({
  score: bodyInt({ min: 1, max: 10, label: '评分', required: '请选择评分' }),
  status: z.enum(PLAY_STATUSES, { error: '请选择游玩状态' }),
  text: safeText({ kind: 'multiline', max: RATING_TEXT_MAX, label: '短评' }).default(''),
  spoiler: z.boolean({ error: '剧透标记必须是 true 或 false' }).default(false),
});
export type RatingBody = z.input<typeof ratingBodySchema>;

/** POST /api/galgame/download-link/{linkId}/report body. */
export const linkReportBodySchema = z.object({
  reason: safeText({ max: 200, label: '原因' }).default(''),
});
