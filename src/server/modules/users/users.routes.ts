import { usersContract } from '../../../shared/users/users.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { followStatus, listFollows, toggleFollow } from './follow.service.ts';
import { listedOwner, userDynamic, userRatings, userStatistics } from './space.service.ts';
import { listUserComments } from '../comments/comments.service.ts';
import { busSessionEvents } from '../auth/auth.events.ts';
import { listSessions, logoutOtherSessions } from '../auth/sessions.service.ts';
import { getPublicProfile, toSessionUser, updateProfile, updateUserSetting } from './users.service.ts';

/** The caller's own profile and settings, public profiles, and following members. */
export function userRoutes(ctx: AppContext) {
  const refreshExpiry = async (userId: string) => {
    const family = await ctx.db
      .selectFrom('refresh_family')
      .select('expires_at')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('expires_at', 'desc')
      .executeTakeFirst();
    return family?.expires_at ?? '';
  };

  return contractRoutes(ctx, usersContract, {
    myProfile: async (_c, { user }) => ({ data: toSessionUser(user, await refreshExpiry(user.id)) }),

    profile: async (_c, { params }) => ({ data: { user: await getPublicProfile(ctx.db, params.id) } }),

    updateProfile: async (_c, { body, user }) => {
      const row = await updateProfile(ctx.db, user.id, body);
      return { data: { user: toSessionUser(row, await refreshExpiry(row.id)) }, message: 'server.profileUpdated' };
    },

    updateSetting: async (_c, { body, user }) => ({
      data: { userSetting: await updateUserSetting(ctx.db, user.id, body) },
      message: 'server.settingsSaved',
    }),

    follow: async (_c, { body, user }) => {
      const data = await toggleFollow(ctx, user.id, body.userId);
      return { data, message: data.isFollowing ? 'server.follow.followed' : 'server.follow.unfollowed' };
    },

    followStatus: async (_c, { body, user }) => ({ data: await followStatus(ctx.db, user.id, body.userId) }),

    following: async (_c, { params, query }) => ({ data: await listFollows(ctx.db, params.id, 'following', query) }),

    followers: async (_c, { params, query }) => ({ data: await listFollows(ctx.db, params.id, 'followers', query) }),

    statistics: async (_c, { params }) => ({ data: await userStatistics(ctx.db, params.id) }),

    userComments: async (_c, { params, query, user }) => {
      const owner = await listedOwner(ctx.db, params.id);
      const viewer = user ? { id: user.id, group: user.user_group } : null;
      return { data: await listUserComments({ db: ctx.db, targets: ctx.targets }, viewer, owner.id, query) };
    },

    dynamic: async (_c, { params, query }) => ({
      data: await userDynamic({ db: ctx.db, targets: ctx.targets }, params.id, query),
    }),

    userRatings: async (_c, { params, query }) => ({ data: await userRatings(ctx.db, params.id, query) }),

    sessions: async (c, { user }) => ({
      data: await listSessions(ctx.db, user.id, (c.var as { sessionId?: string | null }).sessionId ?? null),
    }),

    logoutOtherSessions: async (c, { user }) => {
      const keep = (c.var as { sessionId?: string | null }).sessionId ?? null;
      const loggedOut = await logoutOtherSessions(ctx.db, busSessionEvents(ctx), user.id, keep);
      return { data: { loggedOut }, message: 'server.sessions.loggedOutOthers' };
    },
  });
}
