import type { AstroCookies } from 'astro';
import {
  ACCESS_TOKEN_COOKIE,
  DEFAULT_USER_SETTING,
  REFRESH_TOKEN_COOKIE,
  USER_INFO_COOKIE,
  type NsfwMode,
  type SessionUser,
} from '../../shared/auth-model.ts';
import { parseUserInfoCookie } from '../../stores/session.ts';

/**
 * Who is looking, as the header reads it: the user-info cookie while a token is left. Display only (NSFW
 * setting, logged-in look); the API never trusts cookies, so nothing private is decided here.
 */
export function sessionViewer(cookies: AstroCookies): SessionUser | null {
  if (!cookies.has(ACCESS_TOKEN_COOKIE) && !cookies.has(REFRESH_TOKEN_COOKIE)) return null;
  return parseUserInfoCookie(cookies.get(USER_INFO_COOKIE)?.value);
}

/** The viewer's NSFW setting; visitors get the default (blur). */
export const nsfwModeOf = (viewer: SessionUser | null): NsfwMode =>
  viewer?.userSetting.nsfw ?? DEFAULT_USER_SETTING.nsfw;

/** How to show a cover: as it is, blurred until revealed, or not at all. Only NSFW games are ever covered. */
export function coverMode(nsfw: boolean, setting: NsfwMode): NsfwMode {
  return nsfw ? setting : 'show';
}
