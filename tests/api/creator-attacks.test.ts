import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveGalgame, upsertPerson } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { PROPOSAL_LIMIT } from '../../src/server/modules/creator/update-requests.service.ts';
import { saveLightnovel, saveVolume } from '../../src/server/modules/lightnovel/lightnovel.writer.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { ApiFailure } from '../../src/shared/api.ts';
import { EMPTY_DOCS, type GalgameDoc } from '../../src/shared/creator/docs.ts';
import type { EditConflict, ItemDocument, SaveOutcome } from '../../src/shared/creator/items.contract.ts';
import type { RequestDetail } from '../../src/shared/creator/requests.contract.ts';
import type { LookupHit } from '../../src/shared/creator/manage.contract.ts';
import { call, data, makeAccount } from '../support/accounts.ts';
import { createTestApp, insertSection, type TestApp } from '../support/test-app.ts';

// What an attack on the creator centre found, kept fixed: a new entry never takes over another that
// shares its name, a create sent twice makes one entry, unpublished titles stay with editors, members
// cannot flood the review queue, and an edit racing a deletion is told the entry is gone.
describe('creator centre under attack', () => {
  let app: TestApp;
  const tokens = {} as Record<UserGroup, string>;
  let count = 0;

  const account = (group: UserGroup) => makeAccount(app, `atk_${++count}`, group);
  const member = async (group: UserGroup) => (await account(group)).token;

  beforeAll(async () => {
    app = await createTestApp();
    for (const group of ['user', 'creator', 'editor', 'admin'] as UserGroup[]) tokens[group] = await member(group);
  });
  afterAll(async () => app.close());

  it('creates a new person beside one with the same name, and leaves that one as it was', async () => {
    const existing = await upsertPerson(app.ctx.db, { name: '同名人物', description: '原来的介绍' });
    const answer = await call<SaveOutcome>(app, 'POST', '/creator/items/person', tokens.editor, {
      doc: { ...EMPTY_DOCS.person, name: '同名人物', description: '另一个人' },
    });
    expect(answer.res.status, JSON.stringify(answer.body)).toBeLessThan(300);
    const created = data(answer.body);
    expect(created.outcome).toBe('applied');
    expect(created.outcome === 'applied' && created.id).not.toBe(existing);
    const kept = await app.ctx.db
      .selectFrom('person')
      .select('description')
      .where('id', '=', existing)
      .executeTakeFirstOrThrow();
    expect(kept.description).toBe('原来的介绍');
  });

  it('creates a new series beside an unpublished one with the same name, which stays unpublished', async () => {
    const draft = await saveLightnovel(app.ctx.db, { name: '同名系列', intro: '草稿', status: 'draft' });
    const answer = await call<SaveOutcome>(app, 'POST', '/creator/items/lightnovel', tokens.editor, {
      doc: { ...EMPTY_DOCS.lightnovel, name: '同名系列', intro: '新的' },
    });
    const created = data(answer.body);
    expect(created.outcome === 'applied' && created.id).not.toBe(draft);
    const kept = await app.ctx.db
      .selectFrom('lightnovel')
      .select(['status', 'intro'])
      .where('id', '=', draft)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ status: 'draft', intro: '草稿' });
  });

  it('makes one entry of a create sent four times at once', async () => {
    const doc = { ...EMPTY_DOCS.producer, name: `连点的制作方 ${Date.now()}` };
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => call<SaveOutcome>(app, 'POST', '/creator/items/producer', tokens.editor, { doc })),
    );
    const ids = new Set(answers.map((a) => (a.body as { data: { id: number } }).data.id));
    expect(answers.map((a) => a.res.status).every((s) => s < 300)).toBe(true);
    expect(ids.size).toBe(1);
    const rows = await app.ctx.db.selectFrom('producer').select('id').where('name', '=', doc.name).execute();
    expect(rows).toHaveLength(1);
  });

  it('names unpublished games only to editors', async () => {
    const draft = await saveGalgame(app.ctx.db, { title: '未公开的游戏', status: 'draft' });
    const names = async (group: UserGroup) =>
      data((await call<LookupHit[]>(app, 'GET', `/creator/names/galgame?ids=${draft}`, tokens[group])).body);
    expect(await names('user')).toEqual([]);
    expect(await names('creator')).toEqual([]);
    expect((await names('editor')).map((hit) => hit.id)).toEqual([draft]);
  });

  it('refuses a member more than the hourly number of proposals, with 429 and nothing written', async () => {
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const token = await member('creator');
    const statuses: number[] = [];
    for (let i = 0; i <= PROPOSAL_LIMIT.limit; i++) {
      const answer = await call(app, 'POST', '/creator/items/tag', token, {
        doc: { ...EMPTY_DOCS.tag, name: `刷屏标签${i}` },
      });
      statuses.push(answer.res.status);
    }
    expect(statuses.slice(0, PROPOSAL_LIMIT.limit).every((s) => s < 300)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const queued = await app.ctx.db
      .selectFrom('update_request')
      .select('id')
      .where('item_type', '=', 'tag')
      .where('status', '=', 'pending')
      .execute();
    expect(queued).toHaveLength(PROPOSAL_LIMIT.limit);
  });

  it('answers an edit racing the deletion of its volume with 404, never a server error', async () => {
    const series = await saveLightnovel(app.ctx.db, { name: '竞速系列', status: 'published' });
    for (let round = 0; round < 4; round++) {
      const volume = await saveVolume(app.ctx.db, { lightnovelId: series, number: round + 1 });
      const opened = data((await call<ItemDocument>(app, 'GET', `/creator/items/volume/${volume}`, tokens.admin)).body);
      const [saved, deleted] = await Promise.all([
        call(app, 'PUT', `/creator/items/volume/${volume}`, tokens.admin, {
          doc: { ...opened.doc, intro: `第 ${round} 轮` },
          baseRevision: opened.revision,
        }),
        call(app, 'DELETE', `/creator/manage/volume/${volume}`, tokens.editor),
      ]);
      expect([200, 404]).toContain(saved.res.status);
      expect(deleted.res.status).toBe(200);
    }
  });

  it("audits staff deleting and pinning others' posts, and keeps section moderators off staff posts", async () => {
    const section = 9401;
    await insertSection(app, section, '攻击测试版块');
    const post = async (token: string, title: string) => {
      await app.ctx.db.deleteFrom('rate_limit').execute();
      const answer = await call<{ id: number }>(app, 'POST', '/community/posts', token, {
        title,
        content: '正文',
        images: [],
        sectionId: section,
        topics: [],
        works: [],
        publish: true,
      });
      expect(answer.res.status, JSON.stringify(answer.body)).toBeLessThan(300);
      return data(answer.body).id;
    };
    const moderator = await account('user');
    const appointed = await call(app, 'POST', `/creator/sections/${section}/moderators`, tokens.editor, {
      user: String(moderator.userId),
    });
    expect(appointed.res.status).toBeLessThan(300);
    const staffPost = await post(tokens.admin, '管理员的帖子');
    const memberPost = await post(tokens.user, '成员的帖子');

    // A section moderator: not on staff posts, yes on members' posts.
    expect((await call(app, 'DELETE', `/community/posts/${staffPost}`, moderator.token)).res.status).toBe(403);
    expect((await call(app, 'DELETE', `/community/posts/${memberPost}`, moderator.token)).res.status).toBe(200);
    // Staff pinning a member's post.
    const other = await post(tokens.user, '另一个成员的帖子');
    expect(
      (await call(app, 'PUT', `/community/posts/${other}/moderation`, tokens.editor, { pinned: true })).res.status,
    ).toBe(200);
    const audits = await app.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('target_type', '=', 'post')
      .execute();
    expect(audits).toEqual(
      expect.arrayContaining([
        { action: 'content.delete', target_id: String(memberPost) },
        { action: 'content.moderate', target_id: String(other) },
      ]),
    );
    expect(audits.some((row) => row.target_id === String(staffPost))).toBe(false);
  });

  it('makes one section of three created at once with names differing only in case', async () => {
    const answers = await Promise.all(
      ['Race0x', 'RACE0X', 'race0x'].map((name) => call(app, 'POST', '/creator/sections', tokens.editor, { name })),
    );
    expect(answers.map((a) => a.res.status).sort()).toEqual([201, 409, 409]);
    const orders = await app.ctx.db.selectFrom('section').select('sort_order').execute();
    expect(new Set(orders.map((o) => o.sort_order)).size).toBe(orders.length);
  });

  it('answers a topic rename racing its merge with 200 or 404, and audits no rename of a topic merged away', async () => {
    const section = 9402;
    await insertSection(app, section, '话题竞速版块');
    for (let round = 0; round < 3; round++) {
      await app.ctx.db.deleteFrom('rate_limit').execute();
      const made = await call<{ id: number }>(app, 'POST', '/community/posts', tokens.user, {
        title: `话题竞速 ${round}`,
        content: '正文',
        images: [],
        sectionId: section,
        topics: [`竞速甲${round}`, `竞速乙${round}`],
        works: [],
        publish: true,
      });
      expect(made.res.status).toBeLessThan(300);
      const topics = await app.ctx.db
        .selectFrom('topic')
        .select(['id', 'name'])
        .where('name', 'in', [`竞速甲${round}`, `竞速乙${round}`])
        .execute();
      const from = topics.find((t) => t.name === `竞速甲${round}`)!.id;
      const into = topics.find((t) => t.name === `竞速乙${round}`)!.id;
      const [merged, renamed] = await Promise.all([
        call(app, 'POST', `/creator/topics/${from}/merge`, tokens.admin, { intoId: into }),
        call(app, 'PUT', `/creator/topics/${from}`, tokens.editor, { name: `改名${round}` }),
      ]);
      expect(merged.res.status).toBe(200);
      expect([200, 404]).toContain(renamed.res.status);
      if (renamed.res.status === 404) {
        const audits = await app.ctx.db
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', 'topic.update')
          .where('target_id', '=', String(from))
          .execute();
        expect(audits).toEqual([]);
      }
    }
  });

  it('restores a hidden post into its renamed topic, making no second topic', async () => {
    const section = 9403;
    await insertSection(app, section, '隐藏改名版块');
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const made = await call<{ id: number }>(app, 'POST', '/community/posts', tokens.user, {
      title: '会被隐藏的帖子',
      content: '正文',
      images: [],
      sectionId: section,
      topics: ['改名前的话题'],
      works: [],
      publish: true,
    });
    const postId = data(made.body).id;
    const topic = await app.ctx.db
      .selectFrom('topic')
      .select('id')
      .where('name', '=', '改名前的话题')
      .executeTakeFirstOrThrow();
    expect((await call(app, 'POST', `/moderation/content/post/${postId}/hide`, tokens.editor, {})).res.status).toBe(
      200,
    );
    expect(
      (await call(app, 'PUT', `/creator/topics/${topic.id}`, tokens.editor, { name: '改名后的话题' })).res.status,
    ).toBe(200);
    expect((await call(app, 'POST', `/moderation/content/post/${postId}/restore`, tokens.editor, {})).res.status).toBe(
      200,
    );
    const named = await app.ctx.db
      .selectFrom('topic')
      .select(['id', 'use_count'])
      .where('name', 'in', ['改名前的话题', '改名后的话题'])
      .execute();
    expect(named).toEqual([{ id: topic.id, use_count: 1 }]);
  });

  it("answers malformed moderation and review bodies in the reader's language, changing nothing", async () => {
    const target = await account('user');
    const cases: [string, string, unknown][] = [
      [
        'POST',
        `/moderation/users/${target.userId}/ban`,
        { period: '1d', until: '2099-01-01T00:00:00Z', reason: '刷屏' },
      ],
      ['POST', `/moderation/users/${target.userId}/ban`, { period: '1d', reason: '刷屏', __proto__x: 1 }],
      ['POST', '/creator/update-requests/1/approve', { overwrite: Array.from({ length: 41 }, () => 'title') }],
    ];
    for (const [method, path, body] of cases) {
      const answer = await call(app, method, path, tokens.admin, body);
      expect(answer.res.status, path).toBe(400);
      expect((answer.body as { message: string }).message, path).toMatch(/[\u4e00-\u9fff]/);
    }
    const queue = await call(app, 'GET', '/moderation/reports?kind=users', tokens.admin);
    expect(queue.res.status).toBe(400);
    expect((queue.body as { message: string }).message).toMatch(/[\u4e00-\u9fff]/);
    const banned = await app.ctx.db
      .selectFrom('users')
      .select('status')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(banned.status).toBe('active');
  });

  describe("members' proposals show them nothing they could not open", () => {
    const open = async (id: number, token: string) =>
      data((await call<ItemDocument>(app, 'GET', `/creator/items/galgame/${id}`, token)).body);
    const propose = (id: number, token: string, body: unknown) =>
      call<SaveOutcome>(app, 'PUT', `/creator/items/galgame/${id}`, token, body);
    const detail = async (requestId: number, token: string) =>
      data((await call<RequestDetail>(app, 'GET', `/creator/update-requests/${requestId}`, token)).body);
    const requestIdOf = (outcome: SaveOutcome) => (outcome.outcome === 'requested' ? outcome.requestId : 0);

    it('merges a proposal made against an old revision onto the current one, never showing the old values', async () => {
      const game = await saveGalgame(app.ctx.db, { title: '旧版本的游戏', intro: '第一版简介' });
      const token = await member('user');
      const first = await open(game, tokens.editor);
      const edited = await call(app, 'PUT', `/creator/items/galgame/${game}`, tokens.editor, {
        doc: { ...first.doc, intro: '第二版简介' },
        baseRevision: first.revision,
      });
      expect(edited.res.status).toBe(200);

      // Revision 1 as a base, changing another field: merged onto revision 2 (its intro kept).
      const merged = await propose(game, token, {
        doc: { ...first.doc, titleZh: '中文名' },
        baseRevision: first.revision,
      });
      expect(merged.res.status, JSON.stringify(merged.body)).toBe(200);
      const request = await detail(requestIdOf(data(merged.body)), token);
      expect(request.baseRevision).toBe(first.revision + 1);
      expect(request.fields.map((f) => f.field)).toEqual(['titleZh']);
      expect((request.doc as { intro: string }).intro).toBe('第二版简介');

      // Changing the intro against revision 1: a conflict that does not tell revision 1's intro.
      const other = await member('user');
      const conflict = await propose(game, other, {
        doc: { ...first.doc, intro: '我的简介' },
        baseRevision: first.revision,
      });
      expect(conflict.res.status).toBe(409);
      const fields = ((conflict.body as ApiFailure).data as EditConflict).fields;
      expect(fields).toEqual([{ field: 'intro', base: null, current: '第二版简介', proposed: '我的简介' }]);
      expect(JSON.stringify(conflict.body)).not.toContain('第一版简介');

      // Nor does moving a request back to an older revision.
      const back = await call(app, 'PUT', `/creator/update-requests/${request.id}`, token, {
        doc: request.doc,
        baseRevision: first.revision,
        note: '',
      });
      expect(back.res.status).toBe(400);
      expect((await detail(request.id, token)).baseRevision).toBe(first.revision + 1);
    });

    it("keeps unpublished games out of a member's proposals: no link, no name, and no proposals on a game taken back to draft", async () => {
      const db = app.ctx.db;
      const game = await saveGalgame(db, { title: '公开的游戏' });
      const draft = await saveGalgame(db, { title: '秘密的草稿', status: 'draft' });
      const token = await member('user');
      const item = await open(game, token);
      const doc = item.doc as GalgameDoc;
      const linked = await propose(game, token, {
        doc: { ...doc, relations: [{ galgameId: draft, relation: 'sequel' }] },
        baseRevision: item.revision,
      });
      expect(linked.res.status).toBe(400);
      expect(JSON.stringify(linked.body)).not.toContain('秘密的草稿');

      // A request made while the game was public, which then goes back to draft.
      const proposal = await propose(game, token, {
        doc: { ...doc, intro: '会员的简介' },
        baseRevision: item.revision,
      });
      const requestId = requestIdOf(data(proposal.body));
      await db.updateTable('galgame').set({ status: 'draft' }).where('id', '=', game).execute();
      const mine = await detail(requestId, token);
      expect(mine.fields.map((f) => f.current)).toEqual([null]);
      expect(mine.currentRevision).toBe(0);
      const again = await call(app, 'PUT', `/creator/update-requests/${requestId}`, token, {
        doc: { ...doc, intro: '再改一次' },
        note: '',
      });
      expect(again.res.status).toBe(404);
      const editors = await detail(requestId, tokens.editor);
      expect(editors.fields.map((f) => f.current)).toEqual(['']);
      await db.updateTable('galgame').set({ status: 'published' }).where('id', '=', game).execute();

      // Names in a request's detail: a draft another member linked (an editor's view names it).
      const relation = await call(app, 'PUT', `/creator/items/galgame/${game}`, tokens.editor, {
        doc: { ...(await open(game, tokens.editor)).doc, relations: [{ galgameId: draft, relation: 'sequel' }] },
        baseRevision: (await open(game, tokens.editor)).revision,
      });
      expect(relation.res.status).toBe(200);
      const seen = await open(game, token);
      const proposal2 = await propose(game, token, {
        doc: { ...seen.doc, intro: '第三次' },
        baseRevision: seen.revision,
      });
      const named = await detail(requestIdOf(data(proposal2.body)), token);
      expect(named.names.galgame[String(draft)]).toBeUndefined();
      expect((await detail(named.id, tokens.editor)).names.galgame[String(draft)]).toBe('秘密的草稿');
    });

    it('answers a proposal that only leaves out the download rows’ ids with NOTHING_CHANGED', async () => {
      const game = await saveGalgame(app.ctx.db, {
        title: '带下载的游戏',
        downloads: [
          { language: 'ja', platform: 'windows', translationType: 'none', links: [{ url: 'https://a.test/x' }] },
        ],
      });
      const token = await member('user');
      const item = await open(game, token);
      const doc = item.doc as GalgameDoc;
      const stripped = doc.downloads.map((d) => ({ ...d, id: null, links: d.links.map((l) => ({ ...l, id: null })) }));
      const answer = await propose(game, token, { doc: { ...doc, downloads: stripped }, baseRevision: item.revision });
      expect(answer.res.status).toBe(400);
      expect((answer.body as { code: string }).code).toBe('NOTHING_CHANGED');
    });
  });
});
