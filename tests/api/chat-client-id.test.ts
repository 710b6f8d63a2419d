import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { ChatServerFrame } from '../../src/shared/chat/chat-model.ts';
import { createHttpServer, type HttpServer } from '../../src/server/http/server.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { sendMessage } from '../../src/server/modules/chat/chat.send.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { connectChat, type ChatClient } from '../support/chat-client.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

interface Member {
  id: string;
  userId: number;
  token: string;
}

const CLASH = { code: 'CHAT_CLIENT_ID_TAKEN', status: 409 };

// A message's clientId makes a retry idempotent, and only a retry: the same receiver and content get
// the stored message back; another receiver or other words under a known clientId are refused, not
// stored, not delivered (an earlier message must never be acknowledged or delivered in their place).
describe('chat clientId', () => {
  let app: TestApp;
  let http: HttpServer;
  let port = 0;
  let count = 0;
  const open: WebSocket[] = [];

  async function member(): Promise<Member> {
    count += 1;
    const name = `cid_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    return { id: user.id, userId: user.user_id, token };
  }
  const send = (from: Member, to: Member, content: string, clientId: string) =>
    sendMessage(app.ctx.db, from.id, { receiverId: to.userId, content, clientId });
  const stored = (sender: Member) =>
    app.ctx.db.selectFrom('private_message').selectAll().where('sender_id', '=', sender.id).orderBy('id').execute();
  const contactsOf = (who: Member) =>
    app.ctx.db.selectFrom('chat_contact').selectAll().where('user_id', '=', who.id).execute();
  async function connect(who: Member, locale = 'zh-CN'): Promise<ChatClient> {
    const client = await connectChat(`ws://127.0.0.1:${port}/ws/chat?token=${encodeURIComponent(who.token)}`, locale);
    open.push(client.ws);
    return client;
  }

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

  it('answers a retry with the stored message, and refuses the clientId for another receiver or other words', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const first = await send(a, b, 'hello', 'cid-00000001');
    const again = await send(a, b, 'hello', 'cid-00000001');
    expect(again).toEqual({ ...first, duplicate: true });
    await expect(send(a, c, 'hello', 'cid-00000001')).rejects.toMatchObject(CLASH);
    await expect(send(a, b, 'hello!', 'cid-00000001')).rejects.toMatchObject(CLASH);
    await expect(send(a, c, 'something else', 'cid-00000001')).rejects.toMatchObject(CLASH);
    // One row; c has no conversation with a; b's unread count went up once.
    expect((await stored(a)).map((row) => [row.receiver_id, row.content])).toEqual([[b.id, 'hello']]);
    expect(await contactsOf(c)).toEqual([]);
    expect((await contactsOf(b)).map((row) => Number(row.unread_count))).toEqual([1]);
    // Another sender's clientIds are their own.
    expect((await send(c, b, 'mine', 'cid-00000001')).duplicate).toBe(false);
  });

  it('settles sends with one clientId at once: one is stored, its retries get it, the others are refused', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const variants = [
      { to: b, content: 'same' },
      { to: c, content: 'same' },
      { to: b, content: 'other' },
    ];
    const attempts = Array.from({ length: 12 }, (_, i) => variants[i % variants.length]!);
    const results = await Promise.allSettled(attempts.map((v) => send(a, v.to, v.content, 'cid-race-0001')));
    const rows = await stored(a);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    results.forEach((result, i) => {
      const { to, content } = attempts[i]!;
      if (to.id === row.receiver_id && content === row.content)
        expect(result).toMatchObject({ status: 'fulfilled', value: { message: { _id: String(row.id), content } } });
      else expect(result).toMatchObject({ status: 'rejected', reason: CLASH });
    });
    // Only the stored message's conversation exists, counted once.
    const unread = [...(await contactsOf(b)), ...(await contactsOf(c))].map((r) => Number(r.unread_count));
    expect(unread).toEqual([1]);
  });

  it('answers a reused clientId on the socket with an error frame naming it, and delivers nothing', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const [tabA, otherTabA, tabB, tabC] = [
      await connect(a),
      await connect(a, 'en'),
      await connect(b),
      await connect(c),
    ];
    const contents = (client: ChatClient) =>
      client.frames.flatMap((f) => (f.type === 'message' || f.type === 'message_sent' ? [f.content] : []));
    tabA.send({ type: 'message', receiverId: b.userId, content: 'first', clientId: 'cid-sock-0001' });
    const sent = (await tabA.next((f) => f.type === 'message_sent')) as Extract<
      ChatServerFrame,
      { type: 'message_sent' }
    >;
    await tabB.next((f) => f.type === 'message' && f._id === sent._id);
    await otherTabA.next((f) => f.type === 'message_sent' && f._id === sent._id);

    tabA.send({ type: 'message', receiverId: c.userId, content: 'first', clientId: 'cid-sock-0001' });
    tabA.send({ type: 'message', receiverId: b.userId, content: 'changed', clientId: 'cid-sock-0001' });
    otherTabA.send({ type: 'message', receiverId: c.userId, content: 'from the other tab', clientId: 'cid-sock-0001' });
    await expect.poll(() => tabA.frames.filter((f) => f.type === 'error').length).toBe(2);
    expect(tabA.frames.filter((f) => f.type === 'error')).toEqual([
      { type: 'error', code: CLASH.code, clientId: 'cid-sock-0001', message: expect.stringContaining('刷新页面') },
      { type: 'error', code: CLASH.code, clientId: 'cid-sock-0001', message: expect.stringContaining('刷新页面') },
    ]);
    expect(await otherTabA.next((f) => f.type === 'error')).toEqual({
      type: 'error',
      code: CLASH.code,
      clientId: 'cid-sock-0001',
      message: expect.stringContaining('reload the page'),
    });
    // Frames of one socket are handled in order and the bus keeps order: once these markers arrived,
    // anything the refused frames had caused would have arrived before them.
    tabA.send({ type: 'message', receiverId: c.userId, content: 'marker c', clientId: 'cid-mark-000c' });
    tabA.send({ type: 'message', receiverId: b.userId, content: 'marker b', clientId: 'cid-mark-000b' });
    await tabC.next((f) => f.type === 'message' && f.content === 'marker c');
    await tabB.next((f) => f.type === 'message' && f.content === 'marker b');
    await otherTabA.next((f) => f.type === 'message_sent' && f.content === 'marker b');
    await tabA.next((f) => f.type === 'message_sent' && f.content === 'marker b');
    expect(contents(tabC)).toEqual(['marker c']);
    expect(contents(tabB)).toEqual(['first', 'marker b']);
    expect(contents(tabA)).toEqual(['first', 'marker c', 'marker b']);
    expect(contents(otherTabA)).toEqual(['first', 'marker c', 'marker b']);
    expect((await stored(a)).map((row) => row.content)).toEqual(['first', 'marker c', 'marker b']);

    // The real retry is acknowledged once, with the stored message.
    tabA.send({ type: 'message', receiverId: b.userId, content: 'first', clientId: 'cid-sock-0001' });
    tabA.send({ type: 'message', receiverId: b.userId, content: 'marker 2', clientId: 'cid-mark-0002' });
    await tabA.next((f) => f.type === 'message_sent' && f.content === 'marker 2');
    const acks = tabA.frames.filter((f) => f.type === 'message_sent' && f.clientId === 'cid-sock-0001');
    expect(acks).toEqual([sent, sent]);
    expect(await stored(a)).toHaveLength(4);
  });
});
