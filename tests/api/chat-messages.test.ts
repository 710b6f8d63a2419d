import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatHistory, ContactList } from '../../src/shared/chat/chat-model.ts';
import type { BellCounts } from '../../src/shared/notifications/notifications.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { sendMessage } from '../../src/server/modules/chat/chat.send.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { call, data, expectFailure } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

interface Member {
  id: string;
  userId: number;
  token: string;
}

// Private messages stored before they are acknowledged (issue 16): contacts with unread counts and the
// last message, history pages that do not drift, retried sends stored once, blocking, and the HTTP
// calls of spec §7.
describe('private messages', () => {
  let app: TestApp;
  let count = 0;

  async function member(): Promise<Member> {
    count += 1;
    const name = `pm_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    return { id: user.id, userId: user.user_id, token };
  }
  const send = (from: Member, to: Member, content: string, clientId?: string) =>
    sendMessage(app.ctx.db, from.id, { receiverId: to.userId, content, ...(clientId ? { clientId } : {}) });
  const history = async (who: Member, partner: Member | number, query = '') =>
    call<ChatHistory>(app, 'POST', `/private-message/history${query}`, who.token, {
      receiverId: typeof partner === 'number' ? partner : partner.userId,
    });
  const contacts = async (who: Member) =>
    data((await call<ContactList>(app, 'GET', '/private-message/contacts', who.token)).body);
  const storedCount = async (a: Member) =>
    Number(
      (
        await app.ctx.db
          .selectFrom('private_message')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('sender_id', '=', a.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('counts unread private messages for the bell across conversations until they are read', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const bell = async () => data((await call<BellCounts>(app, 'GET', '/v2/user/unread', a.token)).body);
    expect(await bell()).toEqual({ unreadCount: 0, privateUnread: 0 });
    await send(b, a, 'one');
    await send(b, a, 'two');
    await send(c, a, 'three');
    await send(a, b, 'mine do not count');
    expect(await bell()).toEqual({ unreadCount: 0, privateUnread: 3 });
    await call(app, 'POST', '/private-message/contacts/unread/clear', a.token, { contactUserId: b.userId });
    expect(await bell()).toEqual({ unreadCount: 0, privateUnread: 1 });
  });

  it('lowers the unread count by what a read marked, so a message stored meanwhile stays counted', async () => {
    const [a, b] = [await member(), await member()];
    await send(b, a, 'one');
    await send(b, a, 'two');
    // A third message whose +1 is counted but whose row the read does not see (it committed later).
    await app.ctx.db
      .updateTable('chat_contact')
      .set({ unread_count: 3 })
      .where('user_id', '=', a.id)
      .where('contact_id', '=', b.id)
      .execute();
    await call(app, 'POST', '/private-message/contacts/unread/clear', a.token, { contactUserId: b.userId });
    const counted = async () =>
      (await contacts(a)).contacts.find((entry) => entry.contactUser._id === b.userId)!.unreadCount;
    expect(await counted()).toBe(1);
    // Nothing unread left at all: the count is cleared whatever it held.
    await call(app, 'POST', '/private-message/contacts/unread/clear', a.token, { contactUserId: b.userId });
    expect(await counted()).toBe(0);
  });

  it('keeps the newer last message when an older send commits after it', async () => {
    const [a, b] = [await member(), await member()];
    await send(a, b, 'first');
    // A send that took a greater id committed already (ids are taken before the commit on PostgreSQL).
    await app.ctx.db
      .updateTable('chat_contact')
      .set({ last_message_id: 2_000_000_000, last_message_at: '2099-01-01T00:00:00.000Z' })
      .where('user_id', 'in', [a.id, b.id])
      .execute();
    await send(a, b, 'older id, later commit');
    const rows = await app.ctx.db
      .selectFrom('chat_contact')
      .select(['last_message_id', 'last_message_at', 'unread_count'])
      .where('user_id', 'in', [a.id, b.id])
      .execute();
    expect(rows.map((row) => [Number(row.last_message_id), row.last_message_at])).toEqual([
      [2_000_000_000, '2099-01-01T00:00:00.000Z'],
      [2_000_000_000, '2099-01-01T00:00:00.000Z'],
    ]);
    expect(rows.map((row) => Number(row.unread_count)).sort()).toEqual([0, 2]);
  });

  it('stores a message with both contact rows and shows it in the history and the contact lists', async () => {
    const [a, b] = [await member(), await member()];
    const sent = await send(a, b, '你好 [emoji:1]');
    expect(sent.duplicate).toBe(false);
    expect(sent.message).toMatchObject({
      senderId: a.userId,
      receiverId: b.userId,
      content: '你好 [emoji:1]',
      isRead: false,
      isDelivered: false,
    });
    await send(b, a, 'hi');
    const page = data((await history(a, b)).body);
    expect(page.messages.map((m) => [m.senderId, m.content])).toEqual([
      [a.userId, '你好 [emoji:1]'],
      [b.userId, 'hi'],
    ]);
    expect(page.pagination).toMatchObject({ page: 1, limit: 10, total: 2 });
    expect(page.hasMore).toBe(false);
    // The other side reads the same conversation.
    expect(data((await history(b, a)).body).messages).toHaveLength(2);

    const listA = await contacts(a);
    expect(listA.contacts).toEqual([
      expect.objectContaining({
        contactUser: expect.objectContaining({ _id: b.userId }),
        unreadCount: 1,
        lastMessage: expect.objectContaining({ content: 'hi' }),
        isPinned: false,
        isBlocked: false,
      }),
    ]);
    expect((await contacts(b)).contacts[0]).toMatchObject({ unreadCount: 1, contactUser: { _id: a.userId } });
  });

  it('pages by cursor without drifting while new messages arrive, and by page number as the spec asks', async () => {
    const [a, b] = [await member(), await member()];
    for (let i = 1; i <= 25; i++) await send(i % 2 ? a : b, i % 2 ? b : a, `m${i}`);
    const newest = data((await history(a, b)).body);
    expect(newest.messages.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${16 + i}`));
    expect(newest.hasMore).toBe(true);
    // Three more arrive; the older page by cursor is still the ten before the first one shown.
    for (let i = 26; i <= 28; i++) await send(a, b, `m${i}`);
    const older = data((await history(a, b, `?before=${newest.messages[0]!._id}`)).body);
    expect(older.messages.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${6 + i}`));
    const oldest = data((await history(a, b, `?before=${older.messages[0]!._id}&limit=10`)).body);
    expect(oldest.messages.map((m) => m.content)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(oldest.hasMore).toBe(false);
    const page2 = data((await history(a, b, '?page=2&limit=10')).body);
    expect(page2.messages.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${9 + i}`));
    expect(page2.pagination).toMatchObject({ page: 2, total: 28, totalPages: 3 });
  });

  it('stores a retried send once, also when the retries race', async () => {
    const [a, b] = [await member(), await member()];
    const first = await send(a, b, 'once', 'client-0001');
    const again = await send(a, b, 'once', 'client-0001');
    expect(again).toMatchObject({ duplicate: true, message: { _id: first.message._id } });
    const raced = await Promise.all(Array.from({ length: 10 }, () => send(a, b, 'race', 'client-0002')));
    expect(new Set(raced.map((r) => r.message._id)).size).toBe(1);
    expect(await storedCount(a)).toBe(2);
    expect((await contacts(b)).contacts[0]!.unreadCount).toBe(2);
  });

  it('refuses oneself, unknown and banned members, and members who blocked the sender', async () => {
    const [a, b, banned] = [await member(), await member(), await member()];
    await app.ctx.db.updateTable('users').set({ status: 'banned' }).where('id', '=', banned.id).execute();
    await expect(send(a, a, 'me')).rejects.toMatchObject({ status: 400, code: 'CHAT_SELF' });
    await expect(sendMessage(app.ctx.db, a.id, { receiverId: 2_000_000_000, content: 'x' })).rejects.toMatchObject({
      status: 404,
    });
    await expect(send(a, banned, 'x')).rejects.toMatchObject({ status: 403, code: 'USER_BANNED' });

    const blocked = await call(app, 'POST', '/private-message/block', b.token, { userId: a.userId });
    expect(blocked.body).toMatchObject({ success: true, message: '已屏蔽该用户', data: { isBlocked: true } });
    await expect(send(a, b, 'x')).rejects.toMatchObject({ status: 403, code: 'CHAT_BLOCKED' });
    // The blocker may still write; the contact list says who is blocked.
    await send(b, a, 'still me');
    expect((await contacts(b)).contacts[0]).toMatchObject({ isBlocked: true });
    const unblocked = await call(app, 'DELETE', `/private-message/block/${a.userId}`, b.token);
    expect(data(unblocked.body)).toEqual({ isBlocked: false });
    await send(a, b, 'back');
    expect(await storedCount(a)).toBe(1);
    expectFailure(await call(app, 'POST', '/private-message/block', a.token, { userId: a.userId }), 400, 'CHAT_SELF');
  });

  it('clears one conversation’s unread messages and count, and nothing else', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await send(b, a, '1');
    await send(b, a, '2');
    await send(c, a, '3');
    const cleared = await call(app, 'POST', '/private-message/contacts/unread/clear', a.token, {
      contactUserId: b.userId,
    });
    expect(data(cleared.body)).toEqual({ cleared: 2 });
    const list = await contacts(a);
    expect(list.contacts.map((x) => [x.contactUser._id, x.unreadCount])).toEqual([
      [c.userId, 1],
      [b.userId, 0],
    ]);
    expect(data((await history(a, b)).body).messages.every((m) => m.isRead && m.readAt)).toBe(true);
    // Clearing again changes nothing.
    expect(
      data(
        (await call(app, 'POST', '/private-message/contacts/unread/clear', a.token, { contactUserId: b.userId })).body,
      ),
    ).toEqual({ cleared: 0 });
  });

  it('marks messages read even when the read receipt cannot be published', async () => {
    const [a, b] = [await member(), await member()];
    await send(b, a, 'unheard');
    const publish = vi.spyOn(app.ctx.bus, 'publish').mockRejectedValue(new Error('bus down'));
    try {
      const cleared = await call(app, 'POST', '/private-message/contacts/unread/clear', a.token, {
        contactUserId: b.userId,
      });
      expect(data(cleared.body)).toEqual({ cleared: 1 });
      expect(publish).toHaveBeenCalledWith('chat.receipt', expect.objectContaining({ to: [b.id, a.id] }));
    } finally {
      publish.mockRestore();
    }
    expect(data((await history(a, b)).body).messages[0]).toMatchObject({ isRead: true });
  });

  it('refuses visitors and malformed input with clear errors', async () => {
    const [a, b] = [await member(), await member()];
    expectFailure(
      await call(app, 'POST', '/private-message/history', undefined, { receiverId: b.userId }),
      401,
      'UNAUTHORIZED',
    );
    expectFailure(await call(app, 'GET', '/private-message/contacts'), 401, 'UNAUTHORIZED');
    for (const bad of ['12', true, null, 0, -1, 1.5, [1], { id: 1 }])
      expectFailure(
        await call(app, 'POST', '/private-message/history', a.token, { receiverId: bad }),
        400,
        'VALIDATION_FAILED',
      );
    expectFailure(await history(a, b, '?limit=51'), 400, 'VALIDATION_FAILED');
    expectFailure(await history(a, b, '?before=abc'), 400, 'VALIDATION_FAILED');
    expectFailure(await history(a, a), 400, 'CHAT_SELF');
    expectFailure(await history(a, 2_000_000_000), 404, 'NOT_FOUND');
    expectFailure(
      await call(app, 'POST', '/private-message/contacts/unread/clear', a.token, { contactUserId: b.userId, x: 1 }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await call(app, 'DELETE', '/private-message/block/abc', a.token), 400, 'VALIDATION_FAILED');
  });
});
