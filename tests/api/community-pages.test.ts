import type { AstroCookies } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nsfwGameIds, sharedUserTags, userTagsOf, verifiedViewer } from '../../src/components/community/page-data.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { ACCESS_TOKEN_COOKIE } from '../../src/shared/auth-model.ts';
import { call, registerUser } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// What the community pages read besides the community's own services: who is looking (for a draft),
// the cache tags of the people a page shows, and which related games are NSFW.

/** The cookies of a page request, as Astro gives them (only `get` is read). */
const cookies = (values: Record<string, string>) =>
  ({ get: (name: string) => (name in values ? { value: values[name] } : undefined) }) as unknown as AstroCookies;

describe('community page data', () => {
  let app: TestApp;
  let token: string;
  let user: { id: string; userId: number };
  let other: { id: string; userId: number };

  beforeAll(async () => {
    app = await createTestApp();
    const first = await registerUser(app, 'PageReader');
    const second = await registerUser(app, 'PageWriter');
    token = first.session.hikariAccessToken;
    user = { id: first.session.user._id, userId: first.session.user.userId };
    other = { id: second.session.user._id, userId: second.session.user.userId };
  });
  afterAll(async () => app.close());

  it('knows the member behind a valid access-token cookie, and nobody otherwise', async () => {
    expect(await verifiedViewer(app.ctx, cookies({ [ACCESS_TOKEN_COOKIE]: token }))).toEqual({
      id: user.id,
      group: 'user',
    });
    expect(await verifiedViewer(app.ctx, cookies({}))).toBeNull();
    expect(await verifiedViewer(app.ctx, cookies({ [ACCESS_TOKEN_COOKIE]: 'not-a-token' }))).toBeNull();
    // A token signed with another secret proves nothing.
    const [head] = token.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ _id: other.id, hikariUserGroup: 'superAdmin' })).toString('base64url')}.x`;
    expect(await verifiedViewer(app.ctx, cookies({ [ACCESS_TOKEN_COOKIE]: forged }))).toBeNull();
  });

  it('forgets a login that ended', async () => {
    const { session } = await registerUser(app, 'PageLeaver');
    const access = session.hikariAccessToken;
    expect(await verifiedViewer(app.ctx, cookies({ [ACCESS_TOKEN_COOKIE]: access }))).not.toBeNull();
    const out = await call(app, 'POST', '/user/logout', access, { hikariRefreshToken: session.hikariRefreshToken });
    expect(out.res.status).toBe(200);
    expect(await verifiedViewer(app.ctx, cookies({ [ACCESS_TOKEN_COOKIE]: access }))).toBeNull();
  });

  it('names the users shown by their public numbers with the tags of their accounts', async () => {
    const tags = await userTagsOf(app.ctx.db, [user.userId, other.userId, user.userId, 0, -3, 999_999]);
    expect(tags.sort()).toEqual([`user:${user.id}`, `user:${other.id}`].sort());
    expect(await userTagsOf(app.ctx.db, [])).toEqual([]);
    // Shared values are frozen: sorted as a copy.
    expect([...(await sharedUserTags(app.ctx, [other.userId, user.userId]))].sort()).toEqual(tags.sort());
  });

  it('finds the NSFW games among related works', async () => {
    const safe = await saveGalgame(app.ctx.db, { title: '全年龄', status: 'published' });
    const adult = await saveGalgame(app.ctx.db, { title: '成人向', status: 'published', nsfw: true });
    expect([...(await nsfwGameIds(app.ctx.db, [safe, adult, adult, 999_999]))]).toEqual([adult]);
    expect((await nsfwGameIds(app.ctx.db, [])).size).toBe(0);
  });
});
