import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { SessionData } from '../../src/shared/auth.ts';
import { apiContracts, type ModuleName } from '../../src/shared/contracts.ts';
import type { AnyEndpoint } from '../../src/shared/contract.ts';
import type { PostDetail } from '../../src/shared/community/community.ts';
import { EMPTY_DOCS } from '../../src/shared/creator/docs.ts';
import { authDepsOf, createSession } from '../../src/server/modules/auth/sessions.service.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { saveLightnovel, saveVolume } from '../../src/server/modules/lightnovel/lightnovel.writer.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { call, data } from '../support/accounts.ts';
import { createTestApp, insertSection, type TestApp } from '../support/test-app.ts';

// The creator centre's permission matrix (issue 18): every call of its modules, asked by a visitor and by
// a member of each group. A group the call is not for gets 401 (visitor) or 403 and nothing else; a
// group it is for gets past the check (whatever the answer about the thing itself: 200, 404, 409…).
// A call missing from the table fails the test, so a new endpoint has to be placed in it.

type Role = 'visitor' | UserGroup;
const ROLES: Role[] = ['visitor', 'user', 'creator', 'editor', 'admin', 'superAdmin'];
const MEMBERS: Role[] = ['user', 'creator', 'editor', 'admin', 'superAdmin'];
const CREATORS: Role[] = ['creator', 'editor', 'admin', 'superAdmin'];
const EDITORS: Role[] = ['editor', 'admin', 'superAdmin'];
const ADMINS: Role[] = ['admin', 'superAdmin'];

const MODULES: ModuleName[] = [
  'creatorItems',
  'creatorManage',
  'updateRequests',
  'creatorApplication',
  'moderation',
  'sections',
];

interface Fixture {
  game: number;
  volume: number;
  request: number;
  application: number;
  post: number;
  topic: number;
  section: number;
  owner: { userId: number };
  target: { userId: number };
}

interface Row {
  /** Who gets past the permission check. */
  allowed: Role[];
  /**
   * Members outside `allowed` who are told 404 instead of 403, because the thing is someone else's and
   * its existence is not revealed (another member's update request).
   */
  hidden?: Role[];
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
}

const gameDoc = { ...EMPTY_DOCS.galgame, title: 'Matrix Game', intro: 'changed by the matrix' };

