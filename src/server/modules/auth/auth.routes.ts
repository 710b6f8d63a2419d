import { setCookie } from 'hono/cookie';
import { ACCESS_TOKEN_COOKIE, ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_COOKIE } from '../../../shared/auth.ts';
import { authContract } from '../../../shared/auth/auth.contract.ts';
import type { AppContext } from '../../context.ts';
import { clientIp } from '../../http/client-ip.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { toSessionUser } from '../users/users.service.ts';
import * as account from './account.service.ts';
import * as sessions from './sessions.service.ts';

/** Accounts and sessions: spec §7 "Auth and user" (paths relative to /api). */
export function authRoutes(ctx: AppContext) {
  const deps = sessions.authDepsOf(ctx);
  const ip = (c: Parameters<typeof clientIp>[0]) => clientIp(c, ctx.config.trustProxy);

  return contractRoutes(ctx, authContract, {
    login: async (c, { body }) => ({
      data: await sessions.login(deps, { ...body, ip: ip(c), userAgent: c.req.header('user-agent') }),
      message: 'server.loggedIn',
    }),

    register: async (c, { body }) => ({
      data: await account.register(deps, { ...body, ip: ip(c), userAgent: c.req.header('user-agent') }),
      message: 'server.registered',
      code: 'CREATED',
      status: 201,
    }),

    signupCheck: async (c, { body }) => ({ data: await account.checkSignup(ctx.db, { ...body, ip: ip(c) }) }),

    codeRequest: async (c, { body }) => ({
      data: await account.requestCode(deps, { email: body.email, purpose: body.type, ip: ip(c) }),
      message: 'server.codeSent',
    }),

    // A change_email code is checked for the logged-in account it was issued to.
    codeVerify: async (c, { body, user }) => ({
      data: await account.verifyCode(deps, {
        email: body.email,
        purpose: body.type,
        uuid: body.uuid,
        code: body.code,
        ip: ip(c),
        viewerId: user?.id ?? null,
      }),
    }),

    resetPasswordCode: async (c, { body }) => ({
      data: await account.requestCode(deps, { email: body.email, purpose: 'reset_password', ip: ip(c) }),
      message: 'server.resetCodeSent',
    }),

    resetPassword: async (c, { body }) => {
      await account.resetPassword(deps, { ...body, ip: ip(c) });
      return { data: null, message: 'server.passwordReset' };
    },

    refresh: async (c, { body }) => {
      const refreshed = await sessions.refresh(deps, body.token);
      // The new pair is also stored as cookies by the answer itself, so a refresh sent as the page
      // unloads (keepalive) is not lost. The API still reads only the bearer header.
      const cookie = { path: '/', secure: true, sameSite: 'None' as const };
      setCookie(c, ACCESS_TOKEN_COOKIE, refreshed.hikariAccessToken, { ...cookie, maxAge: ACCESS_TOKEN_TTL_SECONDS });
      setCookie(c, REFRESH_TOKEN_COOKIE, refreshed.hikariRefreshToken, {
        ...cookie,
        maxAge: Math.max(0, Math.floor((new Date(refreshed.refreshTokenExpiry).getTime() - Date.now()) / 1000)),
      });
      return { data: refreshed, message: 'server.tokenRefreshed', code: 'TOKEN_REFRESHED' };
    },

    logout: async (_c, { body }) => {
      await sessions.logout(deps, body.hikariRefreshToken);
      return { data: null, message: 'server.loggedOut' };
    },

    changePassword: async (c, { body, user }) => ({
      data: await account.changePassword(deps, user.id, { ...body, userAgent: c.req.header('user-agent') }),
      message: 'server.passwordUpdated',
    }),

    changeEmailRequest: async (c, { body, user }) => ({
      data: await account.requestEmailChange(deps, user.id, { ...body, ip: ip(c) }),
      message: 'server.codeSentToNewEmail',
    }),

    changeEmailUpdate: async (_c, { body, user }) => {
      const changed = await account.changeEmail(deps, user.id, body);
      return { data: { user: toSessionUser(changed, '') }, message: 'server.emailChanged' };
    },
  });
}
