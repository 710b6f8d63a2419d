import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../../tests/support/accounts.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';
import { toErrorResponse } from './api-errors.ts';
import { requireGroup, requireLogin, type AuthVariables } from './auth-guard.ts';

describe('requireLogin and requireGroup', () => {
  let app: TestApp;
  let guarded: Hono<{ Variables: AuthVariables }>;
  beforeAll(async () => {
    app = await createTestApp();
    guarded = new Hono<{ Variables: AuthVariables }>();
    guarded.get('/member', requireLogin(app.ctx), (c) => c.json({ name: c.var.user.name }));
    guarded.get('/staff', requireLogin(app.ctx), requireGroup('creator', 'admin', 'superAdmin'), (c) =>
      c.json({ ok: true }),
    );
    guarded.onError((e, c) => toErrorResponse(c, e, app.ctx.logger));
  });
  afterAll(async () => app.close());

  it('lets members in by bearer token only', async () => {
    const { session } = await registerUser(app, 'Guarded');
    const ok = await guarded.request('/member', { headers: { authorization: `Bearer ${session.hikariAccessToken}` } });
    expect(await ok.json()).toEqual({ name: 'Guarded' });
    const viaCookie = await guarded.request('/member', {
      headers: { cookie: `hikari-access-token=${session.hikariAccessToken}` },
    });
    expect(viaCookie.status).toBe(401);
  });

  it('refuses other groups with 403 and admits listed ones', async () => {
    const { session } = await registerUser(app, 'Plain');
    const denied = await guarded.request('/staff', {
      headers: { authorization: `Bearer ${session.hikariAccessToken}` },
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: 'FORBIDDEN' });
    await app.ctx.db.updateTable('users').set({ user_group: 'creator' }).where('id', '=', session.user._id).execute();
    const allowed = await guarded.request('/staff', {
      headers: { authorization: `Bearer ${session.hikariAccessToken}` },
    });
    expect(allowed.status).toBe(200);
  });
});
