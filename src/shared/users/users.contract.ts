import { z } from 'zod';
import {
  profileUpdateSchema,
  userSettingSchema,
  type PublicUser,
  type SessionUser,
  type UserSetting,
} from '../auth.ts';
import { as, endpoint } from '../contract.ts';
import { bodyId, decimalId, isRowId, OBJECT_ID, queryInt } from '../input-rules.ts';
import { FOLLOW_PAGE_DEFAULT, FOLLOW_PAGE_MAX, type FollowPage, type FollowStatus } from './follow-model.ts';

/** A user is addressed by the numeric userId (decimal) or by the 24-hex-digit `_id`. */
export const userIdField = z.string().refine((v) => isRowId(v) || OBJECT_ID.test(v), {
  error: 'validation.userId.invalid',
});

const followBody = z.strictObject({ userId: bodyId('validation.label.userId') });
const followListParams = z.object({ id: decimalId('validation.label.userId') });
const followListQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: FOLLOW_PAGE_MAX, label: 'validation.label.pageSize' }).default(FOLLOW_PAGE_DEFAULT),
});

/** The caller's own profile and settings, public profiles, and following members. */
export const usersContract = {
  myProfile: endpoint({
    method: 'GET',
    path: '/v2/user/profile',
    response: as<SessionUser>(),
    auth: 'required',
    summary: 'The session user (spec §3)',
  }),
  profile: endpoint({
    method: 'GET',
    path: '/user/profile/:id',
    params: z.object({ id: userIdField }),
    response: as<{ user: PublicUser }>(),
    summary: 'A public profile, by numeric userId or `_id`',
  }),
  updateProfile: endpoint({
    method: 'PUT',
    path: '/user/profile',
    body: profileUpdateSchema,
    response: as<{ user: SessionUser }>(),
    auth: 'required',
    summary: 'Changes any of name, bio, avatar, head cover and signature',
  }),
  updateSetting: endpoint({
    method: 'PUT',
    path: '/user/user-setting',
    body: userSettingSchema,
    response: as<{ userSetting: Required<UserSetting> }>(),
    auth: 'required',
    summary: 'Changes any of locale, NSFW display and email notifications',
  }),
  follow: endpoint({
    method: 'POST',
    path: '/user/follow',
    body: followBody,
    response: as<FollowStatus>(),
    auth: 'required',
    summary: 'Follows the member, or stops following them when the caller already does (spec: toggles)',
  }),
  followStatus: endpoint({
    method: 'POST',
    path: '/user/follow/status',
    body: followBody,
    response: as<FollowStatus>(),
    auth: 'required',
    summary: 'Whether the caller follows the member (`isFollowing`), and their follower count',
  }),
  following: endpoint({
    method: 'GET',
    path: '/v2/user/:id/following',
    params: followListParams,
    query: followListQuery,
    response: as<FollowPage>(),
    summary: 'Whom the member follows, newest follow first',
  }),
  followers: endpoint({
    method: 'GET',
    path: '/v2/user/:id/followers',
    params: followListParams,
    query: followListQuery,
    response: as<FollowPage>(),
    summary: 'Who follows the member, newest follow first',
  }),
} as const;
