import { z } from 'zod';
import {
  CODE_PURPOSES,
  EMAIL_MAX,
  IMAGE_URL_MAX,
  NAME_MAX,
  NAME_MIN,
  NSFW_MODES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  BIO_MAX,
  SIGNATURE_MAX,
} from './auth-model.ts';
import { messageRef } from './i18n/index.ts';
import { normaliseName, safeText } from './input-rules.ts';
import { hasHiddenCharacter } from './visible-text.ts';

/**
 * Request schemas of the accounts API (spec §7 "Auth and user"), shared by the server and the forms.
 * Everything else of the contract is in auth-model.ts and re-exported here.
 */
export * from './auth-model.ts';

// Field rules. Messages are message references, translated by the forms and the API (input-rules.ts).
/**
 * A user name: NFKC-normalised ("Ｈｉｋａｒｉ" is "Hikari"), then letters, digits, `_` and `-` only, none of
 * them drawn as nothing (a Hangul filler is a letter that would make "hikari_admin" + filler a second
 * "hikari_admin").
 */
export const nameField = z
  .string({ error: 'validation.name.required' })
  .transform(normaliseName)
  .pipe(safeText({ max: NAME_MAX, min: NAME_MIN, label: 'validation.label.name' }))
  .pipe(
    z
      .string()
      .refine((name) => !hasHiddenCharacter(name), { error: 'validation.name.invisible', abort: true })
      .regex(/^[\p{L}\p{N}_-]+$/u, { error: 'validation.name.characters' }),
  );
export const emailField = z
  .string({ error: 'validation.email.required' })
  .trim()
  .max(EMAIL_MAX, { error: 'validation.email.tooLong' })
  .pipe(z.email({ error: 'validation.email.invalid' }))
  .transform((v) => v.toLowerCase());
export const passwordField = z
  .string({ error: 'validation.password.required' })
  .min(PASSWORD_MIN, { error: messageRef('validation.password.tooShort', { min: PASSWORD_MIN }) })
  .max(PASSWORD_MAX, { error: messageRef('validation.password.tooLong', { max: PASSWORD_MAX }) });
export const codeField = z
  .string({ error: 'validation.code.required' })
  .trim()
  .regex(/^\d{6}$/, { error: 'validation.code.format' });
export const uuidField = z.uuid({ error: 'validation.uuid.required' });
const imageUrlField = safeText({ max: IMAGE_URL_MAX, label: 'validation.label.imageUrl' }).pipe(
  z.string().refine((v) => v === '' || /^https?:\/\//i.test(v) || v.startsWith('/media/'), {
    error: 'validation.imageUrl.scheme',
  }),
);

export const loginSchema = z.object({
  /** A user name or an email address. */
  account: safeText({ max: EMAIL_MAX, min: 1, label: 'validation.label.account' }),
  password: z
    .string({ error: 'validation.password.required' })
    .min(1, { error: 'validation.password.required' })
    .max(PASSWORD_MAX, { error: messageRef('validation.password.tooLong', { max: PASSWORD_MAX }) }),
});
export type LoginBody = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  name: nameField,
  email: emailField,
  password: passwordField,
  code: codeField,
  uuid: uuidField,
});
export type RegisterBody = z.input<typeof registerSchema>;

export const signupCheckSchema = z.object({ name: nameField, email: emailField });

export const codeRequestSchema = z.object({
  email: emailField,
  type: z.enum(CODE_PURPOSES, { error: 'validation.code.purpose' }),
});
export const codeVerifySchema = z.object({
  email: emailField,
  type: z.enum(CODE_PURPOSES, { error: 'validation.code.purpose' }),
  code: codeField,
  uuid: uuidField,
});

export const resetCodeSchema = z.object({ email: emailField });
export const resetPasswordSchema = z.object({
  email: emailField,
  code: codeField,
  uuid: uuidField,
  password: passwordField,
});
export const changePasswordSchema = z.object({
  oldPassword: z
    .string({ error: 'validation.currentPassword.required' })
    .min(1, { error: 'validation.currentPassword.required' })
    .max(PASSWORD_MAX),
  newPassword: passwordField,
});
export const changeEmailRequestSchema = z.object({
  email: emailField,
  password: z
    .string({ error: 'validation.currentPassword.required' })
    .min(1, { error: 'validation.currentPassword.required' })
    .max(PASSWORD_MAX),
});
export const changeEmailUpdateSchema = z.object({ email: emailField, code: codeField, uuid: uuidField });
export const refreshSchema = z.object({
  token: z.string({ error: 'validation.refreshToken.missing' }).min(1).max(200),
});
export const logoutSchema = z.object({ hikariRefreshToken: z.string().max(200).optional() });

export const profileUpdateSchema = z
  .object({
    name: nameField,
    bio: safeText({ kind: 'multiline', max: BIO_MAX, label: 'validation.label.bio' }),
    avatar: imageUrlField,
    headCover: imageUrlField,
    signature: safeText({ max: SIGNATURE_MAX, label: 'validation.label.signature' }),
  })
  .partial()
  .strict();
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;

export const userSettingSchema = z
  .object({
    locale: z.enum(['zh-CN', 'en']),
    nsfw: z.enum(NSFW_MODES),
    emailNotifications: z.boolean(),
  })
  .partial()
  .strict();
