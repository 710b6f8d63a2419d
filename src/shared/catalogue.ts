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
const decimalIdOrNumber = z.union([decimalId('validation.label.tag'), z.number().int().positive()]);

/** The Galgame catalogue contract: the request schemas here, values, shapes and paths in catalogue-model.ts. */
export * from './catalogue-model.ts';

/** /galgame/list query: every filter lives in the URL; a value written any other way is ignored. */
export const galgameListQuerySchema = z.object({
  tag: decimalIdOrNumber.optional().catch(undefined),
  platform: z.enum(PLATFORMS).optional().catch(undefined),
  year: queryInt({ min: 1980, max: 2100, label: 'validation.label.year' }).optional().catch(undefined),
  translation: z.enum(TRANSLATION_TYPES).optional().catch(undefined),
  nsfw: z.enum(NSFW_FILTERS).default('all').catch('all'),
  sort: z.enum(LIST_SORTS).default('date').catch('date'),
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1).catch(1),
});
export type GalgameListQuery = z.infer<typeof galgameListQuerySchema>;

const favoriteItemType = z.enum(FAVORITE_ITEM_TYPES, { error: 'validation.favoriteType.invalid' });

/** POST /api/user/favorites body: `itemId` is a JSON number. */
export const favoriteBodySchema = z.object({
  itemType: favoriteItemType,
  itemId: bodyId('validation.label.favoriteTarget'),
});

/** GET /api/user/favorites/check query: `itemId` in decimal digits. */
export const favoriteCheckQuerySchema = z.object({
  itemType: favoriteItemType,
  itemId: decimalId('validation.label.favoriteTarget'),
});

export const ratingBodySchema = z.object({
  score: bodyInt({ min: 1, max: 10, label: 'validation.label.score', required: 'validation.score.required' }),
  status: z.enum(PLAY_STATUSES, { error: 'validation.playStatus.required' }),
  text: safeText({ kind: 'multiline', max: RATING_TEXT_MAX, label: 'validation.label.ratingText' }).default(''),
  spoiler: z.boolean({ error: 'validation.spoiler.boolean' }).default(false),
});
export type RatingBody = z.input<typeof ratingBodySchema>;

/** POST /api/galgame/download-link/{linkId}/report body. */
export const linkReportBodySchema = z.object({
  reason: safeText({ max: 200, label: 'validation.label.reason' }).default(''),
});