/** Every creator-centre call: who may make it, and a request that is well formed. */
const MATRIX: Record<string, Row> = {
  'creatorItems.document': { allowed: MEMBERS, path: (f) => `/creator/items/galgame/${f.game}` },
  'creatorItems.save': {
    allowed: MEMBERS,
    path: (f) => `/creator/items/galgame/${f.game}`,
    body: () => ({ doc: gameDoc, baseRevision: 1, note: 'matrix' }),
  },
  'creatorItems.create': {
    allowed: CREATORS,
    path: () => '/creator/items/person',
    body: () => ({ doc: { ...EMPTY_DOCS.person, name: `Matrix ${Math.random()}` } }),
  },
  'creatorItems.revisions': { allowed: CREATORS, path: (f) => `/creator/items/galgame/${f.game}/revisions` },
  'creatorItems.revision': { allowed: CREATORS, path: (f) => `/creator/items/galgame/${f.game}/revisions/1` },
  'creatorItems.restore': {
    allowed: ADMINS,
    path: (f) => `/creator/items/galgame/${f.game}/revisions/1/restore`,
    body: () => ({}),
  },
  'creatorManage.list': { allowed: MEMBERS, path: () => '/creator/manage/galgame' },
  'creatorManage.lookup': { allowed: MEMBERS, path: () => '/creator/lookup/person?keyword=a' },
  'creatorManage.names': { allowed: MEMBERS, path: () => '/creator/names/person?ids=1' },
  'creatorManage.publish': {
    allowed: EDITORS,
    path: (f) => `/creator/manage/galgame/${f.game}/publish`,
    body: () => ({}),
  },
  'creatorManage.unpublish': {
    allowed: EDITORS,
    path: (f) => `/creator/manage/galgame/${f.game}/unpublish`,
    body: () => ({}),
  },
  'creatorManage.deleteVolume': { allowed: EDITORS, path: (f) => `/creator/manage/volume/${f.volume}` },
  'updateRequests.mine': { allowed: MEMBERS, path: () => '/creator/update-requests/mine' },
  'updateRequests.queue': { allowed: EDITORS, path: () => '/creator/update-requests' },
  'updateRequests.detail': {
    allowed: EDITORS,
    hidden: ['user', 'creator'],
    path: (f) => `/creator/update-requests/${f.request}`,
  },
  'updateRequests.approve': {
    allowed: EDITORS,
    path: (f) => `/creator/update-requests/${f.request}/approve`,
    body: () => ({}),
  },
  'updateRequests.reject': {
    allowed: EDITORS,
    path: (f) => `/creator/update-requests/${f.request}/reject`,
    body: () => ({ reason: 'matrix' }),
  },
  'updateRequests.requestChanges': {
    allowed: EDITORS,
    path: (f) => `/creator/update-requests/${f.request}/changes`,
    body: () => ({ reason: 'matrix' }),
  },
  // Only the request's author (the fixture's owner) may resubmit or withdraw it: staff, who see it, are
  // refused; other members are told it does not exist.
  'updateRequests.resubmit': {
    allowed: [],
    hidden: ['user', 'creator'],
    path: (f) => `/creator/update-requests/${f.request}`,
    body: () => ({ doc: gameDoc }),
  },
  'updateRequests.withdraw': {
    allowed: [],
    hidden: ['user', 'creator'],
    path: (f) => `/creator/update-requests/${f.request}/withdraw`,
    body: () => ({}),
  },
  'creatorApplication.submit': {
    allowed: MEMBERS,
    path: () => '/user/creator-application/submit',
    body: () => ({ reason: 'I would like to keep the catalogue tidy.' }),
  },
  'creatorApplication.status': { allowed: MEMBERS, path: () => '/user/creator-application/status' },
  // The owner's application: someone else's withdraw is told it does not exist.
  'creatorApplication.withdraw': {
    allowed: [],
    hidden: MEMBERS,
    path: (f) => `/user/creator-application/${f.application}/withdraw`,
    body: () => ({}),
  },
  'creatorApplication.list': { allowed: ADMINS, path: () => '/creator/applications' },
  'creatorApplication.approve': {
    allowed: ADMINS,
    path: (f) => `/creator/applications/${f.application}/approve`,
    body: () => ({}),
  },
  'creatorApplication.reject': {
    allowed: ADMINS,
    path: (f) => `/creator/applications/${f.application}/reject`,
    body: () => ({ reason: 'matrix' }),
  },
  'creatorApplication.overview': { allowed: MEMBERS, path: () => '/creator/overview' },
  'moderation.reports': { allowed: EDITORS, path: () => '/moderation/reports' },
  'moderation.resolve': {
    allowed: EDITORS,
    path: (f) => `/moderation/reports/post/${f.post}/resolve`,
    body: () => ({}),
  },
  'moderation.dismiss': {
    allowed: EDITORS,
    path: (f) => `/moderation/reports/post/${f.post}/dismiss`,
    body: () => ({}),
  },
  'moderation.hide': { allowed: EDITORS, path: (f) => `/moderation/content/post/${f.post}/hide`, body: () => ({}) },
  'moderation.restore': {
    allowed: EDITORS,
    path: (f) => `/moderation/content/post/${f.post}/restore`,
    body: () => ({}),
  },
  'moderation.remove': { allowed: EDITORS, path: (f) => `/moderation/content/post/${f.post}/delete`, body: () => ({}) },
  'moderation.members': { allowed: ADMINS, path: () => '/moderation/users?q=perm' },
  'moderation.ban': {
    allowed: ADMINS,
    path: (f) => `/moderation/users/${f.target.userId}/ban`,
    body: () => ({ period: '1d', reason: 'matrix' }),
  },
  'moderation.unban': { allowed: ADMINS, path: (f) => `/moderation/users/${f.target.userId}/unban`, body: () => ({}) },
  'moderation.setGroup': {
    allowed: ['superAdmin'],
    path: (f) => `/moderation/users/${f.target.userId}/group`,
    body: () => ({ group: 'user' }),
  },
  'moderation.audit': { allowed: ADMINS, path: () => '/moderation/audit' },
  'sections.manageSections': { allowed: EDITORS, path: () => '/creator/sections' },
  'sections.createSection': {
    allowed: EDITORS,
    path: () => '/creator/sections',
    body: () => ({ name: `矩阵${Math.random().toString(36).slice(2, 8)}` }),
  },
  'sections.orderSections': {
    allowed: EDITORS,
    path: () => '/creator/sections/order',
    body: (f) => ({ ids: [f.section] }),
  },
  'sections.updateSection': {
    allowed: EDITORS,
    path: (f) => `/creator/sections/${f.section}`,
    body: () => ({ name: '权限矩阵版块' }),
  },
  'sections.addModerator': {
    allowed: EDITORS,
    path: (f) => `/creator/sections/${f.section}/moderators`,
    body: (f) => ({ user: String(f.owner.userId) }),
  },
  'sections.removeModerator': {
    allowed: EDITORS,
    path: (f) => `/creator/sections/${f.section}/moderators/${f.owner.userId}`,
  },
  'sections.manageTopics': { allowed: EDITORS, path: () => '/creator/topics' },
  'sections.updateTopic': {
    allowed: EDITORS,
    path: (f) => `/creator/topics/${f.topic}`,
    body: () => ({ name: '矩阵话题' }),
  },
  'sections.mergeTopic': {
    allowed: EDITORS,
    path: (f) => `/creator/topics/${f.topic}/merge`,
    body: (f) => ({ intoId: f.topic }),
  },
};

