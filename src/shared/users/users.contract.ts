import { z } from 'zod';
import {
  profileUpdateSchema,
  userSettingSchema,
  type PublicUser,
  type SessionUser,
  type UserSetting,
} from '../auth.ts';
import { as, endpoint } from '../contract.ts';
import { isRowId, OBJECT_ID } from '../input-rules.ts';

/** A user is addressed by the numeric userId (decimal) or by the 24-hex-digit `_id`. */
export const userIdField = z.string().refine((v) => isRowId(v) || OBJECT_ID.test(v), {
  error: 'validation.userId.invalid',
});

/** The caller's own profile and settings, and public profiles. */
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
} as const;
