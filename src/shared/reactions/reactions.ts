import { z } from 'zod';
import { messageRef } from '../i18n/index.ts';
import { bodyId, decimalId, isRowId, safeText } from '../input-rules.ts';

/**
 * Likes and reports (decision 018). One like per user and item, added and removed idempotently; reports
 * of posts, articles and comments wait for the moderators, one open report per user and item.
 */
import {
  LIKE_TARGET_TYPES,
  LIKE_CHECK_MAX,
  REPORT_TARGET_TYPES,
  REPORT_REASONS,
  REPORT_TEXT_MAX,
} from './reactions-model.ts';

export * from './reactions-model.ts';

const likeType = z.enum(LIKE_TARGET_TYPES, { error: 'comments.validation.likeType' });

/** POST /api/likes body. */
export const likeBodySchema = z.object({ targetType: likeType, targetId: bodyId('comments.label.likeTarget') });

/** DELETE /api/likes/{targetType}/{targetId} params. */
export const likeParamsSchema = z.object({ targetType: likeType, targetId: decimalId('comments.label.likeTarget') });

/** GET /api/likes/check query: `ids` is a comma-separated list of 1–LIKE_CHECK_MAX decimal ids. */
export const likeCheckQuerySchema = z.object({
  targetType: likeType,
  ids: z
    .string({ error: 'comments.validation.likeIds' })
    .transform((raw) => raw.split(','))
    .refine((parts) => parts.length <= LIKE_CHECK_MAX, {
      error: messageRef('comments.validation.likeIdsTooMany', { max: LIKE_CHECK_MAX }),
    })
    .refine((parts) => parts.every(isRowId), { error: 'comments.validation.likeIds' })
    .transform((parts) => [...new Set(parts.map(Number))]),
});

/** POST /api/reports body. */
export const reportBodySchema = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES, { error: 'comments.validation.reportType' }),
  targetId: bodyId('comments.label.reportTarget'),
  reason: z.enum(REPORT_REASONS, { error: 'comments.validation.reportReason' }),
  text: safeText({ kind: 'multiline', max: REPORT_TEXT_MAX, label: 'comments.label.reportText' }).default(''),
});
export type ReportBody = z.infer<typeof reportBodySchema>;
