import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { RefreshData } from '../../src/shared/auth-model.ts';
import type {
  ApplicationPage,
  ApplicationStatusData,
  CreatorOverview,
  ReviewedApplicationView,
} from '../../src/shared/creator/application.contract.ts';
import type { NotificationPage } from '../../src/shared/notifications/notifications.ts';
import type { Db } from '../../src/server/db/database.ts';
import { APPLICATION_LIMIT } from '../../src/server/modules/creator/application.service.ts';
import { type Account, call, data, expectFailure, makeAccount, post, registerUser } from '../support/accounts.ts';
import { createTestApp, jobsSettled, type TestApp } from '../support/test-app.ts';

// Creator applications over HTTP: submitting (one pending at a time, also under concurrent submits),
// status, withdrawal, the admins' decisions (the group changes at once and a refreshed token carries
// it; a second decision is refused), hostile input, the role matrix, and the creator centre's overview.
describe('creator applications API', () => {
  let app: TestApp;
  let db: Db;
  let admin: Account;
  let superAdmin: Account;
  let editor: Account;
  let creator: Account;
  let counter = 0;

  async function member(group: UserGroup = 'user'): Promise<Account> {
    return makeAccount(app, `ca_${group.slice(0, 4)}_${++counter}`, group);
  }

  /** An image stored where the uploader puts a member's application images; answers its address. */
  async function image(owner: Pick<Account, 'userId'>, kind = 'creator_application'): Promise<string> {
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#39c5bb' } })
      .webp()
      .toBuffer();
    const key = `${kind}/${owner.userId}/${Date.now().toString(36)}x${Math.random().toString(36).slice(2, 8)}.webp`;
    await app.ctx.storage.put(key, bytes, 'image/webp');
    return app.ctx.storage.publicUrl(key);
  }

  const reason = '我翻译过三部视觉小说，也整理过很多作品资料，希望能帮忙完善条目。';
  const submit = (who: Account | undefined, body: unknown) =>
    call<ApplicationStatusData>(app, 'POST', '/user/creator-application/submit', who?.token, body);
  const status = async (who: Account) =>
    data((await call<ApplicationStatusData>(app, 'GET', '/user/creator-application/status', who.token)).body);
  const withdraw = (who: Account | undefined, id: number) =>
    call<ApplicationStatusData>(app, 'POST', `/user/creator-application/${id}/withdraw`, who?.token, {});
  const approve = (who: Account | undefined, id: number) =>
    call<ReviewedApplicationView>(app, 'POST', `/creator/applications/${id}/approve`, who?.token, {});
  const reject = (who: Account | undefined, id: number, body: unknown = { reason: '资料还不够充分' }) =>
    call<ReviewedApplicationView>(app, 'POST', `/creator/applications/${id}/reject`, who?.token, body);
  const list = (who: Account | undefined, search = '') =>
    call<ApplicationPage>(app, 'GET', `/creator/applications${search}`, who?.token);
  const overview = async (who: Account) =>
    data((await call<CreatorOverview>(app, 'GET', '/creator/overview', who.token)).body);
  const groupOf = async (who: Pick<Account, 'id'>) =>
    (await db.selectFrom('users').select('user_group').where('id', '=', who.id).executeTakeFirstOrThrow()).user_group;
  const rows = async () =>
    Number(
      (
        await db
          .selectFrom('creator_application')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Submits an application for a fresh member; answers the member and the application's id. */
  async function applied(images = 0): Promise<{ who: Account; id: number }> {
    const who = await member();
    const urls = await Promise.all(Array.from({ length: images }, () => image(who)));
    const answer = data((await submit(who, { reason, images: urls })).body);
    return { who, id: answer.application?.id ?? 0 };
  }
  const notificationsOf = async (who: Account) => {
    await jobsSettled(app, { name: 'notifications.%', like: true, seconds: 10, what: 'notification jobs' });
    return data((await call<NotificationPage>(app, 'GET', '/v2/user/notifications', who.token)).body);
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    admin = await member('admin');
    superAdmin = await member('superAdmin');
    editor = await member('editor');
    creator = await member('creator');
  });
  afterAll(async () => app.close());
  // Tests of other rules are not refused for the volume of submits before them.
  beforeEach(async () => {
    await db.deleteFrom('rate_limit').execute();
  });

  it('takes an application with images, shows it in the status and keeps one pending at a time', async () => {
    const who = await member();
    expect(await status(who)).toEqual({ application: null, group: 'user' });
    const urls = [await image(who), await image(who)];
    const answer = await submit(who, { reason: `  ${reason}\r\n第二行  `, images: urls });
    expect(answer.res.status).toBe(201);
    const submitted = data(answer.body);
    expect(submitted.group).toBe('user');
    expect(submitted.application).toMatchObject({
      status: 'pending',
      reason: `${reason}\n第二行`,
      images: urls,
      rejectionReason: '',
      reviewedAt: null,
    });
    expect(await status(who)).toEqual(submitted);
    expectFailure(await submit(who, { reason, images: [] }), 409, 'APPLICATION_OPEN');
    // The same image twice is kept once.
    const other = await member();
    const twice = await image(other);
    expect(data((await submit(other, { reason, images: [twice, twice] })).body).application?.images).toEqual([twice]);
  });

  it('keeps one of several submits sent at once', async () => {
    const who = await member();
    const answers = await Promise.all(Array.from({ length: 4 }, () => submit(who, { reason, images: [] })));
    expect(answers.filter((a) => a.res.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.res.status !== 201)) expectFailure(answer, 409, 'APPLICATION_OPEN');
    const stored = await db.selectFrom('creator_application').select('status').where('user_id', '=', who.id).execute();
    expect(stored).toEqual([{ status: 'pending' }]);
  });

  it('lets the author withdraw a pending application once, and nobody else', async () => {
    const { who, id } = await applied();
    const stranger = await member();
    expectFailure(await withdraw(stranger, id), 404, 'NOT_FOUND');
    expectFailure(await withdraw(undefined, id), 401, 'UNAUTHORIZED');
    const answer = await withdraw(who, id);
    expect(answer.res.status).toBe(200);
    expect(data(answer.body).application).toMatchObject({ id, status: 'withdrawn' });
    expectFailure(await withdraw(who, id), 409, 'APPLICATION_CLOSED');
    expectFailure(await approve(admin, id), 409, 'APPLICATION_CLOSED');
    // Withdrawn, the member may apply again.
    expect((await submit(who, { reason, images: [] })).res.status).toBe(201);
  });

  it('approves: the member becomes a creator at once, audited and notified, and a refreshed token says so', async () => {
    const email = `ca_refresh_${++counter}@example.test`.toLowerCase();
    const { session } = await registerUser(app, `ca_refresh_${counter}`);
    expect(session.user.email).toBe(email);
    const who: Account = {
      id: session.user._id,
      userId: session.user.userId,
      name: session.user.name,
      token: session.hikariAccessToken,
    };
    const id = data((await submit(who, { reason, images: [await image(who)] })).body).application?.id ?? 0;

    const answer = await approve(admin, id);
    expect(answer.res.status).toBe(200);
    const decided = data(answer.body);
    expect(decided).toMatchObject({
      id,
      status: 'approved',
      applicant: { _id: who.id, userId: who.userId, name: who.name, group: 'creator', postCount: 0, articleCount: 0 },
      reviewer: { userId: admin.userId, name: admin.name },
    });
    expect(decided.reviewedAt).not.toBeNull();
    expect(await groupOf(who)).toBe('creator');

    // The status carries the new group, so the page can see that the token it holds is behind.
    expect(await status(who)).toMatchObject({ application: { id, status: 'approved' }, group: 'creator' });
    // The server decides by the stored group, whatever the old token says.
    expectFailure(await submit(who, { reason, images: [] }), 409, 'ALREADY_CREATOR');
    const claimOf = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { hikariUserGroup: string })
        .hikariUserGroup;
    expect(claimOf(who.token)).toBe('user');
    const refreshed = await post<RefreshData>(app, '/user/refresh-token', { token: session.hikariRefreshToken });
    expect(refreshed.res.status).toBe(200);
    expect(claimOf(data(refreshed.body).hikariAccessToken)).toBe('creator');

    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_type', '=', 'creator_application')
      .where('target_id', '=', String(id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, action: 'application.approve' });
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toEqual({
      userId: who.id,
      groupBefore: 'user',
      groupAfter: 'creator',
    });

    const notes = await notificationsOf(who);
    expect(notes.items).toHaveLength(1);
    expect(notes.items[0]).toMatchObject({ kind: 'review', action: 'application_approved', reason: '' });
  });

  it('rejects with a reason the member reads, and lets them apply again', async () => {
    const { who, id } = await applied();
    expectFailure(await reject(admin, id, {}), 400, 'VALIDATION_FAILED');
    expectFailure(await reject(admin, id, { reason: '   ' }), 400, 'VALIDATION_FAILED');
    expectFailure(await reject(admin, id, { reason: 'x'.repeat(501) }), 400, 'VALIDATION_FAILED');
    const answer = await reject(superAdmin, id, { reason: '请补充你整理过的资料' });
    expect(answer.res.status).toBe(200);
    expect(data(answer.body)).toMatchObject({ status: 'rejected', rejectionReason: '请补充你整理过的资料' });
    expect(await groupOf(who)).toBe('user');
    expect((await status(who)).application).toMatchObject({
      status: 'rejected',
      rejectionReason: '请补充你整理过的资料',
    });
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target_type', '=', 'creator_application')
      .where('target_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('application.reject');
    expect(JSON.parse(audit.detail)).toEqual({ userId: who.id, reason: '请补充你整理过的资料' });
    expect((await notificationsOf(who)).items[0]).toMatchObject({
      kind: 'review',
      action: 'application_rejected',
      reason: '请补充你整理过的资料',
    });

    const again = data((await submit(who, { reason, images: [] })).body);
    expect(again.application).toMatchObject({ status: 'pending', rejectionReason: '' });
    expect(again.application?.id).not.toBe(id);
  });

  it('decides an application once: a double click or a second admin gets APPLICATION_CLOSED', async () => {
    const first = await applied();
    expect((await approve(admin, first.id)).res.status).toBe(200);
    expectFailure(await approve(admin, first.id), 409, 'APPLICATION_CLOSED');
    expectFailure(await reject(superAdmin, first.id), 409, 'APPLICATION_CLOSED');

    const second = await applied();
    const answers = await Promise.all([
      approve(admin, second.id),
      reject(superAdmin, second.id),
      approve(admin, second.id),
    ]);
    expect(answers.filter((a) => a.res.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.res.status !== 200)) expectFailure(answer, 409, 'APPLICATION_CLOSED');
    const audits = await db
      .selectFrom('audit_log')
      .select('id')
      .where('target_type', '=', 'creator_application')
      .where('target_id', '=', String(second.id))
      .execute();
    expect(audits).toHaveLength(1);
    expectFailure(await approve(admin, 999_999), 404, 'NOT_FOUND');
  });

  it('never lowers a member who was made staff while their application waited', async () => {
    const { who, id } = await applied();
    await db.updateTable('users').set({ user_group: 'editor' }).where('id', '=', who.id).execute();
    expect((await approve(admin, id)).res.status).toBe(200);
    expect(await groupOf(who)).toBe('editor');
  });

  it('answers each role as it should', async () => {
    const user = await member();
    const visitor = undefined;
    // Visitors: 401 everywhere.
    expectFailure(await submit(visitor, { reason, images: [] }), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'GET', '/user/creator-application/status'), 401, 'UNAUTHORIZED');
    expectFailure(await list(visitor), 401, 'UNAUTHORIZED');
    expectFailure(await approve(visitor, 1), 401, 'UNAUTHORIZED');
    expectFailure(await reject(visitor, 1), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'GET', '/creator/overview'), 401, 'UNAUTHORIZED');
    // The creator group and above have nothing to apply for.
    for (const who of [creator, editor, admin, superAdmin]) {
      expectFailure(await submit(who, { reason, images: [] }), 409, 'ALREADY_CREATOR');
      expect((await status(who)).group).toBe(await groupOf(who));
    }
    // Only admins review.
    const { id } = await applied();
    for (const who of [user, creator, editor]) {
      for (const answer of [await list(who), await approve(who, id), await reject(who, id)])
        expectFailure(answer, 403, 'FORBIDDEN');
    }
    for (const who of [admin, superAdmin]) expect((await list(who)).res.status).toBe(200);
    expect((await status(user)).application).toBeNull();
  });

  it('lists applications for admins, pending first, with who sent them', async () => {
    const waiting = await applied(1);
    const refused = await applied();
    await reject(admin, refused.id);
    const all = data((await list(admin, '?status=all&limit=50')).body);
    const statuses = all.items.map((item) => item.status);
    expect(statuses.indexOf('pending')).toBe(0);
    expect(statuses.lastIndexOf('pending')).toBeLessThan(statuses.findIndex((s) => s !== 'pending'));
    const pendingIds = all.items.filter((item) => item.status === 'pending').map((item) => item.id);
    expect(pendingIds).toEqual([...pendingIds].sort((a, b) => a - b));
    expect(all.pending).toBe(pendingIds.length);

    const pending = data((await list(admin, '?status=pending&limit=50')).body);
    expect(pending.items.every((item) => item.status === 'pending')).toBe(true);
    const mine = pending.items.find((item) => item.id === waiting.id);
    expect(mine).toMatchObject({ applicant: { userId: waiting.who.userId, name: waiting.who.name }, reviewer: null });
    expect(mine?.images).toHaveLength(1);
    const rejected = data((await list(superAdmin, '?status=rejected')).body);
    expect(rejected.items.map((item) => item.id)).toContain(refused.id);
    expectFailure(await list(admin, '?status=open'), 400, 'VALIDATION_FAILED');
    expectFailure(await list(admin, '?limit=500'), 400, 'VALIDATION_FAILED');
  });

  it('refuses hostile input with a clear 4xx and writes nothing', async () => {
    const who = await member();
    const other = await member();
    const before = await rows();
    const bad = async (body: unknown, code: 'VALIDATION_FAILED' | 'UPLOAD_INCOMPLETE' = 'VALIDATION_FAILED') =>
      expectFailure(await submit(who, body), 400, code);
    await bad({});
    await bad({ reason: 123 });
    await bad({ reason: null, images: [] });
    await bad({ reason: '太短了' });
    await bad({ reason: 'x'.repeat(1001) });
    await bad({ reason: `${reason}\u0000` });
    await bad({ reason: `${reason}\u202e` });
    await bad({ reason, images: 'https://example.com/a.webp' });
    await bad({ reason, images: [1] });
    await bad({ reason, images: [''] });
    await bad({ reason, images: await Promise.all(Array.from({ length: 10 }, () => image(who))) });
    await bad({ reason, images: ['javascript:alert(1)'] });
    await bad({ reason, images: ['https://elsewhere.example/creator_application/1/a.webp'] });
    // Ours, but not this member's application images: another kind, another member, another spelling.
    await bad({ reason, images: [await image(who, 'post')] });
    await bad({ reason, images: [await image(other)] });
    const mine = await image(who);
    await bad({ reason, images: [mine.replace(/\/([^/]+)$/, '/../$1')] });
    await bad({ reason, images: [`${mine}?x=1`] });
    await bad(
      { reason, images: [app.ctx.storage.publicUrl(`creator_application/${who.userId}/missing.webp`)] },
      'UPLOAD_INCOMPLETE',
    );
    // A body far beyond any limit.
    const huge = await submit(who, { reason: 'x'.repeat(3 * 1024 * 1024), images: [] });
    expectFailure(huge, 413, 'PAYLOAD_TOO_LARGE');
    const notJson = await app.request('/api/user/creator-application/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}` },
      body: '{"reason":',
    });
    expect(notJson.status).toBe(400);
    expectFailure(await withdraw(who, 0), 400, 'VALIDATION_FAILED');
    expectFailure(await approve(admin, -1), 400, 'VALIDATION_FAILED');
    expectFailure(await reject(admin, 1, { reason: 42 }), 400, 'VALIDATION_FAILED');
    expectFailure(
      await call(app, 'POST', '/creator/applications/1/approve', admin.token, { group: 'admin' }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await call(app, 'POST', '/creator/applications/1/approve', admin.token, []),
      400,
      'VALIDATION_FAILED',
    );
    expect(await rows()).toBe(before);
    expect((await status(who)).application).toBeNull();
  });

  it('limits submits to a few a day; refused ones do not count', async () => {
    const who = await member();
    await submit(who, { reason: '太短' });
    for (let i = 0; i < APPLICATION_LIMIT.limit; i++) {
      const answer = await submit(who, { reason, images: [] });
      expect(answer.res.status).toBe(201);
      expectFailure(await submit(who, { reason, images: [] }), 409, 'APPLICATION_OPEN');
      await withdraw(who, data(answer.body).application?.id ?? 0);
    }
    expectFailure(await submit(who, { reason, images: [] }), 429, 'RATE_LIMITED');
  });

  describe('overview', () => {
    const at = '2026-11-20T00:00:00.000Z';
    let nextRequest = 1000;
    async function request(who: Account, status: string, title: string, note = '') {
      await db
        .insertInto('update_request')
        .values({
          id: ++nextRequest,
          item_type: 'galgame',
          item_id: null,
          doc: JSON.stringify({ title, titleZh: '' }),
          title,
          status: status as 'pending',
          user_id: who.id,
          review_note: note,
          reviewed_at: status === 'pending' ? null : at,
          created_at: at,
          updated_at: `2026-11-2${nextRequest % 10}T00:00:00.000Z`,
        })
        .execute();
    }

    it("counts the member's content, requests and points, and the queues of each staff group", async () => {
      const who = await member();
      await db.updateTable('users').set({ hikari_point: 42 }).where('id', '=', who.id).execute();
      await request(who, 'pending', 'Pending game');
      await request(who, 'approved', 'Accepted game');
      await request(who, 'rejected', 'Refused game', '重复条目');
      await request(who, 'changes_requested', 'Sent back', '请补充发售日');
      await request(creator, 'pending', 'Someone else');

      const mine = await overview(who);
      expect(mine).toMatchObject({ group: 'user', hikariPoint: 42, content: { drafts: 0, published: 0 }, queues: [] });
      expect(mine.requests.counts).toEqual({
        pending: 1,
        approved: 1,
        rejected: 1,
        changes_requested: 1,
        withdrawn: 0,
      });
      expect(mine.requests.outcomes.map((r) => r.title).sort()).toEqual(['Accepted game', 'Refused game', 'Sent back']);
      expect(mine.requests.outcomes.find((r) => r.status === 'rejected')).toMatchObject({ reviewNote: '重复条目' });
      expect((await overview(creator)).queues).toEqual([]);

      const pendingRequests = Number(
        (
          await db
            .selectFrom('update_request')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );
      const pendingApplications = data((await list(admin, '?status=pending')).body).pending;
      const ids = (o: CreatorOverview) => o.queues.map((q) => q.id);
      const editorView = await overview(editor);
      expect(ids(editorView)).toEqual(['updateRequests', 'reports']);
      expect(editorView.queues[0]).toEqual({
        id: 'updateRequests',
        count: pendingRequests,
        href: '/create/update-request/audits',
      });
      expect(editorView.queues[1]).toMatchObject({ id: 'reports', count: 0, href: '/create/moderation/reports' });
      for (const who of [admin, superAdmin]) {
        const view = await overview(who);
        expect(ids(view)).toEqual(['updateRequests', 'reports', 'applications']);
        expect(view.queues[2]).toEqual({
          id: 'applications',
          count: pendingApplications,
          href: '/create/moderation/applications',
        });
      }
      // A new application shows in the admins' queue at once.
      await applied();
      expect((await overview(admin)).queues[2]?.count).toBe(pendingApplications + 1);
    });
  });
});
