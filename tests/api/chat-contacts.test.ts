import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_PIN_LIMIT, type ContactEntry, type ContactList } from '../../src/shared/chat/chat-model.ts';
import type { ApiFailure } from '../../src/shared/api.ts';
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

// Pinning a conversation and naming its partner (spec §3 contact entry: nickname, isPinned,
// pinnedOrder): the latest pinned first, at most CHAT_PIN_LIMIT, only for conversations that exist,
// and every kind of malformed body refused.
describe('contact pins and nicknames', () => {
  let app: TestApp;
  let count = 0;

  async function member(): Promise<Member> {
    count += 1;
    const name = `pin_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    return { id: user.id, userId: user.user_id, token };
  }
  const send = (from: Member, to: Member, content: string) =>
    sendMessage(app.ctx.db, from.id, { receiverId: to.userId, content });
  const pin = (who: Member, contactUserId: unknown, pinned: unknown = true) =>
    call<ContactEntry>(app, 'POST', '/private-message/contacts/pin', who.token, { contactUserId, pinned });
  const nickname = (who: Member, contactUserId: unknown, name: unknown) =>
    call<ContactEntry>(app, 'POST', '/private-message/contacts/nickname', who.token, {
      contactUserId,
      nickname: name,
    });
  const contacts = async (who: Member) =>
    data((await call<ContactList>(app, 'GET', '/private-message/contacts?limit=50', who.token)).body).contacts;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('pins conversations with the latest pinned first, keeps a re-pinned one in place, and unpins', async () => {
    const [a, b, c, d] = [await member(), await member(), await member(), await member()];
    await send(a, b, 'to b');
    await send(c, a, 'from c');
    await send(a, d, 'to d');
    // Unpinned: the latest message first.
    expect((await contacts(a)).map((x) => x.contactUser._id)).toEqual([d.userId, c.userId, b.userId]);

    const pinnedB = data((await pin(a, b.userId)).body);
    expect(pinnedB).toMatchObject({ contactUser: { _id: b.userId }, isPinned: true, pinnedOrder: 1 });
    expect(data((await pin(a, c.userId)).body)).toMatchObject({ isPinned: true, pinnedOrder: 2 });
    expect((await contacts(a)).map((x) => [x.contactUser._id, x.pinnedOrder])).toEqual([
      [c.userId, 2],
      [b.userId, 1],
      [d.userId, 0],
    ]);
    // Pinning again changes nothing; unpinning puts it back among the others by its last message.
    expect(data((await pin(a, b.userId)).body)).toMatchObject({ pinnedOrder: 1 });
    expect(data((await pin(a, c.userId, false)).body)).toMatchObject({ isPinned: false, pinnedOrder: 0 });
    expect((await contacts(a)).map((x) => x.contactUser._id)).toEqual([b.userId, d.userId, c.userId]);
    // Pins are the viewer's own: b's list is untouched.
    expect((await contacts(b))[0]).toMatchObject({ contactUser: { _id: a.userId }, isPinned: false });
  });

  it(`refuses a pin past ${CHAT_PIN_LIMIT}, and gives pins made at once distinct places`, async () => {
    const a = await member();
    const others: Member[] = [];
    for (let i = 0; i <= CHAT_PIN_LIMIT; i++) {
      const other = await member();
      await send(other, a, `hi ${i}`);
      others.push(other);
    }
    const first = others.slice(0, 10);
    const answers = await Promise.all(first.map((o) => pin(a, o.userId)));
    const orders = answers.map((r) => data(r.body).pinnedOrder);
    expect(new Set(orders).size).toBe(10);
    expect([...orders].sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    for (const o of others.slice(10, CHAT_PIN_LIMIT)) expect((await pin(a, o.userId)).res.status).toBe(200);
    const over = await pin(a, others[CHAT_PIN_LIMIT]!.userId);
    expectFailure(over, 409, 'CHAT_PIN_LIMIT');
    expect((over.body as ApiFailure).message).toBe(`最多置顶 ${CHAT_PIN_LIMIT} 个会话，请先取消一个置顶`);
    // Unpinning one makes room again.
    await pin(a, others[0]!.userId, false);
    expect(data((await pin(a, others[CHAT_PIN_LIMIT]!.userId)).body)).toMatchObject({
      isPinned: true,
      pinnedOrder: CHAT_PIN_LIMIT + 1,
    });
    const list = await contacts(a);
    expect(list.filter((x) => x.isPinned)).toHaveLength(CHAT_PIN_LIMIT);
    expect(list[0]!.contactUser._id).toBe(others[CHAT_PIN_LIMIT]!.userId);
  });

  it('sets, trims and clears a nickname, shown in the contact list', async () => {
    const [a, b] = [await member(), await member()];
    await send(b, a, 'hello');
    expect(data((await nickname(a, b.userId, '  小B 同学  ')).body)).toMatchObject({
      contactUser: { _id: b.userId },
      nickname: '小B 同学',
      unreadCount: 1,
      lastMessage: { content: 'hello' },
    });
    expect((await contacts(a))[0]).toMatchObject({ nickname: '小B 同学' });
    expect((await contacts(b))[0]).toMatchObject({ nickname: '' });
    expect(data((await nickname(a, b.userId, 'x'.repeat(20))).body).nickname).toBe('x'.repeat(20));
    expect(data((await nickname(a, b.userId, '')).body).nickname).toBe('');
    expect((await contacts(a))[0]).toMatchObject({ nickname: '' });
  });

  it('answers 404 for members without a conversation, unknown members and oneself', async () => {
    const [a, b, stranger] = [await member(), await member(), await member()];
    await send(a, b, 'x');
    for (const target of [stranger.userId, a.userId, 2_000_000_000]) {
      const pinned = await pin(a, target);
      expectFailure(pinned, 404, 'NOT_FOUND');
      expectFailure(await nickname(a, target, 'n'), 404, 'NOT_FOUND');
    }
    expect((await pin(a, stranger.userId)).body).toMatchObject({
      message: '你和该用户还没有私信往来，请先发一条消息',
    });
    // A conversation between two others cannot be touched through either of their ids.
    const c = await member();
    expectFailure(await pin(c, a.userId), 404, 'NOT_FOUND');
    expectFailure(await nickname(c, b.userId, 'n'), 404, 'NOT_FOUND');
    expect((await contacts(a))[0]).toMatchObject({ isPinned: false, nickname: '' });
  });

  it('refuses visitors and malformed bodies on both calls', async () => {
    const [a, b] = [await member(), await member()];
    await send(a, b, 'x');
    for (const path of ['/private-message/contacts/pin', '/private-message/contacts/nickname'])
      expectFailure(
        await call(app, 'POST', path, undefined, { contactUserId: b.userId, pinned: true, nickname: 'n' }),
        401,
        'UNAUTHORIZED',
      );
    expectFailure(await call(app, 'POST', '/private-message/contacts/pin', 'not-a-token', {}), 401, 'TOKEN_INVALID');
    for (const bad of ['12', true, null, 0, -1, 1.5, [1], { id: 1 }, 2_147_483_648]) {
      expectFailure(await pin(a, bad), 400, 'VALIDATION_FAILED');
      expectFailure(await nickname(a, bad, 'n'), 400, 'VALIDATION_FAILED');
    }
    for (const bad of ['true', 1, 0, null, [true], {}])
      expectFailure(await pin(a, b.userId, bad), 400, 'VALIDATION_FAILED');
    const pinPath = '/private-message/contacts/pin';
    const nickPath = '/private-message/contacts/nickname';
    expectFailure(await call(app, 'POST', pinPath, a.token, { contactUserId: b.userId }), 400, 'VALIDATION_FAILED');
    expectFailure(
      await call(app, 'POST', pinPath, a.token, { contactUserId: b.userId, pinned: true, nickname: 'n' }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await call(app, 'POST', nickPath, a.token, { contactUserId: b.userId, nickname: 'n', pinned: true }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await call(app, 'POST', nickPath, a.token, { contactUserId: b.userId }), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'POST', nickPath, a.token, [b.userId, 'n']), 400, 'VALIDATION_FAILED');
    for (const bad of [5, null, ['n'], { n: 1 }])
      expectFailure(await nickname(a, b.userId, bad), 400, 'VALIDATION_FAILED');
    const tooLong = await nickname(a, b.userId, 'x'.repeat(21));
    expectFailure(tooLong, 400, 'VALIDATION_FAILED');
    expect((tooLong.body as ApiFailure).message).toContain('20');
    for (const hidden of ['a\u0000b', 'a\nb', 'a\tb', 'a\u0007', 'a\u202Eb', 'a\u2066b', '\uD800x'])
      expectFailure(await nickname(a, b.userId, hidden), 400, 'VALIDATION_FAILED');
    // Nothing was changed by any of them.
    expect((await contacts(a))[0]).toMatchObject({ nickname: '', isPinned: false });
  });
});
