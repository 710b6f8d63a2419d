import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { RefreshData, SessionData } from '../../src/shared/auth.ts';
import type { CommentPage, CommentReplyPage, CommentView } from '../../src/shared/comments/comments.ts';
import type {
  ArticleDetail,
  CommunityPage,
  ContentListItem,
  FeedItem,
  PostDetail,
} from '../../src/shared/community/community.ts';
import type { NotificationPage, NotificationView } from '../../src/shared/notifications/notifications.ts';
import type {
  AuditPage,
  ContentState,
  MemberView,
  ReportedItem,
  ReportedLink,
  ReportQueue,
} from '../../src/shared/moderation/moderation.contract.ts';
import { nextId } from '../../src/server/db/ids.ts';
import type { PagesChanged } from '../../src/server/http/page-cache-policy.ts';
import { createHttpServer } from '../../src/server/http/server.ts';
import { authDepsOf, createSession } from '../../src/server/modules/auth/sessions.service.ts';
import { verifyAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { reportLink } from '../../src/server/modules/catalogue/downloads.service.ts';
import { liftEndedBans } from '../../src/server/modules/moderation/moderation.members.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { call, data, expectFailure, post, type Answer } from '../support/accounts.ts';
import { createTestApp, insertSection, jobsSettled, type TestApp } from '../support/test-app.ts';

interface Member {
  id: string;
  userId: number;
  name: string;
  token: string;
  refresh: string;
}

const GROUPS: UserGroup[] = ['user', 'creator', 'editor', 'admin', 'superAdmin'];

// Moderation (issue 18 §6) on a fresh database: the role matrix of every call, the report queue,
// hiding and restoring with exact counts, bans that end sessions, the role change, the audit log.
describe('moderation API', () => {
  let app: TestApp;
  let count = 0;
  const section = 7001;
  const staff = {} as Record<UserGroup, Member>;

  /** A member of `group` with a real login (refresh-token family), as a browser has. */
  async function member(group: UserGroup = 'user'): Promise<Member> {
    count += 1;
    const name = `md_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x', group });
    const session: SessionData = await createSession(authDepsOf(app.ctx), user);
    return {
      id: user.id,
      userId: user.user_id,
      name,
      token: session.hikariAccessToken,
      refresh: session.hikariRefreshToken,
    };
  }

  async function publishPost(author: Member, title = '一个帖子'): Promise<PostDetail> {
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const answer = await call<PostDetail>(app, 'POST', '/community/posts', author.token, {
      title,
      content: '正文',
      images: [],
      sectionId: section,
      topics: ['管理测试'],
      works: [],
      publish: true,
    });
    return data(answer.body);
  }

  async function comment(author: Member, postId: number, content: string, parentId?: number): Promise<CommentView> {
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const answer = await call<CommentView>(app, 'POST', '/comments', author.token, {
      targetType: 'post',
      targetId: postId,
      content,
      ...(parentId ? { parentId } : {}),
    });
    return data(answer.body);
  }

  async function report(reporter: Member, targetType: string, targetId: number, reason = 'spam', text = '') {
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const answer = await call(app, 'POST', '/reports', reporter.token, { targetType, targetId, reason, text });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
  }

  const counts = async (postAuthor: string, topicName = '管理测试') => {
    const user = await app.ctx.db
      .selectFrom('users')
      .select('post_count')
      .where('id', '=', postAuthor)
      .executeTakeFirstOrThrow();
    const sectionRow = await app.ctx.db
      .selectFrom('section')
      .select('post_count')
      .where('id', '=', section)
      .executeTakeFirstOrThrow();
    const topic = await app.ctx.db
      .selectFrom('topic')
      .select('use_count')
      .where('name', '=', topicName)
      .executeTakeFirst();
    return { user: user.post_count, section: sectionRow.post_count, topic: topic?.use_count ?? 0 };
  };

  const feedIds = async (token?: string) =>
    data(
      (await call<CommunityPage<FeedItem>>(app, 'GET', `/community/feed?sectionId=${section}&limit=50`, token)).body,
    ).items.map((item) => item.id);

  const auditRows = (action: string, targetId: string | number) =>
    app.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action as never)
      .where('target_id', '=', String(targetId))
      .execute();

  beforeAll(async () => {
    app = await createTestApp();
    await insertSection(app, section, '管理测试区');
    for (const group of GROUPS) staff[group] = await member(group);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('checks the caller’s group on every call: visitors 401, members below the group 403', async () => {
    const target = await member();
    const calls: { method: string; path: string; body?: unknown; least: UserGroup }[] = [
      { method: 'GET', path: '/moderation/reports', least: 'editor' },
      { method: 'GET', path: '/moderation/reports?kind=links', least: 'editor' },
      { method: 'POST', path: '/moderation/reports/post/999999/resolve', body: {}, least: 'editor' },
      { method: 'POST', path: '/moderation/reports/post/999999/dismiss', body: {}, least: 'editor' },
      { method: 'POST', path: '/moderation/content/post/999999/hide', body: {}, least: 'editor' },
      { method: 'POST', path: '/moderation/content/post/999999/restore', body: {}, least: 'editor' },
      { method: 'POST', path: '/moderation/content/post/999999/delete', body: {}, least: 'editor' },
      { method: 'GET', path: `/moderation/users?q=${target.userId}`, least: 'admin' },
      { method: 'POST', path: `/moderation/users/${target.userId}/unban`, body: {}, least: 'admin' },
      { method: 'GET', path: '/moderation/audit', least: 'admin' },
      { method: 'PUT', path: `/moderation/users/${target.userId}/group`, body: { group: 'user' }, least: 'superAdmin' },
    ];
    for (const one of calls) {
      expectFailure(await call(app, one.method, one.path, undefined, one.body), 401, 'UNAUTHORIZED');
      for (const group of GROUPS) {
        const answer = await call(app, one.method, one.path, staff[group].token, one.body);
        const allowed = GROUPS.indexOf(group) >= GROUPS.indexOf(one.least);
        if (allowed) expect(answer.res.status, `${one.path} as ${group}`).not.toBe(403);
        else expectFailure(answer, 403, 'FORBIDDEN');
      }
    }
    // Bans: admins over members below them.
    for (const group of GROUPS) {
      const answer = await call(app, 'POST', `/moderation/users/${(await member()).userId}/ban`, staff[group].token, {
        period: '1d',
        reason: '测试',
      });
      expect(answer.res.status, group).toBe(GROUPS.indexOf(group) >= GROUPS.indexOf('admin') ? 200 : 403);
    }
  });

  it('gathers open reports per item, hides from the queue and closes them once (409 REPORT_CLOSED after)', async () => {
    const author = await member();
    const [a, b] = [await member(), await member()];
    const item = await publishPost(author, '违规帖子');
    await report(a, 'post', item.id, 'spam', '广告');
    await report(b, 'post', item.id, 'abuse');
    const queue = data(
      (await call<ReportQueue<ReportedItem>>(app, 'GET', '/moderation/reports', staff.editor.token)).body,
    );
    const entry = queue.items.find((one) => one.targetType === 'post' && one.targetId === item.id);
    expect(entry).toMatchObject({
      title: '违规帖子',
      status: 'published',
      count: 2,
      notes: [{ text: '广告', reporter: a.name }],
    });
    expect(entry?.reasons.map((r) => r.reason).sort()).toEqual(['abuse', 'spam']);
    expect(entry?.author?.userId).toBe(author.userId);

    const before = await counts(author.id);
    const resolved = await call<{ closed: number }>(
      app,
      'POST',
      `/moderation/reports/post/${item.id}/resolve`,
      staff.editor.token,
      {
        action: 'hide',
        reason: '广告',
      },
    );
    expect(data(resolved.body)).toEqual({ closed: 2 });
    expect(await counts(author.id)).toEqual({
      user: before.user - 1,
      section: before.section - 1,
      topic: before.topic - 1,
    });
    expectFailure(
      await call(app, 'POST', `/moderation/reports/post/${item.id}/resolve`, staff.editor.token, { action: 'none' }),
      409,
      'REPORT_CLOSED',
    );
    expectFailure(
      await call(app, 'POST', `/moderation/reports/post/${item.id}/dismiss`, staff.editor.token, {}),
      409,
      'REPORT_CLOSED',
    );
    const rows = await app.ctx.db
      .selectFrom('report')
      .select(['status', 'resolved_by'])
      .where('target_id', '=', item.id)
      .execute();
    expect(rows.every((row) => row.status === 'resolved' && row.resolved_by === staff.editor.id)).toBe(true);
    const after = data(
      (await call<ReportQueue<ReportedItem>>(app, 'GET', '/moderation/reports', staff.editor.token)).body,
    );
    expect(after.items.some((one) => one.targetId === item.id && one.targetType === 'post')).toBe(false);
    expect(await auditRows('report.resolve', item.id)).toHaveLength(1);
    expect(await auditRows('content.hide', item.id)).toHaveLength(1);

    // Two closes at once: exactly one succeeds.
    const other = await publishPost(author, '另一个帖子');
    await report(a, 'post', other.id);
    const race = await Promise.all(
      [0, 1].map(() => call(app, 'POST', `/moderation/reports/post/${other.id}/dismiss`, staff.editor.token, {})),
    );
    expect(race.map((one) => one.res.status).sort()).toEqual([200, 409]);
    expect(await auditRows('report.dismiss', other.id)).toHaveLength(1);
  });

  it('hides a post from lists, its page and the page cache, and restores it as it was with exact counts', async () => {
    const author = await member();
    const item = await publishPost(author, '要隐藏的帖子');
    const before = await counts(author.id);
    expect(await feedIds()).toContain(item.id);
    const seen: string[] = [];
    const stop = app.ctx.bus.subscribe('pages.changed', (event: PagesChanged) => {
      seen.push(...event.tags);
    });
    try {
      const hidden = await call<ContentState>(
        app,
        'POST',
        `/moderation/content/post/${item.id}/hide`,
        staff.editor.token,
        {
          reason: '违规',
        },
      );
      expect(data(hidden.body)).toEqual({ targetType: 'post', targetId: item.id, status: 'hidden' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual(expect.arrayContaining([`post:${item.id}`, 'community', `section:${section}`]));
      expect(await feedIds()).not.toContain(item.id);
      expectFailure(await call(app, 'GET', `/community/posts/${item.id}`), 404, 'NOT_FOUND');
      expect(await counts(author.id)).toEqual({
        user: before.user - 1,
        section: before.section - 1,
        topic: before.topic - 1,
      });
      // Hiding twice, or restoring what is not hidden, is a conflict that changes nothing.
      expectFailure(
        await call(app, 'POST', `/moderation/content/post/${item.id}/hide`, staff.editor.token, {}),
        409,
        'CONFLICT',
      );

      seen.length = 0;
      const restored = await call<ContentState>(
        app,
        'POST',
        `/moderation/content/post/${item.id}/restore`,
        staff.admin.token,
        {},
      );
      expect(data(restored.body).status).toBe('published');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual(expect.arrayContaining([`post:${item.id}`, 'community']));
      expect(await feedIds()).toContain(item.id);
      expect(
        data((await call<PostDetail>(app, 'GET', `/community/posts/${item.id}`)).body).topics.map((t) => t.name),
      ).toEqual(['管理测试']);
      expect(await counts(author.id)).toEqual(before);
      expectFailure(
        await call(app, 'POST', `/moderation/content/post/${item.id}/restore`, staff.editor.token, {}),
        409,
        'CONFLICT',
      );
      expect(await auditRows('content.restore', item.id)).toHaveLength(1);
    } finally {
      stop();
    }
  });

  /** The member's moderation notifications, newest first, once the notification jobs have run. */
  const moderationNotices = async (who: Member): Promise<NotificationView[]> => {
    await jobsSettled(app, { name: 'notifications.%', like: true, seconds: 15, what: 'notification jobs' });
    const page = data((await call<NotificationPage>(app, 'GET', '/v2/user/notifications?limit=50', who.token)).body);
    return page.items.filter((item) => item.kind === 'moderation');
  };

  it('shows a hidden post or article to its author and the editors only, marked hidden and not editable', async () => {
    const author = await member();
    const other = await member('creator');
    const item = await publishPost(author, '作者仍能看到');
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const article = data(
      (
        await call<ArticleDetail>(app, 'POST', '/community/articles', author.token, {
          title: '被隐藏的文章',
          slug: null,
          cover: '',
          summary: '',
          body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '正文' }] }] },
          sectionId: section,
          topics: [],
          works: [],
          isReview: false,
          reviewWork: null,
          publish: true,
        })
      ).body,
    );
    for (const [type, id] of [
      ['post', item.id],
      ['article', article.id],
    ] as const) {
      const hide = await call(app, 'POST', `/moderation/content/${type}/${id}/hide`, staff.editor.token, {
        reason: '违规',
      });
      expect(hide.res.status, JSON.stringify(hide.body)).toBe(200);
    }

    const path = `/community/posts/${item.id}`;
    // Visitors, other members and the author's peers get nothing, as if it did not exist.
    expectFailure(await call(app, 'GET', path), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', path, other.token), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', `/community/articles/${article.id}`, other.token), 404, 'NOT_FOUND');
    // The author sees it, hidden, with no edit right; editors and above see it too.
    const own = data((await call<PostDetail>(app, 'GET', path, author.token)).body);
    expect(own).toMatchObject({ id: item.id, status: 'hidden', title: '作者仍能看到' });
    expect(own.viewer.canEdit).toBe(false);
    const ownArticle = data(
      (await call<ArticleDetail>(app, 'GET', `/community/articles/${article.id}`, author.token)).body,
    );
    expect(ownArticle.status).toBe('hidden');
    for (const group of ['editor', 'admin', 'superAdmin'] as const)
      expect(data((await call<PostDetail>(app, 'GET', path, staff[group].token)).body).status).toBe('hidden');

    // The author's own list shows it marked hidden; the public list of their content does not.
    const mine = data(
      (await call<CommunityPage<ContentListItem>>(app, 'GET', '/user/published?limit=50', author.token)).body,
    );
    expect(mine.items.map((row) => [row.type, row.id, row.status])).toEqual(
      expect.arrayContaining([
        ['post', item.id, 'hidden'],
        ['article', article.id, 'hidden'],
      ]),
    );
    const shown = data(
      (await call<CommunityPage<ContentListItem>>(app, 'GET', `/user/content?userId=${author.userId}`)).body,
    );
    expect(shown.items).toEqual([]);
    expect(await feedIds(author.token)).not.toContain(item.id);

    // A save would publish it again: refused, and nothing changes.
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const save = await call(app, 'PUT', path, author.token, {
      title: '改一下',
      content: '正文',
      images: [],
      sectionId: section,
      topics: [],
      works: [],
      publish: true,
      version: own.version,
    });
    expectFailure(save, 409, 'CONFLICT');
    const after = await app.ctx.db
      .selectFrom('post')
      .select(['status', 'title', 'version'])
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: 'hidden', title: '作者仍能看到', version: own.version });
    // Members cannot like, favourite, comment on or report what they cannot see.
    await app.ctx.db.deleteFrom('rate_limit').execute();
    expectFailure(
      await call(app, 'POST', '/comments', other.token, { targetType: 'post', targetId: item.id, content: '看不到' }),
      404,
      'NOT_FOUND',
    );

    // The author may still delete it; its counts left when it was hidden and do not leave twice.
    const before = await counts(author.id);
    expect((await call(app, 'DELETE', path, author.token)).res.status).toBe(200);
    expect(await counts(author.id)).toEqual(before);
    expectFailure(await call(app, 'GET', path, author.token), 404, 'NOT_FOUND');
  });

  it('tells the author when moderators hide or restore their post or comment, but not of their own', async () => {
    const author = await member();
    const item = await publishPost(author, '通知测试帖');
    const said = await comment(author, item.id, '一条会被隐藏的评论');
    for (const [action, type, id] of [
      ['hide', 'post', item.id],
      ['restore', 'post', item.id],
      ['hide', 'comment', said.id],
      ['restore', 'comment', said.id],
    ] as const) {
      const answer = await call(app, 'POST', `/moderation/content/${type}/${id}/${action}`, staff.editor.token, {});
      expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
    }
    const notices = await moderationNotices(author);
    expect(notices.map((notice) => [notice.action, notice.target?.type, notice.target?.id])).toEqual([
      ['restore', 'comment', said.id],
      ['hide', 'comment', said.id],
      ['restore', 'post', item.id],
      ['hide', 'post', item.id],
    ]);
    expect(notices.find((notice) => notice.target?.type === 'post')?.url).toBe(`/community/post/${item.id}`);
    expect(notices.every((notice) => notice.excerpt !== '')).toBe(true);

    // A hidden item's notice still leads its author to it (the page marks it hidden).
    await call(app, 'POST', `/moderation/content/post/${item.id}/hide`, staff.admin.token, { reason: '再次隐藏' });
    const latest = (await moderationNotices(author))[0]!;
    expect([latest.action, latest.url]).toEqual(['hide', `/community/post/${item.id}`]);

    // Staff moderating their own post hear nothing of it.
    const own = await publishPost(staff.editor, '自己的帖子');
    const already = (await moderationNotices(staff.editor)).length;
    await call(app, 'POST', `/moderation/content/post/${own.id}/hide`, staff.editor.token, {});
    await call(app, 'POST', `/moderation/content/post/${own.id}/restore`, staff.editor.token, {});
    expect(await moderationNotices(staff.editor)).toHaveLength(already);
  });

  it('shows a hidden comment in its thread to its author and the editors only, marked hidden', async () => {
    const author = await member();
    const reader = await member('creator');
    const item = await publishPost(author, '隐藏评论的帖子');
    const root = await comment(reader, item.id, '一楼');
    const hiddenReply = await comment(author, item.id, '会被隐藏的回复', root.id);
    const hiddenRoot = await comment(author, item.id, '会被隐藏的一楼');
    for (const id of [hiddenReply.id, hiddenRoot.id])
      expect(
        (await call(app, 'POST', `/moderation/content/comment/${id}/hide`, staff.editor.token, {})).res.status,
      ).toBe(200);
    const thread = async (token?: string) => {
      const page = data(
        (await call<CommentPage>(app, 'GET', `/comments?targetType=post&targetId=${item.id}&sort=new`, token)).body,
      );
      const replies = data((await call<CommentReplyPage>(app, 'GET', `/comments/${root.id}/replies`, token)).body);
      return {
        roots: page.items.map((row) => [row.id, row.hidden]),
        firstReplies: page.items.flatMap((row) => row.replies.map((reply) => [reply.id, reply.hidden])),
        replies: replies.items.map((reply) => [reply.id, reply.hidden]),
        total: page.pagination.total,
      };
    };
    const without = { roots: [[root.id, false]], firstReplies: [], replies: [], total: 1 };
    expect(await thread()).toEqual(without);
    expect(await thread(reader.token)).toEqual(without);
    const withHidden = {
      roots: [
        [hiddenRoot.id, true],
        [root.id, false],
      ],
      firstReplies: [[hiddenReply.id, true]],
      replies: [[hiddenReply.id, true]],
      total: 2,
    };
    expect(await thread(author.token)).toEqual(withHidden);
    expect(await thread(staff.editor.token)).toEqual(withHidden);
    // Its author reads it, but nothing can be done with it until it is restored.
    const mine = data(
      (await call<CommentPage>(app, 'GET', `/comments?targetType=post&targetId=${item.id}&sort=new`, author.token))
        .body,
    ).items[0]!;
    expect(mine).toMatchObject({
      content: '会被隐藏的一楼',
      hidden: true,
      viewer: { canDelete: false, canPin: false },
    });
    expectFailure(await call(app, 'GET', `/comments/${hiddenRoot.id}/replies`, reader.token), 404, 'NOT_FOUND');
    expectFailure(
      await call(app, 'POST', '/likes', reader.token, { targetType: 'comment', targetId: hiddenRoot.id }),
      404,
      'NOT_FOUND',
    );
    // The counts a visitor sees stay those of the visible comments.
    const stored = await app.ctx.db
      .selectFrom('post')
      .select('comment_count')
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(stored.comment_count).toBe(1);
    // The author's notice of the hide links to the comment, where they still see it marked.
    const notices = await moderationNotices(author);
    expect(notices.find((n) => n.target?.id === hiddenRoot.id)?.url).toBe(
      `/community/post/${item.id}#comment-${hiddenRoot.id}`,
    );
  });

  it('hides and restores comments with exact comment and reply counts, and deletes hidden content', async () => {
    const author = await member();
    const item = await publishPost(author, '评论区');
    const root = await comment(author, item.id, '楼主');
    const reply = await comment(author, item.id, '回复', root.id);
    const lone = await comment(author, item.id, '单独一楼');
    const postCount = async () =>
      (await app.ctx.db.selectFrom('post').select('comment_count').where('id', '=', item.id).executeTakeFirstOrThrow())
        .comment_count;
    const replyCount = async () =>
      (await app.ctx.db.selectFrom('comment').select('reply_count').where('id', '=', root.id).executeTakeFirstOrThrow())
        .reply_count;
    expect([await postCount(), await replyCount()]).toEqual([3, 1]);

    // A root with visible replies would stay in its thread as a placeholder: refused.
    expectFailure(
      await call(app, 'POST', `/moderation/content/comment/${root.id}/hide`, staff.editor.token, {}),
      409,
      'CONFLICT',
    );
    await call(app, 'POST', `/moderation/content/comment/${reply.id}/hide`, staff.editor.token, {});
    expect([await postCount(), await replyCount()]).toEqual([2, 0]);
    const listed = async () =>
      JSON.stringify(data((await call(app, 'GET', `/comments?targetType=post&targetId=${item.id}`)).body));
    expect(await listed()).not.toContain('回复');
    await call(app, 'POST', `/moderation/content/comment/${reply.id}/restore`, staff.editor.token, {});
    expect([await postCount(), await replyCount()]).toEqual([3, 1]);
    expect(await listed()).toContain('回复');

    await call(app, 'POST', `/moderation/content/comment/${lone.id}/hide`, staff.editor.token, {});
    const removed = await call<ContentState>(
      app,
      'POST',
      `/moderation/content/comment/${lone.id}/delete`,
      staff.editor.token,
      {},
    );
    expect(data(removed.body).status).toBe('deleted');
    expect(await postCount()).toBe(2);
    expectFailure(
      await call(app, 'POST', `/moderation/content/comment/${lone.id}/delete`, staff.editor.token, {}),
      404,
      'NOT_FOUND',
    );

    // A hidden post deleted: its counts left when it was hidden, and do not leave twice.
    const before = await counts(author.id);
    await call(app, 'POST', `/moderation/content/post/${item.id}/hide`, staff.editor.token, {});
    await call(app, 'POST', `/moderation/content/post/${item.id}/delete`, staff.editor.token, { reason: '删除' });
    expect(await counts(author.id)).toEqual({
      user: before.user - 1,
      section: before.section - 1,
      topic: before.topic - 1,
    });
    expectFailure(
      await call(app, 'POST', `/moderation/content/post/${item.id}/restore`, staff.editor.token, {}),
      404,
      'NOT_FOUND',
    );
    const notice = await app.ctx.db
      .selectFrom('job')
      .select('payload')
      .where('name', '=', 'notifications.event')
      .where('payload', 'like', `%"targetId":${item.id}%`)
      .execute();
    expect(notice.some((job) => job.payload.includes('"action":"delete"'))).toBe(true);
    expect(await auditRows('content.delete', item.id)).toHaveLength(1);
  });

  it('lists reported download links and removes a link when resolved', async () => {
    const game = await nextId(app.ctx.db, 'galgame_id');
    const at = new Date().toISOString();
    await app.ctx.db
      .insertInto('galgame')
      .values({
        id: game,
        title: 'Linked',
        title_zh: '有链接的游戏',
        status: 'published',
        created_at: at,
        updated_at: at,
      })
      .execute();
    const download = await nextId(app.ctx.db, 'download_id');
    await app.ctx.db
      .insertInto('galgame_download')
      .values({
        id: download,
        galgame_id: game,
        language: 'zh-Hans',
        platform: 'windows',
        translation_type: 'official',
        created_at: at,
      })
      .execute();
    const link = await nextId(app.ctx.db, 'download_link_id');
    await app.ctx.db
      .insertInto('download_link')
      .values({ id: link, download_id: download, url: 'https://example.test/x', created_at: at })
      .execute();
    await reportLink(app.ctx.db, link, (await member()).id, '失效了');
    await reportLink(app.ctx.db, link, (await member()).id, '');

    const queue = data(
      (await call<ReportQueue<ReportedLink>>(app, 'GET', '/moderation/reports?kind=links', staff.editor.token)).body,
    );
    expect(queue.items.find((one) => one.targetId === link)).toMatchObject({
      galgameId: game,
      galgameName: '有链接的游戏',
      count: 2,
      notes: ['失效了'],
    });
    expectFailure(
      await call(app, 'POST', `/moderation/reports/link/${link}/resolve`, staff.editor.token, { action: 'hide' }),
      400,
      'VALIDATION_FAILED',
    );
    const done = await call(app, 'POST', `/moderation/reports/link/${link}/resolve`, staff.editor.token, {
      action: 'removeLink',
    });
    expect(data(done.body)).toEqual({ closed: 2 });
    expect(
      await app.ctx.db.selectFrom('download_link').select('id').where('id', '=', link).executeTakeFirst(),
    ).toBeUndefined();
    expectFailure(
      await call(app, 'POST', `/moderation/reports/link/${link}/dismiss`, staff.editor.token, {}),
      404,
      'NOT_FOUND',
    );
  });

  it('ends a banned member’s sessions at once: refresh refused, access refused, chat socket closed', async () => {
    const target = await member();
    const http = createHttpServer(app.ctx, {
      clientDir: app.ctx.config.dataDir,
      astro: async (_req, res) => void res.end(),
    });
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (http.server.address() as AddressInfo).port;
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${encodeURIComponent(target.token)}`);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

      const banned = await call<MemberView>(app, 'POST', `/moderation/users/${target.userId}/ban`, staff.admin.token, {
        period: 'forever',
        reason: '骚扰他人',
      });
      expect(data(banned.body)).toMatchObject({
        status: 'banned',
        banReason: '骚扰他人',
        bannedUntil: null,
        canBan: true,
      });
      await closed;
      expectFailure(await call(app, 'GET', '/user/sessions', target.token), 403, 'ACCOUNT_BANNED');
      const refreshed = await post(app, '/user/refresh-token', { token: target.refresh });
      expect([401, 403]).toContain(refreshed.res.status);
      const families = await app.ctx.db
        .selectFrom('refresh_family')
        .select('revoked_at')
        .where('user_id', '=', target.id)
        .execute();
      expect(families.every((family) => family.revoked_at !== null)).toBe(true);
      const rows = await auditRows('user.ban', target.id);
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.detail)).toMatchObject({ reason: '骚扰他人', period: 'forever', until: null });

      const lifted = await call<MemberView>(
        app,
        'POST',
        `/moderation/users/${target.userId}/unban`,
        staff.admin.token,
        {},
      );
      expect(data(lifted.body)).toMatchObject({ status: 'active', banReason: '' });
      expectFailure(
        await call(app, 'POST', `/moderation/users/${target.userId}/unban`, staff.admin.token, {}),
        409,
        'CONFLICT',
      );
      expect(await auditRows('user.unban', target.id)).toHaveLength(1);
    } finally {
      await http.shutdown(1000);
    }
  });

  it('lets a time ban end by itself, and never bans oneself or an equal or higher group', async () => {
    const target = await member();
    const start = new Date();
    const answer = await call<MemberView>(app, 'POST', `/moderation/users/${target.userId}/ban`, staff.admin.token, {
      period: '7d',
      reason: '刷屏',
    });
    const until = data(answer.body).bannedUntil;
    expect(new Date(until!).getTime() - start.getTime()).toBeGreaterThanOrEqual(7 * 86_400_000 - 5000);
    const statusOf = async () =>
      (await app.ctx.db.selectFrom('users').select('status').where('id', '=', target.id).executeTakeFirstOrThrow())
        .status;
    // Other tests' shorter bans end first; this one only after its seven days.
    await liftEndedBans(app.ctx.db, new Date(start.getTime() + 6 * 86_400_000));
    expect(await statusOf()).toBe('banned');
    expect(await liftEndedBans(app.ctx.db, new Date(start.getTime() + 8 * 86_400_000))).toBeGreaterThanOrEqual(1);
    const row = await app.ctx.db
      .selectFrom('users')
      .select(['status', 'banned_until'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'active', banned_until: null });
    const expired = await auditRows('user.unban', target.id);
    expect(expired[0]?.actor_id).toBeNull();

    // A custom end: in the future, within the limit.
    const custom = (until: string) =>
      call<MemberView>(app, 'POST', `/moderation/users/${target.userId}/ban`, staff.admin.token, {
        period: 'custom',
        until,
        reason: 'x',
      });
    expectFailure(await custom(new Date(Date.now() - 1000).toISOString()), 400, 'VALIDATION_FAILED');
    expectFailure(await custom('tomorrow'), 400, 'VALIDATION_FAILED');
    expectFailure(
      await call(app, 'POST', `/moderation/users/${target.userId}/ban`, staff.admin.token, {
        period: 'custom',
        reason: 'x',
      }),
      400,
      'VALIDATION_FAILED',
    );
    const customEnd = new Date(Date.now() + 3 * 3_600_000).toISOString();
    expect(data((await custom(customEnd)).body).bannedUntil).toBe(customEnd);

    // Ranks: nobody bans themselves or someone of an equal or higher group.
    const otherAdmin = await member('admin');
    expectFailure(
      await call(app, 'POST', `/moderation/users/${staff.admin.userId}/ban`, staff.admin.token, {
        period: '1d',
        reason: 'x',
      }),
      403,
      'FORBIDDEN',
    );
    expectFailure(
      await call(app, 'POST', `/moderation/users/${otherAdmin.userId}/ban`, staff.admin.token, {
        period: '1d',
        reason: 'x',
      }),
      403,
      'FORBIDDEN',
    );
    expectFailure(
      await call(app, 'POST', `/moderation/users/${staff.superAdmin.userId}/ban`, staff.admin.token, {
        period: '1d',
        reason: 'x',
      }),
      403,
      'FORBIDDEN',
    );
    expect(
      (
        await call(app, 'POST', `/moderation/users/${otherAdmin.userId}/ban`, staff.superAdmin.token, {
          period: '1d',
          reason: 'x',
        })
      ).res.status,
    ).toBe(200);
  });

  it('changes a member’s group for the superAdmin only; the next token refresh carries it', async () => {
    const target = await member('user');
    const changed = await call<MemberView>(
      app,
      'PUT',
      `/moderation/users/${target.userId}/group`,
      staff.superAdmin.token,
      {
        group: 'editor',
      },
    );
    expect(data(changed.body).group).toBe('editor');
    // The login goes on; the refreshed access token names the new group.
    const refreshed = await post<RefreshData>(app, '/user/refresh-token', { token: target.refresh });
    const access = await verifyAccessToken(
      app.ctx.config.jwtSecret,
      data(refreshed.body).hikariAccessToken,
      Date.now(),
    );
    expect(access.hikariUserGroup).toBe('editor');
    expect((await call(app, 'GET', '/moderation/reports', data(refreshed.body).hikariAccessToken)).res.status).toBe(
      200,
    );
    const rows = await auditRows('user.role', target.id);
    expect(JSON.parse(rows[0]!.detail)).toMatchObject({ from: 'user', to: 'editor' });

    expectFailure(
      await call(app, 'PUT', `/moderation/users/${target.userId}/group`, staff.superAdmin.token, {
        group: 'superAdmin',
      }),
      400,
      'VALIDATION_FAILED',
    );
    const another = await member('superAdmin');
    expectFailure(
      await call(app, 'PUT', `/moderation/users/${another.userId}/group`, staff.superAdmin.token, { group: 'user' }),
      403,
      'ROLE_NOT_ALLOWED',
    );
    expectFailure(
      await call(app, 'PUT', `/moderation/users/${staff.superAdmin.userId}/group`, staff.superAdmin.token, {
        group: 'admin',
      }),
      403,
      'ROLE_NOT_ALLOWED',
    );
  });

  it('finds members by id or name and reads the audit log with filters, for admins', async () => {
    const target = await member();
    const found = data(
      (await call<{ items: MemberView[] }>(app, 'GET', `/moderation/users?q=${target.name}`, staff.admin.token)).body,
    );
    expect(found.items[0]).toMatchObject({
      userId: target.userId,
      name: target.name,
      group: 'user',
      canBan: true,
      canSetGroup: false,
    });
    const byId = data(
      (await call<{ items: MemberView[] }>(app, 'GET', `/moderation/users?q=${target.userId}`, staff.superAdmin.token))
        .body,
    );
    expect(byId.items[0]).toMatchObject({ userId: target.userId, canSetGroup: true });
    expect(
      data((await call<{ items: MemberView[] }>(app, 'GET', '/moderation/users?q=%25_', staff.admin.token)).body).items,
    ).toEqual([]);

    await call(app, 'POST', `/moderation/users/${target.userId}/ban`, staff.admin.token, {
      period: '1d',
      reason: '日志',
    });
    const log = data(
      (
        await call<AuditPage>(
          app,
          'GET',
          `/moderation/audit?action=user.ban&targetId=${target.userId}`,
          staff.admin.token,
        )
      ).body,
    );
    expect(log.items).toHaveLength(1);
    expect(log.items[0]).toMatchObject({
      action: 'user.ban',
      actor: { userId: staff.admin.userId },
      targetUser: { userId: target.userId },
      detail: { reason: '日志', period: '1d' },
    });
    const mine = data(
      (await call<AuditPage>(app, 'GET', `/moderation/audit?actor=${staff.admin.userId}&limit=2`, staff.admin.token))
        .body,
    );
    expect(mine.items.length).toBeLessThanOrEqual(2);
    expect(mine.pagination.total).toBeGreaterThanOrEqual(mine.items.length);
    expect(mine.items.every((entry) => entry.actor?.userId === staff.admin.userId)).toBe(true);
  });

  it('refuses hostile input with a clear 4xx and writes nothing', async () => {
    const target = await member();
    const bad: [string, string, unknown][] = [
      ['POST', `/moderation/users/${target.userId}/ban`, { period: '1d', reason: '' }],
      ['POST', `/moderation/users/${target.userId}/ban`, { period: '1d', reason: 'a\u0000b' }],
      ['POST', `/moderation/users/${target.userId}/ban`, { period: '1d', reason: 'x'.repeat(501) }],
      ['POST', `/moderation/users/${target.userId}/ban`, { period: 'year', reason: 'x' }],
      ['POST', `/moderation/users/${target.userId}/ban`, { period: '1d', reason: 'x', extra: true }],
      ['POST', `/moderation/users/${target.userId}/ban`, ['1d']],
      ['POST', '/moderation/users/0/ban', { period: '1d', reason: 'x' }],
      ['POST', '/moderation/users/abc/ban', { period: '1d', reason: 'x' }],
      ['PUT', `/moderation/users/${target.userId}/group`, { group: 7 }],
      ['POST', '/moderation/content/user/1/hide', {}],
      ['POST', '/moderation/content/post/1e3/hide', {}],
      ['POST', '/moderation/content/post/99999999999/hide', {}],
      ['POST', '/moderation/reports/post/1/resolve', { action: 'ban' }],
      ['GET', '/moderation/reports?limit=1000', undefined],
      ['GET', '/moderation/audit?action=drop', undefined],
      ['GET', '/moderation/users?q=', undefined],
    ];
    for (const [method, path, body] of bad) {
      const answer: Answer = await call(app, method, path, staff.superAdmin.token, body);
      expect(answer.res.status, `${method} ${path}`).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
    }
    expectFailure(
      await call(app, 'POST', '/moderation/users/2147483000/ban', staff.admin.token, { period: '1d', reason: 'x' }),
      404,
      'NOT_FOUND',
    );
    const huge = await app.request('/api/moderation/users/1/ban', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${staff.admin.token}` },
      body: JSON.stringify({ period: '1d', reason: 'x'.repeat(2_000_000) }),
    });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    const row = await app.ctx.db
      .selectFrom('users')
      .select('status')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    expect(await auditRows('user.ban', target.id)).toHaveLength(0);
  });
});
