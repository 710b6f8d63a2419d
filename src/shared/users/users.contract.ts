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
import { PLAY_STATUSES } from '../catalogue-model.ts';
import type { UserCommentPage } from '../comments/comments-model.ts';
import {
  SPACE_PAGE_DEFAULT,
  SPACE_PAGE_MAX,
  type DynamicPage,
  type SessionList,
  type SpaceRatingPage,
  type UserStatistics,
} from './space-model.ts';
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

const spaceListQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: SPACE_PAGE_MAX, label: 'validation.label.pageSize' }).default(SPACE_PAGE_DEFAULT),
});
const spaceRatingQuery = spaceListQuery.extend({
  status: z.enum(PLAY_STATUSES, { error: 'validation.playStatus.invalid' }).optional(),
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
  statistics: endpoint({
    method: 'GET',
    path: '/user/statistics/:id',
    params: followListParams,
    response: as<UserStatistics>(),
    summary: "A member's counts: following, followers, posts, articles, ratings, favourites and comments",
  }),
  userComments: endpoint({
    method: 'GET',
    path: '/v2/user/:id/comments',
    params: followListParams,
    query: spaceListQuery,
    response: as<UserCommentPage>(),
    auth: 'optional',
    summary: "A member's comments, newest first, each with the item it is on (title and link)",
  }),
  dynamic: endpoint({
    method: 'GET',
    path: '/v2/user/:id/dynamic',
    params: followListParams,
    query: spaceListQuery,
    response: as<DynamicPage>(),
    summary: "A member's activity, newest first: posts, articles, ratings, favourites and follows",
  }),
  userRatings: endpoint({
    method: 'GET',
    path: '/v2/user/:id/ratings',
    params: followListParams,
    query: spaceRatingQuery,
    response: as<SpaceRatingPage>(),
    summary: "A member's ratings of games, most recently changed first; `status` keeps one play status",
  }),
  sessions: endpoint({
    method: 'GET',
    path: '/user/sessions',
    response: as<SessionList>(),
    auth: 'required',
    summary: "The caller's logins, most recently active first; `current` marks this one",
  }),
  logoutOtherSessions: endpoint({
    method: 'POST',
    path: '/user/sessions/logout-others',
    // POSTs carry a JSON body (the cross-site guard); this one has nothing in it.
    body: z.strictObject({}),
    response: as<{ loggedOut: number }>(),
    auth: 'required',
    summary: 'Ends every login of the caller except the one this request was made with',
  }),
} as const;
