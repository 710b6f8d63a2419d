import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type {
  CommunityPage,
  PostDetail,
  ArticleDetail,
  SectionView,
  TopicView,
} from '../../src/shared/community/community.ts';
import type { SectionManageView } from '../../src/shared/community/sections-manage.ts';
import { mergedInto } from '../../src/server/modules/community/sections.manage.ts';
import { call, data, expectFailure, makeAccount } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

interface Member {
  id: string;
  userId: number;
  name: string;
  token: string;
}

// Section and topic management over HTTP: who may call it, sections created, edited and ordered, topics
// edited and merged with exact counts, section moderators whose powers stop at their sections, and
// hostile input refused with a stable code and nothing half-written.
describe('section and topic management API', () => {
  let app: TestApp;
  let editor: Member;
  let admin: Member;
  let author: Member;
  let count = 0;

  async function member(group: UserGroup = 'user'): Promise<Member> {
    count += 1;
    return makeAccount(app, `sm_${count}_${Math.random().toString(36).slice(2, 6)}`, group);
  }

  const sectionBody = (name: string, over: Record<string, unknown> = {}) => ({
    name,
    description: '讨论',
    icon: 'gamepad',
    color: '#FF6B81',
    ...over,
  });
  const createSection = (token: string | undefined, body: unknown) =>
    call<SectionManageView>(app, 'POST', '/creator/sections', token, body);
  const newSection = async (name: string) => data((await createSection(editor.token, sectionBody(name))).body).id;
  const publicSections = async () => data((await call<SectionView[]>(app, 'GET', '/community/sections')).body);

  const resetLimits = () => app.ctx.db.deleteFrom('rate_limit').execute();
  async function post(token: string, sectionId: number, topics: string[], publish = true): Promise<PostDetail> {
    const answer = await call<PostDetail>(app, 'POST', '/community/posts', token, {
      title: `帖子 ${Math.random().toString(36).slice(2, 6)}`,
      content: '内容',
      images: [],
      sectionId,
      topics,
      works: [],
      publish,
    });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }
  async function article(token: string, sectionId: number, topics: string[]): Promise<ArticleDetail> {
    const answer = await call<ArticleDetail>(app, 'POST', '/community/articles', token, {
      title: '文章',
      slug: null,
      cover: '',
      summary: '',
      body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '正文' }] }] },
      sectionId,
      topics,
      works: [],
      isReview: false,
      reviewWork: null,
      publish: true,
    });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }
  const topicByName = (name: string) =>
    app.ctx.db.selectFrom('topic').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

  /** Every topic's counts against the rows, and no item linked to one topic twice. */
  async function expectExactCounts() {
    const db = app.ctx.db;
    const topics = await db.selectFrom('topic').select(['id', 'use_count', 'follower_count']).execute();
    for (const topic of topics) {
      const uses = await db
        .selectFrom('content_topic')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('topic_id', '=', topic.id)
        .executeTakeFirstOrThrow();
      const followers = await db
        .selectFrom('community_follow')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('target_type', '=', 'topic')
        .where('target_id', '=', topic.id)
        .executeTakeFirstOrThrow();
      expect({ id: topic.id, uses: topic.use_count, followers: topic.follower_count }).toEqual({
        id: topic.id,
        uses: Number(uses.n),
        followers: Number(followers.n),
      });
    }
    const links = await db.selectFrom('content_topic').select(['content_type', 'content_id', 'topic_id']).execute();
    const keys = links.map((l) => `${l.content_type}:${l.content_id}:${l.topic_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const orphans = await db
      .selectFrom('community_follow')
      .select('target_id')
      .where('target_type', '=', 'topic')
      .where('target_id', 'not in', (eb) => eb.selectFrom('topic').select('id'))
      .execute();
    expect(orphans).toEqual([]);
  }

  beforeAll(async () => {
    app = await createTestApp();
    editor = await member('editor');
    admin = await member('admin');
    author = await member();
  });
  afterAll(async () => app.close());
  beforeEach(resetLimits);

  describe('who may call it', () => {
    it('refuses visitors (401) and members below editor (403), on every call', async () => {
      const sectionId = await newSection('权限版块');
      await post(author.token, sectionId, ['权限话题']);
      const topic = await topicByName('权限话题');
      const calls: [string, string, unknown?][] = [
        ['GET', '/creator/sections'],
        ['POST', '/creator/sections', sectionBody('不该存在')],
        ['PUT', '/creator/sections/order', { ids: [sectionId] }],
        ['PUT', `/creator/sections/${sectionId}`, sectionBody('改名')],
        ['POST', `/creator/sections/${sectionId}/moderators`, { user: String(author.userId) }],
        ['DELETE', `/creator/sections/${sectionId}/moderators/${author.userId}`],
        ['GET', '/creator/topics'],
        ['PUT', `/creator/topics/${topic.id}`, { name: '改名', description: '', icon: '' }],
        ['POST', `/creator/topics/${topic.id}/merge`, { intoId: topic.id + 1 }],
      ];
      const user = await member('user');
      const creator = await member('creator');
      for (const [method, path, body] of calls) {
        expectFailure(await call(app, method, path, undefined, body), 401, 'UNAUTHORIZED');
        for (const who of [user, creator])
          expectFailure(await call(app, method, path, who.token, body), 403, 'FORBIDDEN');
      }
      const names = (await publicSections()).map((s) => s.name);
      expect(names).not.toContain('不该存在');
      expect(names).not.toContain('改名');
      expect(await app.ctx.db.selectFrom('section_moderator').selectAll().execute()).toEqual([]);
    });

    it('lets editors, admins and super admins in', async () => {
      const superAdmin = await member('superAdmin');
      for (const who of [editor, admin, superAdmin]) {
        expect((await call(app, 'GET', '/creator/sections', who.token)).res.status).toBe(200);
        expect((await call(app, 'GET', '/creator/topics', who.token)).res.status).toBe(200);
      }
    });
  });

  describe('sections', () => {
    it('creates a section at the end, edits it, and refuses a name in use (409 NAME_IN_USE)', async () => {
      const created = await createSection(editor.token, sectionBody('  Visual Novels  '));
      expect(created.res.status).toBe(201);
      const section = data(created.body);
      expect(section).toMatchObject({ name: 'Visual Novels', icon: 'gamepad', color: '#ff6b81', moderators: [] });
      const all = await publicSections();
      expect(all.at(-1)?.id).toBe(section.id);

      // The same name in another case or in full-width letters is the same name.
      for (const name of ['Visual Novels', 'visual novels', 'ＶＩＳＵＡＬ ＮＯＶＥＬＳ'])
        expectFailure(await createSection(editor.token, sectionBody(name)), 409, 'NAME_IN_USE');
      const other = await newSection('Other');
      expectFailure(
        await call(app, 'PUT', `/creator/sections/${other}`, editor.token, sectionBody('visual novels')),
        409,
        'NAME_IN_USE',
      );
      // Keeping its own name is no conflict.
      const edited = await call<SectionManageView>(
        app,
        'PUT',
        `/creator/sections/${section.id}`,
        admin.token,
        sectionBody('Visual Novels', { description: '新简介', icon: '', color: '' }),
      );
      expect(data(edited.body)).toMatchObject({ description: '新简介', icon: '', color: '' });
      expectFailure(
        await call(app, 'PUT', '/creator/sections/999999', editor.token, sectionBody('x')),
        404,
        'NOT_FOUND',
      );

      const audit = await app.ctx.db
        .selectFrom('audit_log')
        .select(['action', 'actor_id'])
        .where('target_type', '=', 'section')
        .where('target_id', '=', String(section.id))
        .orderBy('id')
        .execute();
      expect(audit).toEqual([
        { action: 'section.create', actor_id: editor.id },
        { action: 'section.update', actor_id: admin.id },
      ]);
    });

    it('orders every section as given, and refuses a stale or repeated list', async () => {
      const before = await publicSections();
      const ids = before.map((s) => s.id).reverse();
      const ordered = await call<SectionManageView[]>(app, 'PUT', '/creator/sections/order', editor.token, { ids });
      expect(data(ordered.body).map((s) => s.id)).toEqual(ids);
      expect((await publicSections()).map((s) => s.id)).toEqual(ids);

      expectFailure(
        await call(app, 'PUT', '/creator/sections/order', editor.token, { ids: ids.slice(1) }),
        409,
        'CONFLICT',
      );
      expectFailure(
        await call(app, 'PUT', '/creator/sections/order', editor.token, { ids: [...ids.slice(1), ids[1]] }),
        400,
        'VALIDATION_FAILED',
      );
      expectFailure(
        await call(app, 'PUT', '/creator/sections/order', editor.token, { ids: [...ids.slice(1), 999999] }),
        409,
        'CONFLICT',
      );
      expect((await publicSections()).map((s) => s.id)).toEqual(ids);
    });
  });

  describe('topics', () => {
    it('lists topics most used first with a keyword, and edits one (a name in use is 409)', async () => {
      const section = await newSection('话题版块');
      await post(author.token, section, ['常用话题', '少用话题']);
      await post(author.token, section, ['常用话题']);
      const page = data(
        (await call<CommunityPage<TopicView>>(app, 'GET', '/creator/topics?keyword=用话题', editor.token)).body,
      );
      expect(page.items.map((t) => [t.name, t.useCount])).toEqual([
        ['常用话题', 2],
        ['少用话题', 1],
      ]);

      const rare = await topicByName('少用话题');
      expectFailure(
        await call(app, 'PUT', `/creator/topics/${rare.id}`, editor.token, {
          name: '常用话题',
          description: '',
          icon: '',
        }),
        409,
        'NAME_IN_USE',
      );
      const draft = await post(author.token, section, ['少用话题', '别的'], false);
      const renamed = await call<TopicView>(app, 'PUT', `/creator/topics/${rare.id}`, editor.token, {
        name: '冷门话题',
        description: '说明',
        icon: 'star',
      });
      expect(data(renamed.body)).toMatchObject({ id: rare.id, name: '冷门话题', description: '说明', icon: 'star' });
      // A draft naming the old name now names the topic as it is, so saving it does not bring the old one back.
      const names = await app.ctx.db
        .selectFrom('post')
        .select('topic_names')
        .where('id', '=', draft.id)
        .executeTakeFirst();
      expect(JSON.parse(names?.topic_names ?? '[]')).toEqual(['冷门话题', '别的']);
    });

    it('merges a topic into another: links, drafts and follows move without duplicates, counts exact', async () => {
      const section = await newSection('合并版块');
      const writer = await member();
      const onlyA = await post(writer.token, section, ['合并甲']);
      const both = await post(writer.token, section, ['合并甲', '合并乙']);
      const onlyB = await post(writer.token, section, ['合并乙']);
      const articleA = await article(writer.token, section, ['其他', '合并甲']);
      const draft = await post(writer.token, section, ['合并甲', '合并乙'], false);
      const a = await topicByName('合并甲');
      const b = await topicByName('合并乙');
      const fans = [await member(), await member(), await member()];
      const follow = (who: Member, id: number) =>
        call(app, 'POST', '/community/follow', who.token, { targetType: 'topic', targetId: id });
      await follow(fans[0]!, a.id);
      await follow(fans[1]!, a.id);
      await follow(fans[1]!, b.id);
      await follow(fans[2]!, b.id);

      expectFailure(
        await call(app, 'POST', `/creator/topics/${a.id}/merge`, editor.token, { intoId: a.id }),
        400,
        'VALIDATION_FAILED',
      );
      expectFailure(
        await call(app, 'POST', `/creator/topics/${a.id}/merge`, editor.token, { intoId: 999999 }),
        404,
        'NOT_FOUND',
      );

      const merged = await call<TopicView>(app, 'POST', `/creator/topics/${a.id}/merge`, editor.token, {
        intoId: b.id,
      });
      expect(data(merged.body)).toMatchObject({ id: b.id, name: '合并乙', useCount: 4, followerCount: 3 });
      expectFailure(await call(app, 'GET', `/community/topics/${a.id}`), 404, 'NOT_FOUND');
      await expectExactCounts();

      const topicsOf = async (id: number) =>
        data((await call<PostDetail>(app, 'GET', `/community/posts/${id}`)).body).topics.map((t) => t.name);
      expect(await topicsOf(onlyA.id)).toEqual(['合并乙']);
      expect(await topicsOf(both.id)).toEqual(['合并乙']);
      expect(await topicsOf(onlyB.id)).toEqual(['合并乙']);
      const art = data((await call<ArticleDetail>(app, 'GET', `/community/articles/${articleA.id}`)).body);
      expect(art.topics.map((t) => t.name)).toEqual(['其他', '合并乙']);
      const draftNames = await app.ctx.db
        .selectFrom('post')
        .select('topic_names')
        .where('id', '=', draft.id)
        .executeTakeFirst();
      expect(JSON.parse(draftNames?.topic_names ?? '[]')).toEqual(['合并乙']);

      // Saving an item that had the old topic does not bring it back.
      const again = await call<PostDetail>(app, 'PUT', `/community/posts/${onlyA.id}`, writer.token, {
        title: '改过',
        content: '内容',
        images: [],
        sectionId: section,
        topics: ['合并乙'],
        works: [],
        publish: true,
        version: onlyA.version,
      });
      expect(again.res.status, JSON.stringify(again.body)).toBe(200);
      await expectExactCounts();

      // The old name now names the topic it went into, and a chain of merges keeps leading there.
      const later = await post(writer.token, section, ['合并甲']);
      expect(later.topics.map((t) => [t.id, t.name])).toEqual([[b.id, '合并乙']]);
      await post(writer.token, section, ['合并丙']);
      const c = await topicByName('合并丙');
      expect(
        (await call(app, 'POST', `/creator/topics/${b.id}/merge`, editor.token, { intoId: c.id })).res.status,
      ).toBe(200);
      const latest = await post(writer.token, section, ['合并甲', '合并乙']);
      expect(latest.topics.map((t) => t.id)).toEqual([c.id]);
      expect(await mergedInto(app.ctx.db, a.id)).toBe(c.id);
      expect(await mergedInto(app.ctx.db, b.id)).toBe(c.id);
      expect(await mergedInto(app.ctx.db, c.id)).toBeNull();
      await expectExactCounts();
      // A topic renamed to a name merged away takes that name back.
      await post(writer.token, section, ['另一个']);
      const another = await topicByName('另一个');
      expect(
        (
          await call(app, 'PUT', `/creator/topics/${another.id}`, editor.token, {
            name: '合并甲',
            description: '',
            icon: '',
          })
        ).res.status,
      ).toBe(200);
      expect((await post(writer.token, section, ['合并甲'])).topics.map((t) => t.id)).toEqual([another.id]);

      const audit = await app.ctx.db
        .selectFrom('audit_log')
        .select(['action', 'target_id'])
        .where('action', '=', 'topic.merge')
        .execute();
      expect(audit).toEqual([
        { action: 'topic.merge', target_id: String(b.id) },
        { action: 'topic.merge', target_id: String(c.id) },
      ]);
    });

    it('runs merges at once one after the other: one wins, the other finds its topic gone', async () => {
      const section = await newSection('并发版块');
      const writer = await member();
      await post(writer.token, section, ['并发甲', '并发乙']);
      await post(writer.token, section, ['并发甲']);
      await post(writer.token, section, ['并发乙', '并发丙']);
      const [a, b, c] = await Promise.all(['并发甲', '并发乙', '并发丙'].map(topicByName));
      const answers = await Promise.all([
        call(app, 'POST', `/creator/topics/${a!.id}/merge`, editor.token, { intoId: b!.id }),
        call(app, 'POST', `/creator/topics/${b!.id}/merge`, admin.token, { intoId: a!.id }),
        call(app, 'POST', `/creator/topics/${a!.id}/merge`, editor.token, { intoId: c!.id }),
      ]);
      const statuses = answers.map((answer) => answer.res.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      for (const status of statuses) expect([200, 404]).toContain(status);
      await expectExactCounts();
      const left = await app.ctx.db
        .selectFrom('topic')
        .select(['name', 'use_count'])
        .where('name', 'in', ['并发甲', '并发乙', '并发丙'])
        .execute();
      expect(left.length).toBe(3 - statuses.filter((s) => s === 200).length);
    });
  });

  describe('section moderators', () => {
    it('appoints a member who then pins, features and deletes in that section only', async () => {
      const mine = await newSection('版主版块');
      const elsewhere = await newSection('别的版块');
      const moderator = await member();
      const writer = await member();
      const inMine = await post(writer.token, mine, []);
      const inMine2 = await post(writer.token, mine, []);
      const inOther = await post(writer.token, elsewhere, []);
      const moderate = (id: number, body: unknown) =>
        call<PostDetail>(app, 'PUT', `/community/posts/${id}/moderation`, moderator.token, body);

      expectFailure(await moderate(inMine.id, { pinned: true }), 403, 'FORBIDDEN');
      const appointed = await call<SectionManageView>(
        app,
        'POST',
        `/creator/sections/${mine}/moderators`,
        editor.token,
        {
          user: moderator.name.toUpperCase(),
        },
      );
      expect(data(appointed.body).moderators.map((m) => m.userId)).toEqual([moderator.userId]);
      // Twice is once.
      const twice = await call<SectionManageView>(app, 'POST', `/creator/sections/${mine}/moderators`, editor.token, {
        user: String(moderator.userId),
      });
      expect(data(twice.body).moderators).toHaveLength(1);

      const detail = data((await call<PostDetail>(app, 'GET', `/community/posts/${inMine.id}`, moderator.token)).body);
      expect(detail.viewer.canModerate).toBe(true);
      const otherDetail = data(
        (await call<PostDetail>(app, 'GET', `/community/posts/${inOther.id}`, moderator.token)).body,
      );
      expect(otherDetail.viewer.canModerate).toBe(false);

      expect(data((await moderate(inMine.id, { pinned: true, featured: true })).body)).toMatchObject({
        pinned: true,
        featured: true,
      });
      expectFailure(await moderate(inOther.id, { pinned: true }), 403, 'FORBIDDEN');
      expectFailure(await call(app, 'DELETE', `/community/posts/${inOther.id}`, moderator.token), 403, 'FORBIDDEN');
      expect((await call(app, 'DELETE', `/community/posts/${inMine2.id}`, moderator.token)).res.status).toBe(200);
      expectFailure(await call(app, 'GET', `/community/posts/${inMine2.id}`), 404, 'NOT_FOUND');

      // A section moderator manages nothing.
      expectFailure(await call(app, 'GET', '/creator/sections', moderator.token), 403, 'FORBIDDEN');

      const removed = await call<SectionManageView>(
        app,
        'DELETE',
        `/creator/sections/${mine}/moderators/${moderator.userId}`,
        editor.token,
      );
      expect(data(removed.body).moderators).toEqual([]);
      expectFailure(await moderate(inMine.id, { pinned: false }), 403, 'FORBIDDEN');

      const audit = await app.ctx.db
        .selectFrom('audit_log')
        .select(['detail'])
        .where('action', '=', 'section.moderators')
        .where('target_id', '=', String(mine))
        .orderBy('id')
        .execute();
      expect(audit.map((row) => JSON.parse(row.detail) as unknown)).toEqual([
        { added: moderator.id },
        { removed: moderator.id },
      ]);
    });

    it('refuses an unknown or banned member and an unknown section', async () => {
      const section = await newSection('任命版块');
      const banned = await member();
      await app.ctx.db.updateTable('users').set({ status: 'banned' }).where('id', '=', banned.id).execute();
      const appoint = (id: number | string, user: unknown) =>
        call(app, 'POST', `/creator/sections/${id}/moderators`, editor.token, { user });
      expectFailure(await appoint(section, 'nobody_at_all'), 404, 'NOT_FOUND');
      expectFailure(await appoint(section, String(banned.userId)), 400, 'VALIDATION_FAILED');
      expectFailure(await appoint(999999, String(author.userId)), 404, 'NOT_FOUND');
      expectFailure(await appoint(section, 12), 400, 'VALIDATION_FAILED');
      expectFailure(await appoint(section, ''), 400, 'VALIDATION_FAILED');
      expect(
        await app.ctx.db.selectFrom('section_moderator').selectAll().where('section_id', '=', section).execute(),
      ).toEqual([]);
    });
  });

  describe('hostile input', () => {
    it('refuses wrong types, unknown fields, control characters and huge values with 400', async () => {
      const before = (await publicSections()).length;
      const bad: unknown[] = [
        null,
        [],
        'name',
        { name: 12 },
        { name: '' },
        { name: '   ' },
        { name: 'a'.repeat(21) },
        { name: 'ok\u0000' },
        { name: 'ok\u202e' },
        { name: 'ok', description: 'x'.repeat(201) },
        { name: 'ok', icon: 'not-an-icon' },
        { name: 'ok', icon: 'x' },
        { name: 'ok', color: 'red' },
        { name: 'ok', color: '#12345' },
        { name: 'ok', color: 16711680 },
        { name: 'ok', sort_order: 1 },
        { name: 'ok', id: 5 },
      ];
      for (const body of bad) expectFailure(await createSection(editor.token, body), 400, 'VALIDATION_FAILED');
      expect((await publicSections()).length).toBe(before);

      for (const body of [{ ids: 'all' }, { ids: [] }, { ids: ['1'] }, { ids: [1.5] }, { ids: Array(101).fill(1) }, {}])
        expectFailure(await call(app, 'PUT', '/creator/sections/order', editor.token, body), 400, 'VALIDATION_FAILED');

      for (const path of ['/creator/sections/0', '/creator/sections/abc', '/creator/sections/99999999999'])
        expectFailure(await call(app, 'PUT', path, editor.token, sectionBody('x')), 400, 'VALIDATION_FAILED');

      for (const body of [{ intoId: '2' }, { intoId: -1 }, { intoId: 2, extra: true }, {}])
        expectFailure(await call(app, 'POST', '/creator/topics/1/merge', editor.token, body), 400, 'VALIDATION_FAILED');
      for (const body of [{ name: '#tag' }, { name: '' }, { name: 'x', icon: 'nope' }])
        expectFailure(await call(app, 'PUT', '/creator/topics/1', editor.token, body), 400, 'VALIDATION_FAILED');
    });

    it('refuses a body too large to read', async () => {
      const answer = await call(app, 'POST', '/creator/sections', editor.token, {
        name: 'big',
        description: 'x'.repeat(2_000_000),
      });
      expect([400, 413]).toContain(answer.res.status);
      expect(answer.body.success).toBe(false);
    });

    it('makes one section of a double submit', async () => {
      const answers = await Promise.all([
        createSection(editor.token, sectionBody('双击版块')),
        createSection(editor.token, sectionBody('双击版块')),
      ]);
      expect(answers.map((a) => a.res.status).sort()).toEqual([201, 409]);
      expect((await publicSections()).filter((s) => s.name === '双击版块')).toHaveLength(1);
    });
  });
});
