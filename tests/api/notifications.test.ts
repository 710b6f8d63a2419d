import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { CommentView } from '../../src/shared/comments/comments.ts';
import type { PostDetail } from '../../src/shared/community/community.ts';
import type { NotificationPage, UnreadSummary } from '../../src/shared/notifications/notifications.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { queueDigests, sendDigest } from '../../src/server/modules/notifications/notifications.digest.ts';
import {
  deliverAnnouncements,
  handleNotificationEvent,
  markRead,
} from '../../src/server/modules/notifications/notifications.service.ts';
import { notifyLater, queueOnly } from '../../src/server/modules/notifications/notifications.queue.ts';
import { dialectOf } from '../../src/server/db/database.ts';
import { claimJobs } from '../../src/server/platform/jobs/job.repository.ts';
import { createUser, updateUserSetting } from '../../src/server/modules/users/users.service.ts';
import { removeUser } from '../../src/server/modules/users/users.removal.ts';
import { call, data, expectFailure, type Account } from '../support/accounts.ts';
import { createTestApp, insertSection, jobsSettled, type TestApp } from '../support/test-app.ts';

// Notifications (decision 021): written once per event through the job queue, grouped likes and
// follows, the owner's list, count and read marks only, the 500-likes fan-out in a fixed number of
// queries, announcements and e-mail digests.
describe('notifications API', () => {
  let app: TestApp;
  let count = 0;
  let sectionId: number;
  const past = new Date(Date.now() - 3_600_000);

  async function account(group: UserGroup = 'user'): Promise<Account> {
    count += 1;
    const name = `nt_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x', group }, past);
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group });
    return { id: user.id, userId: user.user_id, name: user.name, token };
  }

  /** Waits until the notification jobs written so far have run. */
  const settled = () =>
    jobsSettled(app, {
      name: ['notifications.%', 'auth.mail'],
      like: true,
      seconds: 15,
      what: 'notification and mail jobs',
    });

  const unread = async (who: Account) =>
    data((await call<UnreadSummary>(app, 'GET', '/v2/user/unread', who.token)).body).unreadCount;
  const list = async (who: Account, query = '') => {
    await settled();
    return data((await call<NotificationPage>(app, 'GET', `/v2/user/notifications${query}`, who.token)).body);
  };
  const read = (who: Account, id: string) =>
    call<UnreadSummary>(app, 'POST', `/v2/user/notifications/${id}/read`, who.token, {});
  const readAll = (who: Account) => call<UnreadSummary>(app, 'POST', '/v2/user/notifications/read-all', who.token, {});

  async function publish(who: Account, title = '夏日的回响'): Promise<PostDetail> {
    const answer = await call<PostDetail>(app, 'POST', '/community/posts', who.token, {
      title,
      content: '大家怎么看？',
      images: [],
      sectionId,
      topics: [],
      works: [],
      publish: true,
    });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }

  async function comment(who: Account, postId: number, content: string, parentId?: number): Promise<CommentView> {
    await app.ctx.db.deleteFrom('rate_limit').where('key', 'like', 'comment:%').execute();
    const answer = await call<CommentView>(app, 'POST', '/comments', who.token, {
      targetType: 'post',
      targetId: postId,
      content,
      ...(parentId ? { parentId } : {}),
    });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(201);
    return data(answer.body);
  }

  const like = (who: Account, targetType: string, targetId: number) =>
    call(app, 'POST', '/likes', who.token, { targetType, targetId });
  const unlike = (who: Account, targetType: string, targetId: number) =>
    call(app, 'DELETE', `/likes/${targetType}/${targetId}`, who.token);

  beforeAll(async () => {
    app = await createTestApp();
    sectionId = 4242;
    await insertSection(app, sectionId, '通知测试');
  });
  afterAll(async () => app.close());

  it('tells a post’s author of a comment and a comment’s author of a reply, never anyone of their own', async () => {
    const [author, reader, third] = [await account(), await account(), await account()];
    const post = await publish(author);
    const root = await comment(reader, post.id, '写得真好');
    await comment(author, post.id, '自己的评论不通知自己');
    const reply = await comment(third, post.id, '同意楼上', root.id);

    const mine = await list(author);
    expect(mine.items.map((n) => [n.kind, n.commentId])).toEqual([
      ['comment', reply.id],
      ['comment', root.id],
    ]);
    expect(mine.items[1]).toMatchObject({
      actors: [{ userId: reader.userId, name: reader.name }],
      actorCount: 1,
      target: { type: 'post', id: post.id, title: '夏日的回响' },
      excerpt: '写得真好',
      url: `/community/post/${post.id}#comment-${root.id}`,
      isRead: false,
    });
    expect(mine.unreadCount).toBe(2);
    expect(await unread(author)).toBe(2);

    const theirs = await list(reader);
    expect(theirs.items).toHaveLength(1);
    expect(theirs.items[0]).toMatchObject({ kind: 'reply', commentId: reply.id, excerpt: '同意楼上' });
    expect(theirs.items[0]!.url).toBe(`/community/post/${post.id}#comment-${reply.id}`);
    expect((await list(third)).items).toEqual([]);
  });

  it('groups likes while unread, counts again when one is taken back, and opens a new group after reading', async () => {
    const author = await account();
    const post = await publish(author, '点赞分组');
    const fans = [await account(), await account(), await account(), await account()];
    for (const fan of fans) expect((await like(fan, 'post', post.id)).res.status).toBe(200);
    await like(author, 'post', post.id);

    let page = await list(author);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ kind: 'like', actorCount: 4, target: { type: 'post', id: post.id } });
    expect(page.items[0]!.actors.map((a) => a.userId)).toHaveLength(3);
    expect(page.items[0]!.actors.map((a) => a.userId)).not.toContain(author.userId);

    await unlike(fans[3]!, 'post', post.id);
    page = await list(author);
    expect(page.items[0]!.actorCount).toBe(3);
    expect(page.items[0]!.actors.map((a) => a.userId)).not.toContain(fans[3]!.userId);

    for (const fan of fans.slice(0, 3)) await unlike(fan, 'post', post.id);
    expect((await list(author)).items).toEqual([]);
    expect(await unread(author)).toBe(0);

    await like(fans[0]!, 'post', post.id);
    page = await list(author);
    expect(data((await read(author, page.items[0]!._id)).body)).toEqual({ unreadCount: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await like(fans[1]!, 'post', post.id);
    page = await list(author);
    expect(page.items.map((n) => [n.actorCount, n.isRead])).toEqual([
      [1, false],
      [1, true],
    ]);
    expect(page.items[0]!.actors[0]!.userId).toBe(fans[1]!.userId);
  });

  it('groups new followers and drops one who unfollowed', async () => {
    const star = await account();
    const [a, b] = [await account(), await account()];
    await call(app, 'POST', '/user/follow', a.token, { userId: star.userId });
    await call(app, 'POST', '/user/follow', b.token, { userId: star.userId });
    let page = await list(star);
    expect(page.items.map((n) => [n.kind, n.actorCount])).toEqual([['follow', 2]]);
    expect(page.items[0]!.actors[0]!.userId).toBe(b.userId);
    await call(app, 'POST', '/user/follow', b.token, { userId: star.userId });
    page = await list(star);
    expect(page.items.map((n) => [n.kind, n.actorCount])).toEqual([['follow', 1]]);
    expect(page.items[0]!.actors.map((x) => x.userId)).toEqual([a.userId]);
  });

  it('tells authors of moderators’ pins, features and deletes, not of their own deletes', async () => {
    const [author, editor] = [await account(), await account('editor')];
    const post = await publish(author, '被置顶的帖子');
    const mod = (body: unknown) => call(app, 'PUT', `/community/posts/${post.id}/moderation`, editor.token, body);
    const answer = await mod({ pinned: true, featured: true });
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
    await mod({ pinned: true });
    const gone = await publish(author, '被删除的帖子');
    await call(app, 'DELETE', `/community/posts/${gone.id}`, editor.token);
    const own = await publish(author, '自己删的');
    await call(app, 'DELETE', `/community/posts/${own.id}`, author.token);

    const page = await list(author);
    const moderation = page.items.filter((n) => n.kind === 'moderation');
    expect(moderation.map((n) => n.action).sort()).toEqual(['delete', 'feature', 'pin']);
    const deleted = moderation.find((n) => n.action === 'delete')!;
    expect(deleted).toMatchObject({ excerpt: '被删除的帖子', url: null });
    expect(moderation.find((n) => n.action === 'pin')!.url).toBe(`/community/post/${post.id}`);
  });

  it('lets only the owner see, count and mark their notifications', async () => {
    const [owner, other] = [await account(), await account()];
    const post = await publish(owner);
    await comment(other, post.id, '路过');
    const page = await list(owner);
    const id = page.items[0]!._id;

    expectFailure(await call(app, 'GET', '/v2/user/unread'), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'GET', '/v2/user/notifications'), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'POST', `/v2/user/notifications/${id}/read`), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'POST', '/v2/user/notifications/read-all'), 401, 'UNAUTHORIZED');
    expectFailure(await read(other, id), 404, 'NOT_FOUND');
    expect((await list(other)).items.map((n) => n._id)).not.toContain(id);
    await readAll(other);
    expect(await unread(owner)).toBe(1);

    expectFailure(await read(owner, 'not-an-id'), 400, 'VALIDATION_FAILED');
    expectFailure(
      await call(app, 'POST', `/v2/user/notifications/${id}/read`, owner.token, { all: true }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await read(owner, 'f'.repeat(24)), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', '/v2/user/notifications?limit=500', owner.token), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', '/v2/user/notifications?filter=x', owner.token), 400, 'VALIDATION_FAILED');
    expect(await unread(owner)).toBe(1);
  });

  it('marks one read once however many clicks arrive together, and all read at once', async () => {
    const [owner, other] = [await account(), await account()];
    const post = await publish(owner);
    for (const text of ['一', '二', '三']) await comment(other, post.id, text);
    const page = await list(owner);
    expect(page.unreadCount).toBe(3);
    const answers = await Promise.all(Array.from({ length: 5 }, () => read(owner, page.items[0]!._id)));
    for (const answer of answers) expect(answer.res.status).toBe(200);
    expect(await unread(owner)).toBe(2);
    expect((await list(owner, '?filter=unread')).items).toHaveLength(2);
    const all = await Promise.all([readAll(owner), readAll(owner)]);
    for (const answer of all) expect(data(answer.body)).toEqual({ unreadCount: 0 });
    expect(await unread(owner)).toBe(0);
    const after = await list(owner);
    expect(after.items.every((n) => n.isRead)).toBe(true);
    expect(after.pagination).toMatchObject({ page: 1, total: 3 });
  });

  it('pages the list newest first', async () => {
    const [owner, other] = [await account(), await account()];
    const post = await publish(owner);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await comment(other, post.id, `第 ${i} 条`)).id);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await list(owner, '?page=1&limit=2');
    const third = await list(owner, '?page=3&limit=2');
    expect(first.items.map((n) => n.commentId)).toEqual([ids[4], ids[3]]);
    expect(third.items.map((n) => n.commentId)).toEqual([ids[0]]);
    expect(first.pagination).toMatchObject({ total: 5, totalPages: 3 });
  });

  it('groups 500 likes from 500 members in the same few queries as 5', async () => {
    const author = await account();
    const queries = async (likers: number): Promise<number> => {
      const post = await publish(author, `热门 ${likers}`);
      const at = Date.now() - 10_000;
      const members: Account[] = [];
      for (let i = 0; i < likers; i++) members.push(await account());
      for (let i = 0; i < members.length; i += 100)
        await app.ctx.db
          .insertInto('reaction_like')
          .values(
            members.slice(i, i + 100).map((m, j) => ({
              user_id: m.id,
              target_type: 'post' as const,
              target_id: post.id,
              created_at: new Date(at + i + j).toISOString(),
            })),
          )
          .execute();
      let n = 0;
      const counting: KyselyPlugin = {
        transformQuery: (args) => {
          n += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      await handleNotificationEvent(
        { db: app.ctx.db.withPlugin(counting), targets: app.ctx.targets },
        { kind: 'like', targetType: 'post', targetId: post.id },
      );
      const group = (await list(author)).items.find((x) => x.target?.id === post.id)!;
      expect(group.actorCount).toBe(likers);
      expect(group.actors).toHaveLength(3);
      expect(group.actors[0]!.userId).toBe(members[likers - 1]!.userId);
      return n;
    };
    const few = await queries(5);
    const many = await queries(500);
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(8);
  }, 120_000);

  it('hands an announcement to every member who joined before it, once', async () => {
    const [a, b] = [await account(), await account()];
    const now = new Date();
    await app.ctx.db
      .insertInto('announcement')
      .values({
        id: 'notice-1',
        title: '服务器维护通知',
        body: '今晚维护',
        link: '/docs/community/community-regulation',
        published_at: now.toISOString(),
        created_at: now.toISOString(),
      })
      .execute();
    expect(await deliverAnnouncements(app.ctx.db, now)).toBe(1);
    expect(await deliverAnnouncements(app.ctx.db, now)).toBe(0);
    for (const who of [a, b]) {
      const page = await list(who);
      expect(page.items.filter((n) => n.kind === 'announcement')).toEqual([
        expect.objectContaining({ excerpt: '服务器维护通知', url: '/docs/community/community-regulation' }),
      ]);
    }
  });

  it('mails one digest to members who opted in, in their language, and never the same thing twice', async () => {
    const [opted, english, silent, other] = [await account(), await account(), await account(), await account()];
    await updateUserSetting(app.ctx.db, opted.id, { emailNotifications: true });
    await updateUserSetting(app.ctx.db, english.id, { emailNotifications: true, locale: 'en' });
    await updateUserSetting(app.ctx.db, silent.id, { emailNotifications: false });
    for (const who of [opted, english, silent]) {
      const post = await publish(who, `摘要 ${who.userId}`);
      await comment(other, post.id, '给你的评论');
    }
    await readAll(other);
    await settled();
    app.outbox.mails.length = 0;
    const deps = { db: app.ctx.db, targets: app.ctx.targets, jobs: queueOnly, origin: 'https://hikari.test' };
    await sendDigest(deps, silent.id);
    expect(await sendDigest(deps, opted.id)).toBe(true);
    expect(await sendDigest(deps, opted.id)).toBe(false);
    expect(await sendDigest(deps, english.id)).toBe(true);
    // The mail is queued with the marks (sent by the mail job after the commit), never sent inside it.
    expect(app.outbox.mails).toEqual([]);
    const outbox = await app.ctx.db
      .selectFrom('job')
      .select('payload')
      .where('name', '=', 'auth.mail')
      .where('status', '=', 'queued')
      .execute();
    expect(outbox.filter((job) => job.payload.includes(`${opted.name}@example.test`))).toHaveLength(1);
    await settled();
    const mails = app.outbox.mails;
    expect(mails.map((m) => m.to).sort()).toEqual(
      [`${english.name}@example.test`, `${opted.name}@example.test`].sort(),
    );
    const zh = mails.find((m) => m.to.startsWith(opted.name))!;
    expect(zh.subject).toBe('【Hikari】你有 1 条新消息');
    expect(zh.text).toContain(`${other.name} 评论了你的《摘要 ${opted.userId}》：给你的评论`);
    expect(zh.text).toContain('https://hikari.test/message/system');
    const en = mails.find((m) => m.to.startsWith(english.name))!;
    expect(en.subject).toBe('[Hikari] You have 1 new notification');
    expect(en.text).toContain(`${other.name} commented on your “摘要 ${english.userId}”: 给你的评论`);
    expect(en.text).not.toContain('你好');

    // Housekeeping queues only members with something new who opted in.
    const post = await publish(opted, '再来一条');
    await comment(other, post.id, '新的评论');
    await settled();
    app.outbox.mails.length = 0;
    await queueDigests(app.ctx.db, app.ctx.jobs);
    await settled();
    const ours = new Set([opted, english, silent, other].map((who) => `${who.name}@example.test`));
    const again = app.outbox.mails.filter((m) => ours.has(m.to));
    expect(again.map((m) => m.to)).toEqual([`${opted.name}@example.test`]);
    expect(again[0]!.text).toContain('新的评论');
    expect(again[0]!.text).not.toContain('给你的评论');
  });

  it('finds the thread of a comment a notification links to, down to the page of replies holding it', async () => {
    const [owner, other] = [await account(), await account()];
    const post = await publish(owner);
    const root = await comment(owner, post.id, '楼主');
    const replies: CommentView[] = [];
    for (let i = 0; i < 12; i++) replies.push(await comment(other, post.id, `回复 ${i}`, root.id));
    type Thread = { thread: CommentView & { replies: CommentView[] } };
    const thread = async (id: number, who?: Account) => call<Thread>(app, 'GET', `/comments/${id}/thread`, who?.token);
    const deep = data((await thread(replies[11]!.id)).body).thread;
    expect(deep.id).toBe(root.id);
    expect(deep.replies.map((r) => r.id)).toContain(replies[11]!.id);
    expect(deep.replies.map((r) => r.id)).not.toContain(replies[0]!.id);
    const first = data((await thread(root.id, other)).body).thread;
    expect(first.replies.map((r) => r.id)).toEqual(replies.slice(0, 3).map((r) => r.id));
    await call(app, 'DELETE', `/comments/${replies[5]!.id}`, other.token);
    expectFailure(await thread(replies[5]!.id), 404, 'NOT_FOUND');
    expectFailure(await thread(999_999), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', '/comments/abc/thread'), 400, 'VALIDATION_FAILED');
  });

  it('goes with the account when a member is removed', async () => {
    const [owner, other] = [await account(), await account()];
    const post = await publish(owner);
    await comment(other, post.id, '再见');
    expect((await list(owner)).items).toHaveLength(1);
    await removeUser({ db: app.ctx.db, targets: app.ctx.targets }, owner.id);
    const left = await app.ctx.db.selectFrom('notification').select('id').where('user_id', '=', owner.id).execute();
    expect(left).toEqual([]);
  });

  it('shows no text of a comment deleted since, marks it gone and leaves it out of digests', async () => {
    const [owner, other, editor] = [await account(), await account(), await account('editor')];
    await updateUserSetting(app.ctx.db, owner.id, { emailNotifications: true });
    const post = await publish(owner, '删除后的摘录');
    const own = await comment(other, post.id, '作者自己删掉的秘密');
    const moderated = await comment(other, post.id, '版主删掉的秘密');
    const other2 = await publish(owner, '整帖删除');
    const withPost = await comment(other, other2.id, '随帖子消失的秘密');
    await settled();
    expect((await call(app, 'DELETE', `/comments/${own.id}`, other.token)).res.status).toBe(200);
    expect((await call(app, 'DELETE', `/comments/${moderated.id}`, editor.token)).res.status).toBe(200);
    expect((await call(app, 'DELETE', `/community/posts/${other2.id}`, owner.token)).res.status).toBe(200);
    const page = await list(owner);
    const about = page.items.filter((n) => [own.id, moderated.id, withPost.id].includes(n.commentId ?? 0));
    expect(about).toHaveLength(3);
    for (const item of about) expect(item).toMatchObject({ excerpt: '', gone: true, url: null });
    expect(JSON.stringify(page)).not.toContain('秘密');
    const deps = { db: app.ctx.db, targets: app.ctx.targets, jobs: queueOnly, origin: 'https://hikari.test' };
    expect(await sendDigest(deps, owner.id)).toBe(false);
    const kept = await comment(other, post.id, '还在的评论');
    await settled();
    expect(await sendDigest(deps, owner.id)).toBe(true);
    await settled();
    const mail = app.outbox.mails.find((m) => m.to === `${owner.name}@example.test`)!;
    expect(mail.text).toContain('还在的评论');
    expect(mail.text).not.toContain('秘密');
    expect(mail.subject).toBe('【Hikari】你有 1 条新消息');
    expect(kept.id).toBeGreaterThan(0);
  });

  it('does not open a new group when a member who was in a group read this week follows again', async () => {
    const star = await account();
    const [churn, fresh] = [await account(), await account()];
    const follow = (who: Account) => call(app, 'POST', '/user/follow', who.token, { userId: star.userId });
    await follow(churn);
    const first = await list(star);
    expect(first.items.map((n) => [n.kind, n.actorCount])).toEqual([['follow', 1]]);
    await read(star, first.items[0]!._id);
    for (let i = 0; i < 3; i++) {
      await follow(churn); // unfollow
      await follow(churn); // follow again
    }
    let page = await list(star);
    expect(page.items.map((n) => [n.actorCount, n.isRead])).toEqual([[1, true]]);
    expect(await unread(star)).toBe(0);
    await follow(fresh);
    page = await list(star);
    expect(page.items.map((n) => [n.actorCount, n.isRead])).toEqual([
      [1, false],
      [1, true],
    ]);
    expect(page.items[0]!.actors.map((a) => a.userId)).toEqual([fresh.userId]);
  });

  it('counts a removed member out of the groups of others they followed or liked in', async () => {
    const star = await account();
    const [gone, stays] = [await account(), await account()];
    const post = await publish(star, '注销前点赞');
    for (const who of [gone, stays]) {
      await call(app, 'POST', '/user/follow', who.token, { userId: star.userId });
      await like(who, 'post', post.id);
    }
    let page = await list(star);
    expect(page.items.map((n) => [n.kind, n.actorCount]).sort()).toEqual([
      ['follow', 2],
      ['like', 2],
    ]);
    await removeUser({ db: app.ctx.db, targets: app.ctx.targets }, gone.id);
    page = await list(star);
    expect(page.items.map((n) => [n.kind, n.actorCount]).sort()).toEqual([
      ['follow', 1],
      ['like', 1],
    ]);
    for (const item of page.items) expect(item.actors.map((a) => a.userId)).toEqual([stays.userId]);
  });

  it('resumes an announcement handed out halfway without writing anyone twice', async () => {
    const members = [await account(), await account(), await account()];
    const now = new Date();
    await app.ctx.db
      .insertInto('announcement')
      .values({
        id: 'notice-2',
        title: '分批公告',
        body: '正文',
        published_at: now.toISOString(),
        created_at: now.toISOString(),
      })
      .execute();
    // A run that stopped after its first batch: some members already hold it, the announcement is not marked.
    const first = [...members].sort((a, b) => (a.id < b.id ? -1 : 1))[0]!;
    await app.ctx.db
      .insertInto('notification')
      .values({
        id: 'resume-1',
        user_id: first.id,
        kind: 'announcement',
        group_key: 'announcement:notice-2',
        open_key: 'announcement:notice-2',
        announcement_id: 'notice-2',
        excerpt: '分批公告',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    expect(await deliverAnnouncements(app.ctx.db, now)).toBe(1);
    expect(await deliverAnnouncements(app.ctx.db, now)).toBe(0);
    for (const who of members) {
      const rows = await app.ctx.db
        .selectFrom('notification')
        .select('id')
        .where('user_id', '=', who.id)
        .where('group_key', '=', 'announcement:notice-2')
        .execute();
      expect(rows).toHaveLength(1);
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'keeps a recount job folded into by an uncommitted like away from the workers until it commits',
    async () => {
      const db = app.ctx.db;
      expect(dialectOf(db)).toBe('postgres');
      const event = { kind: 'follow' as const, followeeId: `lock-test-${Date.now()}` };
      await notifyLater({ jobs: queueOnly }, db, event);
      let claimedMeanwhile = -1;
      await db.transaction().execute(async (trx) => {
        await notifyLater({ jobs: queueOnly }, trx, event);
        const claim = { names: ['notifications.event'], workerId: 'test', limit: 50, leaseMs: 1000, now: Date.now() };
        const claimed = await claimJobs(db, 'postgres', claim);
        claimedMeanwhile = claimed.filter((job) => job.payload.includes(event.followeeId)).length;
        // Anything this test claimed goes back to waiting.
        for (const job of claimed)
          await db
            .updateTable('job')
            .set({ status: 'queued', locked_by: null, lease_until: null })
            .where('id', '=', job.id)
            .execute();
      });
      expect(claimedMeanwhile).toBe(0);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)('marks a group read only after a recount of it has finished', async () => {
    const star = await account();
    const fan = await account();
    await call(app, 'POST', '/user/follow', fan.token, { userId: star.userId });
    const group = (await list(star)).items[0]!;
    let done = false;
    let marking: Promise<unknown> = Promise.resolve();
    await app.ctx.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`notification:${star.id}:follow`}))`.execute(trx);
      marking = markRead(app.ctx.db, star.id, group._id).then(() => {
        done = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(done).toBe(false);
    });
    await marking;
    expect(done).toBe(true);
  });
});
