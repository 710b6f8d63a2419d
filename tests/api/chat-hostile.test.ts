import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHttpServer, type HttpServer } from '../../src/server/http/server.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { connectChat, type ChatClient } from '../support/chat-client.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

interface Member {
  id: string;
  userId: number;
  token: string;
}

// Frames no client of ours writes, and sockets that vanish in the middle of a send, against the real
// server: each is refused or ignored, the socket and the process go on, and nothing half-done is left.
describe('chat sockets under hostile frames', () => {
  let app: TestApp;
  let http: HttpServer;
  let port = 0;
  let count = 0;
  const open: WebSocket[] = [];
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  async function member(): Promise<Member> {
    count += 1;
    const name = `hf_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group: 'user' });
    return { id: user.id, userId: user.user_id, token };
  }
  const url = (who: Member) => `ws://127.0.0.1:${port}/ws/chat?token=${encodeURIComponent(who.token)}`;
  async function connect(who: Member): Promise<ChatClient> {
    const client = await connectChat(url(who));
    open.push(client.ws);
    return client;
  }
  const stored = (sender: Member) =>
    app.ctx.db.selectFrom('private_message').selectAll().where('sender_id', '=', sender.id).orderBy('id').execute();

  beforeAll(async () => {
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
    app = await createTestApp({ PUBLIC_ORIGIN: 'http://hikari.test' });
    http = createHttpServer(app.ctx, { clientDir: app.ctx.config.dataDir, astro: async (_req, res) => void res.end() });
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    port = (http.server.address() as AddressInfo).port;
  });
  afterEach(() => expect(uncaught).toEqual([]));
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    await http.shutdown(1000);
    await app.close();
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  });

  it('answers malformed, mistyped and oversized frames with errors or silence, and the socket goes on', async () => {
    const [a, b] = [await member(), await member()];
    const tab = await connect(a);
    const message = (fields: object) => JSON.stringify({ type: 'message', receiverId: b.userId, ...fields });
    const hostile = [
      '',
      'null',
      '[]',
      '"message"',
      '123',
      '{',
      '{"type":1}',
      '{"type":{"toString":"message"}}',
      '{"type":"__proto__"}',
      '{"type":"constructor","receiverId":1}',
      '{"type":"message"}',
      '{"type":"message","__proto__":{"admin":true},"receiverId":1,"content":"x"}',
      message({ content: 'bell\u0007' }),
      message({ content: 'nul\u0000' }),
      message({ content: '\u202etxt.exe' }),
      message({ content: 'x'.repeat(501) }),
      message({ content: ['array'] }),
      message({ content: 'ok', clientId: 'a'.repeat(65) }),
      message({ content: 'ok', clientId: 'bad id!!' }),
      message({ content: 'ok', clientId: 12345678 }),
      message({ content: 'ok', receiverId: -1 }),
      message({ content: 'ok', receiverId: 1e308 }),
      message({ content: 'ok', receiverId: '1 or 1=1' }),
      JSON.stringify({ type: 'presence', userIds: 'all' }),
      JSON.stringify({ type: 'presence', userIds: Array.from({ length: 51 }, (_, i) => i + 1) }),
      JSON.stringify({ type: 'ping', padding: 'p'.repeat(8000) }),
      `{"type":"message","content":"${'\\ud800'.repeat(600)}"}`,
    ];
    for (const frame of hostile) tab.ws.send(frame);
    // Handled in order: once this one is answered, every frame before it was.
    tab.send({ type: 'message', receiverId: b.userId, content: 'still here', clientId: 'hostile-0001' });
    await tab.next((f) => f.type === 'message_sent' && f.clientId === 'hostile-0001');
    expect(tab.ws.readyState).toBe(WebSocket.OPEN);
    const errors = tab.frames.filter((f) => f.type === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(15);
    expect(errors.filter((f) => f.code !== 'VALIDATION_FAILED' && f.code !== 'NOT_FOUND')).toEqual([]);
    expect((await stored(a)).map((row) => row.content)).toEqual(['still here']);
  });

  it('leaves one stored message per clientId when the sender vanishes mid-send and retries', async () => {
    const [a, b] = [await member(), await member()];
    const receiver = await connect(b);
    const clientIds = Array.from({ length: 8 }, (_, i) => `vanish-${String(i).padStart(4, '0')}`);
    for (const [i, clientId] of clientIds.entries()) {
      const ws = new WebSocket(url(a));
      ws.on('error', () => {});
      await new Promise((resolve) => ws.once('open', resolve));
      const frame = JSON.stringify({ type: 'message', receiverId: b.userId, content: `vanish ${i}`, clientId });
      // Half of them cut inside the frame, half right after a whole one.
      const tcp = (ws as unknown as { _socket: Socket })._socket;
      if (i % 2 === 0) ws.send(frame);
      else tcp.write(Buffer.from([0x81, 0xfe, 0x01, 0x00, 1, 2, 3, 4, 5, 6]));
      tcp.resetAndDestroy();
    }
    // The member comes back and retries every one of them.
    const tab = await connect(a);
    for (const [i, clientId] of clientIds.entries())
      tab.send({ type: 'message', receiverId: b.userId, content: `vanish ${i}`, clientId });
    // Its other sockets' messages stored meanwhile are told to this one too: count clientIds, not frames.
    const acknowledged = () => new Set(tab.frames.flatMap((f) => (f.type === 'message_sent' ? [f.clientId] : []))).size;
    await expect.poll(acknowledged, { timeout: 5000 }).toBe(clientIds.length);
    const rows = await stored(a);
    expect(rows.map((row) => row.client_id).sort()).toEqual(clientIds);
    // The receiver holds each stored message (once per _id).
    await expect
      .poll(() => new Set(receiver.frames.flatMap((f) => (f.type === 'message' ? [f._id] : []))).size, {
        timeout: 5000,
      })
      .toBe(rows.length);
    expect((await app.request('/api/health')).status).toBe(200);
  });
});
