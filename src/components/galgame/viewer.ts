import type { AstroCookies } from 'astro';
import { markPersonal, sharedMemberRender } from '../../server/http/page-cache-policy.ts';
import {
  ACCESS_TOKEN_COOKIE,
  DEFAULT_USER_SETTING,
  REFRESH_TOKEN_COOKIE,
  USER_INFO_COOKIE,
  type NsfwMode,
  type SessionUser,
} from '../../shared/auth-model.ts';
import { parseUserInfoCookie } from '../../stores/session.ts';

/** Whether the request carries a login (an access or refresh token cookie, whatever its validity). */
export const hasLoginCookie = (cookies: AstroCookies): boolean =>
  cookies.has(ACCESS_TOKEN_COOKIE) || cookies.has(REFRESH_TOKEN_COOKIE);

/**
 * Whether the page has the logged-in look (write links, the comment box, favourite and follow buttons
 * that act): with a login cookie, and always on the copy all members share (its audience was decided
 * from the request's cookies once, by the page cache).
 */
export const showsLoggedIn = (astro: {
  cookies: AstroCookies;
  locals: Pick<App.Locals, 'pageCapture' | 'pageCachePolicy'>;
}): boolean => sharedMemberRender(astro.locals) || hasLoginCookie(astro.cookies);

/**
 * Who is looking, as the header reads it: the user-info cookie while a token is left. Display only (NSFW
 * setting, logged-in look); the API never trusts cookies, so nothing private is decided here. A page
 * that reads it for a member shows something of theirs, so it is never shared with other members.
 */
export function sessionViewer(astro: {
  cookies: AstroCookies;
  locals: Pick<App.Locals, 'personal'>;
}): SessionUser | null {
  if (!hasLoginCookie(astro.cookies)) return null;
  markPersonal(astro.locals);
  return parseUserInfoCookie(astro.cookies.get(USER_INFO_COOKIE)?.value);
}

/** The viewer's NSFW setting; visitors get the default (blur). */
export const nsfwModeOf = (viewer: SessionUser | null): NsfwMode =>
  viewer?.userSetting.nsfw ?? DEFAULT_USER_SETTING.nsfw;

/** How to show a cover: as it is, blurred until revealed, or not at all. Only NSFW games are ever covered. */
export function coverMode(nsfw: boolean, setting: NsfwMode): NsfwMode {
  return nsfw ? setting : 'show';
}
