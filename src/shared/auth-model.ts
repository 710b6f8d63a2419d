/**
 * The accounts contract without any validation library, so browser code that only needs names,
 * lifetimes, paths and types stays small. The request schemas live in auth.ts.
 */
export const USER_GROUPS = ['user', 'creator', 'editor', 'admin', 'superAdmin'] as const;
export type UserGroup = (typeof USER_GROUPS)[number];
/** Groups that may use the permission-needing parts of the creator centre (spec §6). */
export const CREATOR_GROUPS: readonly UserGroup[] = ['creator', 'editor', 'admin', 'superAdmin'];

export const USER_STATUSES = ['active', 'banned'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const CODE_PURPOSES = ['register', 'reset_password', 'change_email'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];
/**
 * Purposes anyone may ask a code for by email alone. A change_email code comes only from the
 * password-checked POST /api/v2/user/change-email/request.
 */
export const PUBLIC_CODE_PURPOSES = ['register', 'reset_password'] as const satisfies readonly CodePurpose[];

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

export const NSFW_MODES = ['show', 'blur', 'hide'] as const;
export type NsfwMode = (typeof NSFW_MODES)[number];

/** A user's settings (PUT /api/user/user-setting). */
export interface UserSetting {
  locale?: 'zh-CN' | 'en';
  nsfw?: NsfwMode;
  emailNotifications?: boolean;
}
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
