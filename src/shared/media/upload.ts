import { z } from 'zod';

/**
 * What `POST /api/upload` accepts (spec §7 Upload): the kind of upload (`type`), the thing it belongs to
 * (`id`) and the image format. The object is stored as `{type}/{id}/{random name}.{format}`, and its
 * public address is IMAGE_BED_URL + that key.
 */

/** Upload kinds besides `private_message/{userId}`. */
export const UPLOAD_TYPES = [
  'comment',
  'avatar',
  'head_cover',
  'post',
  'article',
  'emoji',
  'creator_application',
  'galgame_cover',
  'lightnovel_cover',
  // Images of a member's update request (a proposed cover or screenshot): any member, reviewed with it.
  'update_request',
] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** Kinds only the creator group and above may upload (spec §6: managing emoji and catalogue covers). */
export const CREATOR_UPLOAD_TYPES: readonly UploadType[] = ['emoji', 'galgame_cover', 'lightnovel_cover'];
/** Kinds whose `id` must be the uploader's own user id. */
export const OWN_UPLOAD_TYPES: readonly UploadType[] = ['avatar', 'head_cover'];

export const UPLOAD_FORMATS = ['webp', 'jpeg', 'jpg', 'png', 'gif', 'avif'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

/** A chat image: `private_message/{userId}` names the user the conversation is with. */
export const PRIVATE_MESSAGE_TYPE = /^private_message\/([1-9][0-9]{0,15})$/;

/** Largest image the upload address accepts (the browser compresses to 2 MB; this leaves room). */
export const UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** How long an upload address works. */
export const UPLOAD_URL_SECONDS = 5 * 60;

const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const uploadBodySchema = z.object({
  type: z
    .string({ error: 'validation.upload.type' })
    .refine((type) => (UPLOAD_TYPES as readonly string[]).includes(type) || PRIVATE_MESSAGE_TYPE.test(type), {
      error: 'validation.upload.type',
    }),
  // A number is taken as its decimal digits; text is a short name of letters, digits, '-' and '_'.
  id: z
    .union([z.string(), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)], { error: 'validation.upload.id' })
    .transform(String)
    .refine((id) => UPLOAD_ID.test(id), { error: 'validation.upload.id' }),
  format: z.enum(UPLOAD_FORMATS, { error: 'validation.upload.format' }),
  // Beyond the spec's three fields: the exact size in bytes, when the browser knows it (it compresses
  // first). The address then takes that length only, on S3 too, where nothing else caps a PUT.
  size: z
    .number({ error: 'validation.upload.size' })
    .int({ error: 'validation.upload.size' })
    .min(1, { error: 'validation.upload.size' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'validation.upload.size' })
    .optional(),
});
export type UploadBody = z.infer<typeof uploadBodySchema>;

/** The answer: where to PUT the image (with these headers) and where it will be read. */
export interface UploadAddress {
  url: string;
  headers: Record<string, string>;
  expiresAt: string;
  maxBytes: number;
  key: string;
  publicUrl: string;
}
