import { setCookie } from 'hono/cookie';
import { ACCESS_TOKEN_COOKIE, ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_COOKIE } from '../../../shared/auth.ts';
import { authContract } from '../../../shared/auth/auth.contract.ts';
import type { AppContext } from '../../context.ts';
import { clientIp } from '../../http/client-ip.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { toSessionUser } from '../users/users.service.ts';
import * as auth from './auth.service.ts';

/** Accounts and sessions: spec §7 "Auth and user" (paths relative to /api). */
export function authRoutes(ctx: AppContext) {
  const deps: auth.AuthDeps = {
    db: ctx.db,
    secret: ctx.config.jwtSecret,
    mailer: ctx.mailer,
    onMailError: (error) => ctx.logger.error({ err: error }, 'mail not sent'),
  };
  const ip = (c: Parameters<typeof clientIp>[0]) => clientIp(c, ctx.config.trustProxy);

  return contractRoutes(ctx, authContract, {
    login: async (c, { body }) => ({ data: await auth.login(deps, { ...body, ip: ip(c) }), message: '登录成功' }),

    register: async (c, { body }) => ({
      data: await auth.register(deps, { ...body, ip: ip(c) }),
      message: '注册成功',
      code: 'CREATED',
      status: 201,
    }),

    signupCheck: async (c, { body }) => ({ data: await auth.checkSignup(ctx.db, { ...body, ip: ip(c) }) }),

    codeRequest: async (c, { body }) => ({
      data: await auth.requestCode(deps, { email: body.email, purpose: body.type, ip: ip(c) }),
      message: '验证码已发送',
    }),

    // A change_email code is checked for the logged-in account it was issued to.
    codeVerify: async (c, { body, user }) => ({
      data: await auth.verifyCode(deps, {
        email: body.email,
        purpose: body.type,
        uuid: body.uuid,
        code: body.code,
        ip: ip(c),
        viewerId: user?.id ?? null,
      }),
    }),

    resetPasswordCode: async (c, { body }) => ({
      data: await auth.requestCode(deps, { email: body.email, purpose: 'reset_password', ip: ip(c) }),
      message: '如果该邮箱已注册，验证码已发送',
    }),

    resetPassword: async (c, { body }) => {
      await auth.resetPassword(deps, { ...body, ip: ip(c) });
      return { data: null, message: '密码已重置，请使用新密码登录' };
    },

    refresh: async (c, { body }) => {
      const refreshed = await auth.refresh(deps, body.token);
      // The new pair is also stored as cookies by the answer itself, so a refresh sent as the page
      // unloads (keepalive) is not lost. The API still reads only the bearer header.
      const cookie = { path: '/', secure: true, sameSite: 'None' as const };
      setCookie(c, ACCESS_TOKEN_COOKIE, refreshed.hikariAccessToken, { ...cookie, maxAge: ACCESS_TOKEN_TTL_SECONDS });
      setCookie(c, REFRESH_TOKEN_COOKIE, refreshed.hikariRefreshToken, {
        ...cookie,
        maxAge: Math.max(0, Math.floor((new Date(refreshed.refreshTokenExpiry).getTime() - Date.now()) / 1000)),
      });
      return { data: refreshed, message: '登录状态已刷新', code: 'TOKEN_REFRESHED' };
    },

    logout: async (_c, { body }) => {
      await auth.logout(deps, body.hikariRefreshToken);
      return { data: null, message: '已退出登录' };
    },

    changePassword: async (_c, { body, user }) => ({
      data: await auth.changePassword(deps, user.id, body),
      message: '密码已修改',
    }),

    changeEmailRequest: async (c, { body, user }) => ({
      data: await auth.requestEmailChange(deps, user.id, { ...body, ip: ip(c) }),
      message: '验证码已发送到新邮箱',
    }),

    changeEmailUpdate: async (_c, { body, user }) => {
      const changed = await auth.changeEmail(deps, user.id, body);
      return { data: { user: toSessionUser(changed, '') }, message: '邮箱已更换' };
    },
  });
}
