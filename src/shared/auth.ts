import { z } from 'zod';

/**
 * The accounts contract shared by the server and the browser: field rules, request bodies, the session
 * user, and the API paths (spec §7 "Auth and user").
 */

export const USER_GROUPS = ['user', 'creator', 'editor', 'admin', 'superAdmin'] as const;
export type UserGroup = (typeof USER_GROUPS)[number];
/** Groups that may use the permission-needing parts of the creator centre (spec §6). */
export const CREATOR_GROUPS: readonly UserGroup[] = ['creator', 'editor', 'admin', 'superAdmin'];

export const USER_STATUSES = ['active', 'banned'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const CODE_PURPOSES = ['register', 'reset_password', 'change_email'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** Lifetimes and limits (spec §9 and the security baseline). */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
export const USER_INFO_COOKIE_TTL_SECONDS = 7 * 24 * 60 * 60;
export const CODE_TTL_SECONDS = 10 * 60;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_SECONDS = 60;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MIN = 2;
export const NAME_MAX = 20;
export const EMAIL_MAX = 254;
export const BIO_MAX = 500;
export const SIGNATURE_MAX = 100;
export const IMAGE_URL_MAX = 2048;

/** Cookie names (spec §9: secure, sameSite none, path /). */
export const ACCESS_TOKEN_COOKIE = 'hikari-access-token';
export const REFRESH_TOKEN_COOKIE = 'hikari-refresh-token';
export const USER_INFO_COOKIE = 'hikari-user-info';

// Field rules. Messages are Chinese because they are shown next to the fields.
export const nameField = z
  .string({ error: '请输入用户名' })
  .trim()
  .min(NAME_MIN, { error: `用户名至少 ${NAME_MIN} 个字符` })
  .max(NAME_MAX, { error: `用户名最多 ${NAME_MAX} 个字符` })
  .regex(/^[\p{L}\p{N}_-]+$/u, { error: '用户名只能包含文字、数字、下划线和连字符' });
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
export const codeField = z.string({ error: '请输入验证码' }).trim().regex(/^\d{6}$/, { error: '验证码是 6 位数字' });
export const uuidField = z.uuid({ error: '请先获取验证码' });
const imageUrlField = z
  .string()
  .max(IMAGE_URL_MAX, { error: '图片地址过长' })
  .refine((v) => v === '' || /^https?:\/\//i.test(v) || v.startsWith('/media/'), { error: '图片地址必须以 http:// 或 https:// 开头' });

export const loginSchema = z.object({
  /** A user name or an email address. */
  account: z
    .string({ error: '请输入用户名或邮箱' })
    .trim()
    .min(1, { error: '请输入用户名或邮箱' })
    .max(EMAIL_MAX, { error: '用户名或邮箱过长' }),
  password: z.string({ error: '请输入密码' }).min(1, { error: '请输入密码' }).max(PASSWORD_MAX, { error: `密码最多 ${PASSWORD_MAX} 位` }),
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

export const codeRequestSchema = z.object({ email: emailField, type: z.enum(CODE_PURPOSES, { error: '验证码用途无效' }) });
export const codeVerifySchema = z.object({
  email: emailField,
  type: z.enum(CODE_PURPOSES, { error: '验证码用途无效' }),
  code: codeField,
  uuid: uuidField,
});

export const resetCodeSchema = z.object({ email: emailField });
export const resetPasswordSchema = z.object({ email: emailField, code: codeField, uuid: uuidField, password: passwordField });
export const changePasswordSchema = z.object({
  oldPassword: z.string({ error: '请输入当前密码' }).min(1, { error: '请输入当前密码' }).max(PASSWORD_MAX),
  newPassword: passwordField,
});
export const changeEmailRequestSchema = z.object({ email: emailField });
export const changeEmailUpdateSchema = z.object({ email: emailField, code: codeField, uuid: uuidField });
export const refreshSchema = z.object({ token: z.string({ error: '缺少刷新令牌' }).min(1).max(200) });
export const logoutSchema = z.object({ hikariRefreshToken: z.string().max(200).optional() });

export const profileUpdateSchema = z
  .object({
    name: nameField,
    bio: z.string().max(BIO_MAX, { error: `个人简介最多 ${BIO_MAX} 个字符` }),
    avatar: imageUrlField,
    headCover: imageUrlField,
    signature: z.string().max(SIGNATURE_MAX, { error: `签名最多 ${SIGNATURE_MAX} 个字符` }),
  })
  .partial()
  .strict();
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;

export const NSFW_MODES = ['show', 'blur', 'hide'] as const;
export const userSettingSchema = z
  .object({
    locale: z.enum(['zh-CN', 'en']),
    nsfw: z.enum(NSFW_MODES),
    emailNotifications: z.boolean(),
  })
  .partial()
  .strict();
export type UserSetting = z.infer<typeof userSettingSchema>;
export const DEFAULT_USER_SETTING: Required<UserSetting> = { locale: 'zh-CN', nsfw: 'blur', emailNotifications: true };

/** The session user info of spec §3 (what the client keeps after logging in). */
export interface SessionUser {
  _id: string;
  isLogin: true;
  userId: number;
  name: string;
  email: string;
  avatar: string;
  headCover: string;
  signature: string;
  bio: string;
  followerCount: number;
  followingCount: number;
  postCount: number;
  articleCount: number;
  createdAt: string;
  /** When the refresh token (and so the login) runs out, ISO time. */
  refreshTokenExpiry: string;
  /** True once the login has run out; the client then asks the person to log in again. */
  isLoginStatusExpiry: boolean;
  userSetting: Required<UserSetting>;
  hikariPoint: number;
  status: UserStatus;
  checkInStreak: number;
  longestCheckInStreak: number;
  lastCheckInAt: string | null;
  hikariUserGroup: UserGroup;
}

/** What anyone may see of a user (GET /api/user/profile/{id}). */
export interface PublicUser {
  _id: string;
  userId: number;
  name: string;
  avatar: string;
  headCover: string;
  signature: string;
  bio: string;
  followerCount: number;
  followingCount: number;
  postCount: number;
  articleCount: number;
  createdAt: string;
  hikariUserGroup: UserGroup;
}

/** Answer of login, register and a password change. */
export interface SessionData {
  user: SessionUser;
  hikariAccessToken: string;
  hikariRefreshToken: string;
  refreshTokenExpiry: string;
}

/** Answer of POST /api/user/refresh-token (code 'TOKEN_REFRESHED'). */
export interface RefreshData {
  hikariAccessToken: string;
  hikariRefreshToken: string;
  refreshTokenExpiry: string;
}

export interface CodeRequestData {
  uuid: string;
  expiresIn: number;
  resendAfter: number;
}

export interface AccessTokenClaims {
  _id: string;
  hikariUserGroup: UserGroup;
  exp: number;
}

export const authPaths = {
  login: '/v2/user/login',
  register: '/v2/user/register',
  logout: '/user/logout',
  signupCheck: '/v2/user/verification-for-signup',
  codeRequest: '/v2/email/verification-code/request',
  codeVerify: '/v2/email/verification-code/verify',
  resetPasswordCode: '/user/reset-password-code',
  resetPassword: '/user/reset-password',
  changePassword: '/user/change-password',
  changeEmailRequest: '/v2/user/change-email/request',
  changeEmailUpdate: '/v2/user/change-email/update',
  refresh: '/user/refresh-token',
  myProfile: '/v2/user/profile',
  profile: (id: string | number) => `/user/profile/${encodeURIComponent(String(id))}`,
  updateProfile: '/user/profile',
  userSetting: '/user/user-setting',
} as const;
