import { randomBytes } from 'node:crypto';
import { CREATOR_GROUPS, type UserGroup } from '../../../shared/auth-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import {
  CREATOR_UPLOAD_TYPES,
  OWN_UPLOAD_TYPES,
  PRIVATE_MESSAGE_TYPE,
  UPLOAD_MAX_BYTES,
  UPLOAD_URL_SECONDS,
  type UploadAddress,
  type UploadBody,
  type UploadType,
} from '../../../shared/media/upload.ts';
import type { AppContext } from '../../context.ts';
import { assertMayUploadEmoji } from '../emoji/emoji.service.ts';
import { HttpError } from '../../platform/errors.ts';
import { hitRateLimit, rateLimited, releaseRateLimit, type RateRule } from '../../platform/rate-limit.ts';
import { contentTypeForKey, formatBytes } from '../../platform/storage/storage.ts';

/** Upload addresses one member may ask for: 10 a minute (as Discourse allows), 300 a day. */
export const UPLOAD_LIMITS = {
  perMinute: { limit: 10, windowMs: 60_000 },
  perDay: { limit: 300, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, RateRule>;

/**
 * Creators fill emoji sets and catalogue covers many images at a time (an emoji set is uploaded in one
 * go), so their creator kinds have a larger allowance, counted apart from their member uploads.
 */
export const CREATOR_UPLOAD_LIMITS = {
  perMinute: { limit: 60, windowMs: 60_000 },
  perDay: { limit: 1000, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, RateRule>;

export interface Uploader {
  id: string;
  userId: number;
  group: UserGroup;
}

/** A file name nobody can guess or choose: time (base 36) and 72 random bits. */
function objectName(format: string): string {
  const extension = format === 'jpg' ? 'jpeg' : format;
  return `${Date.now().toString(36)}${randomBytes(9).toString('base64url')}.${extension}`;
}

/** Who may upload what: creators' kinds need the creator group, one's own avatar only one's own id. */
async function checkAllowed(ctx: AppContext, uploader: Uploader, body: UploadBody): Promise<void> {
  const chat = PRIVATE_MESSAGE_TYPE.exec(body.type);
  if (chat) {
    const other = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('user_id', '=', Number(chat[1]))
      .executeTakeFirst();
    if (!other) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    return;
  }
  const type = body.type as UploadType;
  if (CREATOR_UPLOAD_TYPES.includes(type) && !CREATOR_GROUPS.includes(uploader.group))
    throw new HttpError(403, 'FORBIDDEN', 'server.upload.creatorsOnly');
  if (OWN_UPLOAD_TYPES.includes(type) && body.id !== String(uploader.userId))
    throw new HttpError(403, 'FORBIDDEN', 'server.upload.ownOnly');
  if (type === 'emoji') await assertMayUploadEmoji(ctx.db, uploader, body.id);
}

/**
 * An address the member's browser PUTs one image to (spec §7 Upload). The key is `{type}/{id}/{name}`
 * with a name we choose, so nobody can overwrite another object; the address takes one content type
 * and at most UPLOAD_MAX_BYTES, for UPLOAD_URL_SECONDS.
 */
export async function createUploadAddress(
  ctx: AppContext,
  uploader: Uploader,
  body: UploadBody,
): Promise<UploadAddress> {
  if (body.size !== undefined && body.size > UPLOAD_MAX_BYTES)
    throw new HttpError(
      413,
      'PAYLOAD_TOO_LARGE',
      messageRef('server.storage.tooLarge', { max: formatBytes(UPLOAD_MAX_BYTES) }),
    );
  await checkAllowed(ctx, uploader, body);
  // checkAllowed has refused creator kinds to everyone else.
  const creatorKind = CREATOR_UPLOAD_TYPES.includes(body.type as UploadType);
  const limits = creatorKind ? CREATOR_UPLOAD_LIMITS : UPLOAD_LIMITS;
  const bucket = creatorKind ? 'upload-creator' : 'upload';
  const minuteKey = `${bucket}:minute:${uploader.id}`;
  const minute = await hitRateLimit(ctx.db, minuteKey, limits.perMinute);
  if (minute.count > limits.perMinute.limit) throw rateLimited(minute.retryAfter, 'server.upload.tooFast');
  const day = await hitRateLimit(ctx.db, `${bucket}:day:${uploader.id}`, limits.perDay);
  if (day.count > limits.perDay.limit) {
    await releaseRateLimit(ctx.db, minuteKey, limits.perMinute);
    throw rateLimited(day.retryAfter, messageRef('server.upload.dailyQuota', { max: limits.perDay.limit }));
  }
  const key = `${body.type}/${body.id}/${objectName(body.format)}`;
  const contentType = contentTypeForKey(key);
  if (!contentType) throw new HttpError(400, 'VALIDATION_FAILED', 'validation.upload.format');
  const signed = await ctx.storage.presignPut({
    key,
    contentType,
    maxBytes: UPLOAD_MAX_BYTES,
    contentLength: body.size,
    expiresInSeconds: UPLOAD_URL_SECONDS,
  });
  return {
    url: signed.url,
    headers: signed.headers,
    expiresAt: signed.expiresAt.toISOString(),
    maxBytes: UPLOAD_MAX_BYTES,
    key,
    publicUrl: ctx.storage.publicUrl(key),
  };
}
