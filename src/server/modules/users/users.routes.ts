import { Hono } from 'hono';
import { z } from 'zod';
import { authPaths, profileUpdateSchema, userSettingSchema } from '../../../shared/auth.ts';
import { DECIMAL_ID, OBJECT_ID } from '../../../shared/input-rules.ts';
import type { AppContext } from '../../context.ts';
import { requireLogin, type AuthVariables } from '../../http/auth-guard.ts';
import { ok } from '../../http/respond.ts';
import { jsonBody } from '../../http/validate.ts';
import { getPublicProfile, toSessionUser, updateProfile, updateUserSetting } from './users.service.ts';

/** A public profile is addressed by the numeric userId (decimal) or by the 24-hex-digit `_id`. */
const idParam = z.string().refine((v) => DECIMAL_ID.test(v) || OBJECT_ID.test(v), {
  error: 'validation.userId.invalid',
});

/** The caller's own profile and settings, and public profiles. */
export function userRoutes(ctx: AppContext) {
  const app = new Hono<{ Variables: AuthVariables }>();
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

  app.get(authPaths.myProfile, requireLogin(ctx), async (c) => {
    const user = c.var.user;
    return ok(c, toSessionUser(user, await refreshExpiry(user.id)));
  });

  app.get('/user/profile/:id', async (c) => {
    const id = idParam.parse(c.req.param('id'));
    return ok(c, { user: await getPublicProfile(ctx.db, id) });
  });

  app.put(authPaths.updateProfile, requireLogin(ctx), async (c) => {
    const patch = await jsonBody(c, profileUpdateSchema);
    const row = await updateProfile(ctx.db, c.var.user.id, patch);
    return ok(c, { user: toSessionUser(row, await refreshExpiry(row.id)) }, 'server.profileUpdated');
  });

  app.put(authPaths.userSetting, requireLogin(ctx), async (c) => {
    const patch = await jsonBody(c, userSettingSchema);
    return ok(c, { userSetting: await updateUserSetting(ctx.db, c.var.user.id, patch) }, 'server.settingsSaved');
  });

  return app;
}
