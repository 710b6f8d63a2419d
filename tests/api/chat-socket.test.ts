import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAppContext } from '../../src/server/app-context.ts';
import { createHttpServer, type HttpServer } from '../../src/server/http/server.ts';
import { loadConfig } from '../../src/server/platform/config.ts';
import { createLogger } from '../../src/server/platform/logger.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { CHAT_SEND_LIMIT } from '../../src/shared/chat/chat-model.ts';
import { sendMessage } from '../../src/server/modules/chat/chat.send.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { call, data } from '../support/accounts.ts';
import { connectChat, type ChatClient as Client } from '../support/chat-client.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

interface Member {
  id: string;
  userId: number;
  token: string;
}

// The message frames of /ws/chat (spec §7, issue 16) through the real HTTP server: stored before
// `message_sent`, delivered to the receiver's sockets and the sender's other tabs, errors as frames in
// the page's language, retries stored once, the per-member send limit.
describe('chat socket messages', () => {
  let app: TestApp;
  let http: HttpServer;
  let port = 0;
  let count = 0;
  const open: WebSocket[] = [];

  async function member(): Promise<Member> {
    count += 1;
    const name = `ws_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    return { id: user.id, userId: user.user_id, token };
  }

  async function connect(who: Member, locale = 'zh-CN', atPort = port): Promise<Client> {
    const client = await connectChat(`ws://127.0.0.1:${atPort}/ws/chat?token=${encodeURIComponent(who.token)}`, locale);
    open.push(client.ws);
    return client;
  }

  const stored = async (sender: Member) =>
    app.ctx.db.selectFrom('private_message').selectAll().where('sender_id', '=', sender.id).orderBy('id').execute();

  beforeAll(async () => {
    app = await createTestApp({ PUBLIC_ORIGIN: 'http://hikari.test' });
    http = createHttpServer(app.ctx, { clientDir: app.ctx.config.dataDir, astro: async (_req, res) => void res.end() });
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    port = (http.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    await http.shutdown(1000);
    await app.close();
  });

  it('stores a message, answers message_sent, and delivers it to the receiver and the sender’s other tab', async () => {
    const [a, b] = [await member(), await member()];
    const [tabA, otherTabA, tabB] = [await connect(a), await connect(a), await connect(b)];
    tabA.send({ type: 'message', receiverId: b.userId, content: ' 你好！ ', clientId: 'c-0000000001' });
    const sent = await tabA.next((f) => f.type === 'message_sent');
    expect(sent).toMatchObject({
      type: 'message_sent',
      receiverId: b.userId,
      content: '你好！',
      clientId: 'c-0000000001',
    });
    // Stored before it was acknowledged.
    const rows = await stored(a);
    expect(rows.map((r) => [String(r.id), r.content])).toEqual([[(sent as { _id: string })._id, '你好！']]);
    const got = await tabB.next((f) => f.type === 'message');
    expect(got).toMatchObject({
      senderId: a.userId,
      receiverId: b.userId,
      content: '你好！',
      _id: rows[0]!.id.toString(),
    });
    expect(await otherTabA.next((f) => f.type === 'message_sent')).toMatchObject({ _id: rows[0]!.id.toString() });
    // The sending tab heard message_sent once.
    await new Promise((r) => setTimeout(r, 100));
    expect(tabA.frames.filter((f) => f.type === 'message_sent')).toHaveLength(1);
    // Delivered to an open socket: marked so.
    await expect.poll(async () => (await stored(a))[0]!.delivered_at !== null, { timeout: 2000 }).toBe(true);
  });

  it('tells the sender when messages reach the receiver: on their next connection, and at once while connected', async () => {
    const [a, b] = [await member(), await member()];
    const tabA = await connect(a);
    tabA.send({ type: 'message', receiverId: b.userId, content: 'one', clientId: 'offline-0001' });
    tabA.send({ type: 'message', receiverId: b.userId, content: 'two', clientId: 'offline-0002' });
    await expect.poll(() => tabA.frames.filter((f) => f.type === 'message_sent').length).toBe(2);
    const offline = tabA.frames.flatMap((f) => (f.type === 'message_sent' ? [f._id] : []));
    await new Promise((r) => setTimeout(r, 100));
    expect(tabA.frames.filter((f) => f.type === 'delivered')).toEqual([]);
    // The receiver connects: both are delivered now, in one frame.
    const tabB = await connect(b);
    const onOpen = await tabA.next((f) => f.type === 'delivered');
    expect(onOpen).toMatchObject({ type: 'delivered', receiverId: b.userId, ids: offline });
    expect(Date.parse((onOpen as { deliveredAt: string }).deliveredAt)).not.toBeNaN();
    expect((await stored(a)).every((r) => r.delivered_at !== null)).toBe(true);
    // While connected: each message at once.
    tabA.send({ type: 'message', receiverId: b.userId, content: 'three', clientId: 'online-00003' });
    const three = await tabB.next((f) => f.type === 'message' && f.content === 'three');
    const live = await tabA.next((f) => f.type === 'delivered' && f !== onOpen);
    expect(live).toMatchObject({ receiverId: b.userId, ids: [(three as { _id: string })._id] });
    // A retry delivered again, and another tab of the receiver, tell the sender nothing new.
    tabA.send({ type: 'message', receiverId: b.userId, content: 'three', clientId: 'online-00003' });
    await tabB.next(
      (f) => f.type === 'message' && f.content === 'three' && tabB.frames.indexOf(f) > tabB.frames.indexOf(three),
    );
    await connect(b);
    await new Promise((r) => setTimeout(r, 150));
    expect(tabA.frames.filter((f) => f.type === 'delivered')).toHaveLength(2);
    // The receiver hears no receipts of its own.
    expect(tabB.frames.filter((f) => f.type === 'delivered')).toEqual([]);
  });

  it('tells the sender and the reader’s other tabs when a conversation is read', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const tabA = await connect(a);
    const [tabB, otherTabB] = [await connect(b), await connect(b)];
    const tabC = await connect(c);
    for (const content of ['r1', 'r2']) tabA.send({ type: 'message', receiverId: b.userId, content });
    await expect.poll(() => tabA.frames.filter((f) => f.type === 'message_sent').length).toBe(2);
    const newest = Math.max(...(await stored(a)).map((r) => r.id));
    const cleared = await call(app, 'POST', '/private-message/contacts/unread/clear', b.token, {
      contactUserId: a.userId,
    });
    expect(data(cleared.body)).toEqual({ cleared: 2 });
    const expected = { type: 'read', readerId: b.userId, senderId: a.userId, upTo: String(newest) };
    const toSender = await tabA.next((f) => f.type === 'read');
    expect(toSender).toMatchObject(expected);
    const readAt = (toSender as { readAt: string }).readAt;
    expect((await stored(a)).map((r) => r.read_at)).toEqual([readAt, readAt]);
    expect(await tabB.next((f) => f.type === 'read')).toEqual(toSender);
    expect(await otherTabB.next((f) => f.type === 'read')).toEqual(toSender);
    // Nothing more to read: no frame. Nobody else hears it.
    await call(app, 'POST', '/private-message/contacts/unread/clear', b.token, { contactUserId: a.userId });
    await new Promise((r) => setTimeout(r, 150));
    expect(tabA.frames.filter((f) => f.type === 'read')).toHaveLength(1);
    expect(tabC.frames.filter((f) => f.type === 'read')).toEqual([]);
  });

  it('tells a new socket which contacts are online, and contacts and askers when a member comes and goes', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await sendMessage(app.ctx.db, a.id, { receiverId: b.userId, content: 'we are contacts' });
    const tabA = await connect(a);
    const tabC = await connect(c);
    expect(await tabC.next((f) => f.type === 'online_users')).toEqual({ type: 'online_users', users: [] });
    const tabB = await connect(b);
    expect(await tabB.next((f) => f.type === 'online_users')).toEqual({ type: 'online_users', users: [a.userId] });
    expect(await tabA.next((f) => f.type === 'user_status' && f.userId === b.userId)).toMatchObject({
      status: 'online',
    });
    // A stranger asks about b (a conversation opened from b's card): answered, and told from then on.
    tabC.send({ type: 'presence', userIds: [b.userId, a.userId, 2_000_000_000] });
    expect(await tabC.next((f) => f.type === 'presence')).toEqual({
      type: 'presence',
      users: [a.userId, b.userId].sort((x, y) => x - y),
    });
    tabB.ws.close(1000);
    expect(
      await tabA.next((f) => f.type === 'user_status' && f.userId === b.userId && f.status === 'offline'),
    ).toBeTruthy();
    expect(
      await tabC.next((f) => f.type === 'user_status' && f.userId === b.userId && f.status === 'offline'),
    ).toBeTruthy();
    // Before asking, c heard nothing about b; a stranger to everyone hears nobody.
    const asked = tabC.frames.findIndex((f) => f.type === 'presence');
    expect(tabC.frames.slice(0, asked).filter((f) => f.type === 'user_status')).toEqual([]);
    const d = await member();
    const tabD = await connect(d);
    await connect(b);
    await tabA.next((f) => f.type === 'user_status' && f.userId === b.userId && f.status === 'online');
    await new Promise((r) => setTimeout(r, 100));
    expect(tabD.frames.filter((f) => f.type === 'user_status')).toEqual([]);
    tabD.send({ type: 'presence', userIds: Array.from({ length: 51 }, (_, i) => i + 1) });
    expect(await tabD.next((f) => f.type === 'error')).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('makes two members who exchange a message each other’s contacts while connected', async () => {
    const [a, b] = [await member(), await member()];
    const tabA = await connect(a);
    const tabB = await connect(b);
    await tabB.next((f) => f.type === 'online_users');
    tabA.send({ type: 'message', receiverId: b.userId, content: 'first words' });
    expect(await tabA.next((f) => f.type === 'user_status' && f.userId === b.userId)).toMatchObject({
      status: 'online',
    });
    expect(await tabB.next((f) => f.type === 'user_status' && f.userId === a.userId)).toMatchObject({
      status: 'online',
    });
    tabB.ws.close(1000);
    expect(
      await tabA.next((f) => f.type === 'user_status' && f.userId === b.userId && f.status === 'offline'),
    ).toBeTruthy();
  });

  it('stores a retried frame once and acknowledges it again', async () => {
    const [a, b] = [await member(), await member()];
    const tab = await connect(a);
    const frame = { type: 'message', receiverId: b.userId, content: 'again', clientId: 'retry-000001' };
    tab.send(frame);
    tab.send(frame);
    await expect.poll(() => tab.frames.filter((f) => f.type === 'message_sent').length).toBe(2);
    const ids = tab.frames.flatMap((f) => (f.type === 'message_sent' ? [f._id] : []));
    expect(new Set(ids).size).toBe(1);
    expect(await stored(a)).toHaveLength(1);
  });

  it('stores a socket’s messages in the order it sent them, however fast they come', async () => {
    const [a, b] = [await member(), await member()];
    const tab = await connect(a);
    const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
    for (const [i, content] of words.entries())
      tab.send({ type: 'message', receiverId: b.userId, content, clientId: `order-${String(i).padStart(6, '0')}` });
    await expect.poll(() => tab.frames.filter((f) => f.type === 'message_sent').length).toBe(words.length);
    expect((await stored(a)).map((row) => row.content)).toEqual(words);
    expect(tab.frames.flatMap((f) => (f.type === 'message_sent' ? [f.content] : []))).toEqual(words);
  });

  it('answers bad frames, oneself, unknown members and floods with error frames in the page’s language', async () => {
    const [a, b] = [await member(), await member()];
    const zh = await connect(a);
    const en = await connect(b, 'en');
    const error = (client: Client, n: number) =>
      expect.poll(() => client.frames.filter((f) => f.type === 'error').length).toBe(n);
    // The last error, not the last frame: a presence frame may come after it.
    const lastError = (client: Client) => client.frames.filter((f) => f.type === 'error').at(-1);
    zh.send({ type: 'message', receiverId: b.userId, content: '   ', clientId: 'empty-00001' });
    await error(zh, 1);
    expect(lastError(zh)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: '请输入消息',
      clientId: 'empty-00001',
    });
    zh.send({ type: 'message', receiverId: b.userId, content: '\u2800\u200B\u0301\u3164', clientId: 'blank-00001' });
    await error(zh, 2);
    expect(lastError(zh)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: '消息只有看不见的字符（空格、零宽字符、空白符号或单独的附加符号），请写些能看到的内容',
      clientId: 'blank-00001',
    });
    en.send({ type: 'message', receiverId: a.userId, content: 'x'.repeat(501) });
    await error(en, 1);
    expect(lastError(en)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Message can be at most 500 characters long',
    });
    zh.send({ type: 'message', receiverId: a.userId, content: 'me' });
    await error(zh, 3);
    expect(lastError(zh)).toMatchObject({ code: 'CHAT_SELF', message: '不能给自己发私信' });
    zh.send({ type: 'message', receiverId: 2_000_000_000, content: 'who' });
    await error(zh, 4);
    expect(lastError(zh)).toMatchObject({ code: 'NOT_FOUND' });
    zh.send({ type: 'message', receiverId: '12', content: 'x' });
    zh.send({ type: 'message', receiverId: b.userId, content: 'x', extra: true });
    zh.send({ type: 'nonsense' });
    zh.send({ type: 'message', receiverId: b.userId, content: 'bad\u0000' });
    await error(zh, 8);
    expect(await stored(a)).toHaveLength(0);
    // The per-member limit: the next one past it is refused and not stored.
    for (let i = 0; i <= CHAT_SEND_LIMIT; i++) en.send({ type: 'message', receiverId: a.userId, content: `n${i}` });
    await expect.poll(() => en.frames.some((f) => f.type === 'error' && f.code === 'RATE_LIMITED')).toBe(true);
    await expect.poll(async () => (await stored(b)).length).toBe(CHAT_SEND_LIMIT);
    expect(en.ws.readyState).toBe(WebSocket.OPEN);
  });

  // Two server processes on one PostgreSQL (LISTEN/NOTIFY between them): a second app on the same
  // database with its own HTTP server, as a second process or host would be.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'delivers to a member connected to another server process, and knows they are online there',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-chat-2-'));
      const config = loadConfig({
        DATA_DIR: dataDir,
        DATABASE_URL: app.database.url,
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        PUBLIC_ORIGIN: 'http://hikari.test',
        JWT_SECRET: app.ctx.config.jwtSecret,
      });
      const other = await createAppContext(config, {
        logger: createLogger('silent'),
        buildId: 'test-build',
        worker: false,
      });
      const otherHttp = createHttpServer(other.ctx, { clientDir: dataDir, astro: async (_req, res) => void res.end() });
      await new Promise<void>((resolve) => otherHttp.server.listen(0, '127.0.0.1', resolve));
      try {
        await other.ctx.bus.ready();
        await app.ctx.bus.ready();
        const otherPort = (otherHttp.server.address() as AddressInfo).port;
        const [a, b] = [await member(), await member()];
        await sendMessage(app.ctx.db, b.id, { receiverId: a.userId, content: 'contacts' });
        const here = await connect(a);
        const there = await connect(b, 'zh-CN', otherPort);
        expect(await here.next((f) => f.type === 'user_status' && f.userId === b.userId)).toMatchObject({
          status: 'online',
        });
        here.send({ type: 'message', receiverId: b.userId, content: '跨进程', clientId: 'cross-000001' });
        expect(await there.next((f) => f.type === 'message')).toMatchObject({ senderId: a.userId, content: '跨进程' });
        there.send({ type: 'message', receiverId: a.userId, content: 'back' });
        expect(await here.next((f) => f.type === 'message')).toMatchObject({ senderId: b.userId, content: 'back' });
        there.ws.close(1000);
        expect(
          await here.next((f) => f.type === 'user_status' && f.userId === b.userId && f.status === 'offline'),
        ).toBeTruthy();
      } finally {
        await otherHttp.shutdown(1000);
        await other.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
