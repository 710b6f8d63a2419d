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
import { normaliseName, safeText } from './input-rules.ts';

/**
 * Request schemas of the accounts API (spec §7 "Auth and user"), shared by the server and the forms.
 * Everything else of the contract is in auth-model.ts and re-exported here.
 */
export * from './auth-model.ts';

// Field rules. Messages are Chinese because they are shown next to the fields.
/** A user name: NFKC-normalised ("Ｈｉｋａｒｉ" is "Hikari"), then letters, digits, `_` and `-` only. */
export const nameField = z
  .string({ error: '请输入用户名' })
  .transform(normaliseName)
  .pipe(safeText({ max: NAME_MAX, min: NAME_MIN, label: '用户名' }))
  .pipe(z.string().regex(/^[\p{L}\p{N}_-]+$/u, { error: '用户名只能包含文字、数字、下划线和连字符' }));
export const emailField = z
  .string({ error: '请输入邮箱' })
  .trim()
  .max(EMAIL_MAX, { error: '邮箱地址过长' })
  .pipe(z.email({ error: '请输入有效的邮箱地址' }))
  .transform((v) => v.toLowerCase());
export const passwordField = z
  .string({ error: '请输入密码' })
  .min(PASSWORD_MIN, { error: `密码至少 ${PASSWORD_MIN} 位` })
  .max(PASSWORD_MAX, { error: `密码最多 ${PASSWORD_MAX} 位` });
export const codeField = z
  .string({ error: '请输入验证码' })
  .trim()
  .regex(/^\d{6}$/, { error: '验证码是 6 位数字' });
export const uuidField = z.uuid({ error: '请先获取验证码' });
const imageUrlField = safeText({ max: IMAGE_URL_MAX, label: '图片地址' }).pipe(
  z.string().refine((v) => v === '' || /^https?:\/\//i.test(v) || v.startsWith('/media/'), {
    error: '图片地址必须以 http:// 或 https:// 开头',
  }),
);

export const loginSchema = z.object({
  /** A user name or an email address. */
  account: safeText({ max: EMAIL_MAX, min: 1, label: '用户名或邮箱' }),
  password: z
    .string({ error: '请输入密码' })
    .min(1, { error: '请输入密码' })
    .max(PASSWORD_MAX, { error: `密码最多 ${PASSWORD_MAX} 位` }),
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
  type: z.enum(CODE_PURPOSES, { error: '验证码用途无效' }),
});
export const codeVerifySchema = z.object({
  email: emailField,
  type: z.enum(CODE_PURPOSES, { error: '验证码用途无效' }),
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
  oldPassword: z.string({ error: '请输入当前密码' }).min(1, { error: '请输入当前密码' }).max(PASSWORD_MAX),
  newPassword: passwordField,
});
export const changeEmailRequestSchema = z.object({
  email: emailField,
  password: z.string({ error: '请输入当前密码' }).min(1, { error: '请输入当前密码' }).max(PASSWORD_MAX),
});
export const changeEmailUpdateSchema = z.object({ email: emailField, code: codeField, uuid: uuidField });
export const refreshSchema = z.object({ token: z.string({ error: '缺少刷新令牌' }).min(1).max(200) });
export const logoutSchema = z.object({ hikariRefreshToken: z.string().max(200).optional() });

export const profileUpdateSchema = z
  .object({
    name: nameField,
    bio: safeText({ kind: 'multiline', max: BIO_MAX, label: '个人简介' }),
    avatar: imageUrlField,
    headCover: imageUrlField,
    signature: safeText({ max: SIGNATURE_MAX, label: '签名' }),
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