describe('creator centre permission matrix', () => {
  let app: TestApp;
  const tokens = {} as Record<UserGroup, string>;
  const fixture = {} as Fixture;
  let ownerToken = '';
  let count = 0;

  async function member(group: UserGroup) {
    count += 1;
    const name = `perm_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await app.ctx.db
      .transaction()
      .execute((trx) => createUser(trx, { name, email: `${name}@example.test`, passwordHash: 'x', group }));
    const session: SessionData = await createSession(authDepsOf(app.ctx), user);
    return { userId: user.user_id, token: session.hikariAccessToken };
  }

  beforeAll(async () => {
    app = await createTestApp();
    for (const group of MEMBERS as UserGroup[]) tokens[group] = (await member(group)).token;
    const owner = await member('user');
    ownerToken = owner.token;
    fixture.owner = { userId: owner.userId };
    fixture.target = { userId: (await member('user')).userId };
    fixture.game = await saveGalgame(app.ctx.db, { title: 'Matrix Game', status: 'published' });
    const series = await saveLightnovel(app.ctx.db, { name: 'Matrix Series', status: 'published' });
    fixture.volume = await saveVolume(app.ctx.db, { lightnovelId: series, number: 1 });
    fixture.section = 9301;
    await insertSection(app, fixture.section, '权限矩阵');

    // The owner's update request, creator application and post.
    const opened = await call<{ revision: number }>(app, 'GET', `/creator/items/galgame/${fixture.game}`, ownerToken);
    const proposed = await call<{ requestId: number }>(
      app,
      'PUT',
      `/creator/items/galgame/${fixture.game}`,
      ownerToken,
      {
        doc: { ...gameDoc, intro: 'the owner proposes this' },
        baseRevision: data(opened.body).revision,
      },
    );
    fixture.request = data(proposed.body).requestId;
    const applied = await call<{ application: { id: number } }>(
      app,
      'POST',
      '/user/creator-application/submit',
      ownerToken,
      { reason: 'I would like to keep the catalogue tidy.' },
    );
    expect(applied.res.status, JSON.stringify(applied.body)).toBeLessThan(300);
    const status = await call<{ application: { id: number } }>(
      app,
      'GET',
      '/user/creator-application/status',
      ownerToken,
    );
    fixture.application = data(status.body).application.id;
    const posted = await call<PostDetail>(app, 'POST', '/community/posts', ownerToken, {
      title: '权限矩阵的帖子',
      content: '正文',
      images: [],
      sectionId: fixture.section,
      topics: ['权限矩阵话题'],
      works: [],
      publish: true,
    });
    fixture.post = data(posted.body).id;
    const topic = await app.ctx.db
      .selectFrom('topic')
      .select('id')
      .where('name', '=', '权限矩阵话题')
      .executeTakeFirstOrThrow();
    fixture.topic = topic.id;
  });
  afterAll(async () => app.close());

  const endpoints = MODULES.flatMap((module) =>
    Object.entries(apiContracts[module] as Record<string, AnyEndpoint>).map(([name, endpoint]) => ({
      key: `${module}.${name}`,
      endpoint,
    })),
  );

  it('has a row for every call of the creator centre, and no row for a call that is gone', () => {
    expect(endpoints.map((e) => e.key).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const role of ROLES) {
    it(`answers ${role} as the matrix says on every call`, async () => {
      const wrong: string[] = [];
      for (const { key, endpoint } of endpoints) {
        const row = MATRIX[key];
        if (!row) continue;
        await app.ctx.db.deleteFrom('rate_limit').execute();
        const token = role === 'visitor' ? undefined : tokens[role];
        const answer = await call<unknown>(
          app,
          endpoint.method,
          row.path(fixture),
          token,
          endpoint.method === 'GET' ? undefined : (row.body?.(fixture) ?? {}),
        );
        const status = answer.res.status;
        const code = (answer.body as { code?: string }).code;
        let expected: string;
        let good: boolean;
        if (role === 'visitor') {
          expected = '401';
          good = status === 401;
        } else if (row.allowed.includes(role)) {
          expected = 'past the check';
          good = status !== 401 && status !== 403 && status < 500;
        } else if (row.hidden?.includes(role)) {
          expected = '404';
          good = status === 404;
        } else {
          expected = '403 FORBIDDEN';
          good = status === 403 && code === 'FORBIDDEN';
        }
        if (!good)
          wrong.push(`${key} ${endpoint.method} ${row.path(fixture)}: ${status} ${code ?? ''}, expected ${expected}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
