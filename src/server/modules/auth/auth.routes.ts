import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import {
  ACCESS_TOKEN_COOKIE,
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_COOKIE,
  authPaths,
  changeEmailRequestSchema,
  changeEmailUpdateSchema,
  changePasswordSchema,
  codeRequestSchema,
  codeVerifySchema,
  loginSchema,
  logoutSchema,
  refreshSchema,
  registerSchema,
  resetCodeSchema,
  resetPasswordSchema,
  signupCheckSchema,
} from '../../../shared/auth.ts';
import type { AppContext } from '../../context.ts';
import { bearerToken, requireLogin, type AuthVariables } from '../../http/auth-guard.ts';
import { clientIp } from '../../http/client-ip.ts';
import { ok } from '../../http/respond.ts';
import { jsonBody } from '../../http/validate.ts';
import { toSessionUser } from '../users/users.service.ts';
import * as account from './account.service.ts';
import * as sessions from './sessions.service.ts';

/** Accounts and sessions: spec §7 "Auth and user" (paths relative to /api). */
export function authRoutes(ctx: AppContext) {
  const deps: sessions.AuthDeps = {
    db: ctx.db,
    secret: ctx.config.jwtSecret,
    mailer: ctx.mailer,
    onMailError: (error) => ctx.logger.error({ err: error }, 'mail not sent'),
  };
  const ip = (c: Parameters<typeof clientIp>[0]) => clientIp(c, ctx.config.trustProxy);
  const app = new Hono<{ Variables: AuthVariables }>();

  app.post(authPaths.login, async (c) => {
    const body = await jsonBody(c, loginSchema);
    return ok(c, await sessions.login(deps, { ...body, ip: ip(c) }), 'server.loggedIn');
  });

  app.post(authPaths.register, async (c) => {
    const body = await jsonBody(c, registerSchema);
    return ok(c, await account.register(deps, { ...body, ip: ip(c) }), 'server.registered', 'CREATED', 201);
  });

  app.post(authPaths.signupCheck, async (c) =>
    ok(c, await account.checkSignup(ctx.db, { ...(await jsonBody(c, signupCheckSchema)), ip: ip(c) })),
  );

  app.post(authPaths.codeRequest, async (c) => {
    const body = await jsonBody(c, codeRequestSchema);
    return ok(
      c,
      await account.requestCode(deps, { email: body.email, purpose: body.type, ip: ip(c) }),
      'server.codeSent',
    );
  });

  app.post(authPaths.codeVerify, async (c) => {
    const body = await jsonBody(c, codeVerifySchema);
    // A change_email code is checked for the logged-in account it was issued to.
    const token = bearerToken(c);
    const viewer = token ? (await sessions.authenticate(deps, token)).user : null;
    return ok(
      c,
      await account.verifyCode(deps, {
        email: body.email,
        purpose: body.type,
        uuid: body.uuid,
        code: body.code,
        ip: ip(c),
        viewerId: viewer?.id ?? null,
      }),
    );
  });

  app.post(authPaths.resetPasswordCode, async (c) => {
    const body = await jsonBody(c, resetCodeSchema);
    return ok(
      c,
      await account.requestCode(deps, { email: body.email, purpose: 'reset_password', ip: ip(c) }),
      'server.resetCodeSent',
    );
  });

  app.post(authPaths.resetPassword, async (c) => {
    const body = await jsonBody(c, resetPasswordSchema);
    await account.resetPassword(deps, { ...body, ip: ip(c) });
    return ok(c, null, 'server.passwordReset');
  });

  app.post(authPaths.refresh, async (c) => {
    const { token } = await jsonBody(c, refreshSchema);
    const refreshed = await sessions.refresh(deps, token);
    // The new pair is also stored as cookies by the answer itself, so a refresh sent as the page
    // unloads (keepalive) is not lost. The API still reads only the bearer header.
    const cookie = { path: '/', secure: true, sameSite: 'None' as const };
    setCookie(c, ACCESS_TOKEN_COOKIE, refreshed.hikariAccessToken, { ...cookie, maxAge: ACCESS_TOKEN_TTL_SECONDS });
    setCookie(c, REFRESH_TOKEN_COOKIE, refreshed.hikariRefreshToken, {
      ...cookie,
      maxAge: Math.max(0, Math.floor((new Date(refreshed.refreshTokenExpiry).getTime() - Date.now()) / 1000)),
    });
    return ok(c, refreshed, 'server.tokenRefreshed', 'TOKEN_REFRESHED');
  });

  app.post(authPaths.logout, async (c) => {
    const body = await jsonBody(c, logoutSchema);
    await sessions.logout(deps, body.hikariRefreshToken);
    return ok(c, null, 'server.loggedOut');
  });

  app.post(authPaths.changePassword, requireLogin(ctx), async (c) => {
    const body = await jsonBody(c, changePasswordSchema);
    return ok(c, await account.changePassword(deps, c.var.user.id, body), 'server.passwordUpdated');
  });

  app.post(authPaths.changeEmailRequest, requireLogin(ctx), async (c) => {
    const body = await jsonBody(c, changeEmailRequestSchema);
    return ok(
      c,
      await account.requestEmailChange(deps, c.var.user.id, { ...body, ip: ip(c) }),
      'server.codeSentToNewEmail',
    );
  });

  app.post(authPaths.changeEmailUpdate, requireLogin(ctx), async (c) => {
    const body = await jsonBody(c, changeEmailUpdateSchema);
    const user = await account.changeEmail(deps, c.var.user.id, body);
    return ok(c, { user: toSessionUser(user, '') }, 'server.emailChanged');
  });

  return app;
}
