import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SessionData } from '../../src/shared/auth.ts';
import { createHttpServer, type AstroHandler, type HttpServer } from '../../src/server/http/server.ts';
import { CHAT_CLOSE } from '../../src/server/modules/chat/chat.limits.ts';
import { createChatModule } from '../../src/server/modules/chat/index.ts';
import { appModules } from '../../src/server/modules/index.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { setUserStatus } from '../../src/server/modules/users/users.service.ts';
import { authDepsOf } from '../../src/server/modules/auth/sessions.service.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { data, post, registerUser } from '../support/accounts.ts';

const ORIGIN = 'http://hikari.test';
const HEARTBEAT_MS = 200;

interface Reply {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

function get(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Writes raw bytes on a new connection and collects what comes back until the server closes it. */
function raw(
  port: number,
  chunks: (string | Buffer)[],
  options: { gapMs?: number; timeoutMs?: number } = {},
): Promise<{ text: string; closedByServer: boolean; elapsedMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearInterval(trickle);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text, closedByServer, elapsedMs: Date.now() - started });
    };
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    const queue = [...chunks];
    socket.write(queue.shift() ?? '');
    const trickle = setInterval(() => {
      const next = queue.shift();
      if (next !== undefined && socket.writable) socket.write(next);
    }, options.gapMs ?? 10);
    const limit = setTimeout(() => finish(false), options.timeoutMs ?? 3000);
  });
}

/** Sends the start of a request and then a TCP reset, optionally after a pause. */
function sendAndReset(port: number, data: string | Buffer, afterMs = 0): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(data);
      setTimeout(() => {
        socket.resetAndDestroy();
        resolve();
      }, afterMs);
    });
    socket.on('error', () => resolve());
  });
}

function upgradeRequest(urlPath: string, extra = ''): string {
  return (
    `GET ${urlPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n${extra}\r\n`
  );
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the server under hostile traffic', () => {
  let app: TestApp;
  let http: HttpServer;
  let port: number;
  let clientDir: string;
  let trap: NetServer | undefined;
  const open: WebSocket[] = [];

  const chatUrl = (token: string) => `ws://127.0.0.1:${port}/ws/chat?token=${encodeURIComponent(token)}`;

  function openChat(token: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(chatUrl(token), options);
      open.push(ws);
      ws.on('open', () => resolve(ws));
      ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
      ws.on('error', reject);
    });
  }

  function refusedWith(url: string, options: WebSocket.ClientOptions = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('upgrade was accepted')));
      ws.on('error', () => undefined);
    });
  }

  const closeOf = (ws: WebSocket) =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve({ code: -1, reason: 'already closed' });
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });

  async function expectHealthy() {
    const res = await get(port, '/api/health');
    expect(res.status).toBe(200);
  }

  async function login(name: string, password: string): Promise<SessionData> {
    return data((await post<SessionData>(app, '/v2/user/login', { account: name, password })).body);
  }

  beforeAll(async () => {
    const modules = appModules.map((m) => (m.name === 'chat' ? createChatModule({ heartbeatMs: HEARTBEAT_MS }) : m));
    app = await createTestApp({ PUBLIC_ORIGIN: ORIGIN }, { modules });
    clientDir = mkdtempSync(path.join(tmpdir(), 'hikari-hostile-'));
    mkdirSync(path.join(clientDir, '_astro'));
    writeFileSync(path.join(clientDir, '_astro/app.abc123.js'), 'console.log("hikari");');
    writeFileSync(path.join(clientDir, '_astro/big.abc123.bin'), randomBytes(4 * 1024 * 1024));
    const astro: AstroHandler = async (req, res) => {
      // Pages read form bodies; consume it like a page would.
      for await (const _chunk of req) void _chunk;
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('page');
    };
    http = createHttpServer(app.ctx, {
      clientDir,
      astro,
      limits: { headersTimeout: 600, requestTimeout: 1500, keepAliveTimeout: 500, connectionsCheckingInterval: 100 },
    });
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    port = (http.server.address() as AddressInfo).port;
  });

  // In production any of these would have ended the process.
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  beforeAll(() => {
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
  });
  afterEach(() => expect(uncaught).toEqual([]));

  afterAll(async () => {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
    for (const ws of open) ws.terminate();
    trap?.close();
    if (http.server.listening) await http.shutdown(1000);
    await app.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('survives upgrades on any path followed by a TCP reset, with and without a token', async () => {
    const { session } = await registerUser(app, 'Resetter');
    const token = encodeURIComponent(session.hikariAccessToken);
    const paths = [
      `/${randomBytes(6).toString('hex')}`,
      '/api/health',
      '/ws/chat',
      '/ws/chat?token=forged',
      `/ws/chat?token=${token}`,
      `/ws/${randomBytes(4).toString('hex')}?token=${token}`,
    ];
    for (const p of paths) {
      for (const afterMs of [0, 1, 5, 20]) {
        await sendAndReset(port, upgradeRequest(p), afterMs);
        await sendAndReset(port, upgradeRequest(p, `Origin: ${ORIGIN}\r\n`).slice(0, 40), afterMs);
      }
    }
    // A handshake that completes, then a reset instead of a close frame.
    const ws = await openChat(session.hikariAccessToken);
    (ws as unknown as { _socket: { resetAndDestroy: () => void } })._socket.resetAndDestroy();
    await pause(100);
    await expectHealthy();
  });

  it('answers garbage, oversized headers and bad Range headers without going down', async () => {
    const garbage = await raw(port, ['\x00\x01GARBAGE /\x7f HTTP/9.9\r\n\r\n']);
    expect(garbage.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage.closedByServer).toBe(true);
    const huge = await raw(port, [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\n\r\n`]);
    expect(huge.text).toMatch(/^HTTP\/1\.1 431 /);
    const smuggle = await raw(port, [
      'POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]);
    expect(smuggle.text).toMatch(/^HTTP\/1\.1 400 /);

    // Start after end, numbers beyond exact integers, suffix and multiple ranges: the whole file instead.
    for (const range of ['bytes=5-2', 'bytes=0-99999999999999999999', 'bytes=-3', 'bytes=0-1,3-4', 'bytes=x-y']) {
      const res = await get(port, '/_astro/app.abc123.js', { range });
      expect(res.status, range).toBe(200);
      expect(res.body).toBe('console.log("hikari");');
    }
    const partial = await get(port, '/_astro/app.abc123.js', { range: 'bytes=0-6' });
    expect(partial.status).toBe(206);
    expect(partial.body).toBe('console');
    await expectHealthy();
  });

  it('survives request bodies cut off by a reset, and responses the client resets mid-stream', async () => {
    const head = (p: string) =>
      `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"account":"`;
    for (const p of ['/api/v2/user/login', '/api/user/logout', '/img?url=x', '/some/page', '/media/a.png']) {
      for (const afterMs of [0, 5, 30]) await sendAndReset(port, head(p) + 'a'.repeat(1000), afterMs);
    }
    const chunked = 'POST /api/v2/user/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab';
    await sendAndReset(port, chunked, 10);

    // Each download reset mid-stream must give its file descriptor back.
    const openFiles = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0);
    const filesBefore = openFiles();
    for (let i = 0; i < 8; i++) {
      await new Promise<void>((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/_astro/big.abc123.bin', agent: false }, (res) => {
          res.once('data', () => {
            req.socket?.resetAndDestroy();
            resolve();
          });
        });
        req.on('error', () => resolve());
        req.end();
      });
    }
    await pause(100);
    expect(openFiles() - filesBefore).toBeLessThan(4);
    await expectHealthy();
  });

  it('ends a file response whose file cannot be read, instead of the process', async () => {
    // A socket file passes the existence check but cannot be opened for reading (ENXIO).
    const mediaDir = path.join(app.ctx.config.dataDir, 'media');
    mkdirSync(mediaDir, { recursive: true });
    trap = createNetServer();
    await new Promise<void>((resolve) => trap?.listen(path.join(mediaDir, 'trap.png'), resolve));
    await expect(get(port, '/media/trap.png')).rejects.toThrow(/socket hang up|ECONNRESET/);
    await expectHealthy();
  });

  it('answers a header trickle with 408 and closes it within the header timeout', async () => {
    const lines = ['GET /api/health HTTP/1.1\r\n', ...Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
    const slow = await raw(port, lines, { gapMs: 100, timeoutMs: 4000 });
    expect(slow.closedByServer).toBe(true);
    expect(slow.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.elapsedMs).toBeLessThan(2500);

    // A connection that never sends a byte is closed too.
    const silent = await raw(port, [''], { timeoutMs: 4000 });
    expect(silent.closedByServer).toBe(true);
    expect(silent.elapsedMs).toBeLessThan(2500);

    // A body trickled slower than the request timeout allows.
    const body = ['POST /some/page HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n', ...Array(100).fill('a')];
    const trickled = await raw(port, body, { gapMs: 100, timeoutMs: 5000 });
    expect(trickled.closedByServer).toBe(true);
    expect(trickled.elapsedMs).toBeLessThan(3500);
    await expectHealthy();
  });

  it('refuses a browser upgrade from another origin with 403, and accepts ours and non-browser clients', async () => {
    const { session } = await registerUser(app, 'Origin');
    const url = chatUrl(session.hikariAccessToken);
    expect(await refusedWith(url, { origin: 'http://evil.test' })).toBe(403);
    expect(await refusedWith(url, { origin: 'null' })).toBe(403);
    expect(await refusedWith(url, { origin: 'http://hikari.test.evil.test' })).toBe(403);
    const ours = await openChat(session.hikariAccessToken, { origin: ORIGIN });
    const none = await openChat(session.hikariAccessToken);
    ours.close();
    none.close();
    await Promise.all([closeOf(ours), closeOf(none)]);
  });

  it('closes a socket that sends an oversized frame with 1009, invalid UTF-8 with 1007, binary with 1003', async () => {
    const { session } = await registerUser(app, 'Framer');
    const receiverId = 'a'.repeat(24);

    // The largest legitimate frame: 500 characters, each a surrogate pair written as escapes.
    const ok = await openChat(session.hikariAccessToken);
    const content = '\\ud83d\\ude00'.repeat(500);
    const frame = `{"type":"message","receiverId":"${receiverId}","content":"${content}"}`;
    expect(frame.length).toBeGreaterThan(6000);
    ok.send(frame);
    ok.send(JSON.stringify({ type: 'message', receiverId, content: '光'.repeat(500) }));
    ok.send(JSON.stringify({ type: 'ping' }));
    await pause(100);
    expect(ok.readyState).toBe(WebSocket.OPEN);

    const big = await openChat(session.hikariAccessToken);
    const bigClosed = closeOf(big);
    big.send(JSON.stringify({ type: 'message', receiverId, content: 'x'.repeat(9000) }));
    expect((await bigClosed).code).toBe(1009);

    const bad = await openChat(session.hikariAccessToken);
    const badClosed = closeOf(bad);
    bad.send(Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]), { binary: false });
    expect((await badClosed).code).toBe(1007);

    const binary = await openChat(session.hikariAccessToken);
    const binaryClosed = closeOf(binary);
    binary.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await binaryClosed).code).toBe(CHAT_CLOSE.binary.code);

    const flood = await openChat(session.hikariAccessToken);
    const floodClosed = closeOf(flood);
    for (let i = 0; i < 60; i++) flood.send('{"type":"ping"}');
    expect((await floodClosed).code).toBe(CHAT_CLOSE.flood.code);

    ok.close();
    await closeOf(ok);
    await expectHealthy();
  });

  it('drops sockets that do not answer pings, even those that send {type:"ping"}, and keeps those that answer', async () => {
    const { session } = await registerUser(app, 'Sleeper');
    const deaf = await openChat(session.hikariAccessToken, { autoPong: false });
    const talker = await openChat(session.hikariAccessToken, { autoPong: false });
    const answerer = await openChat(session.hikariAccessToken);
    // The talker writes its application ping on every protocol ping it reads, and never answers.
    talker.on('ping', () => talker.send('{"type":"ping"}'));
    let pings = 0;
    answerer.on('ping', () => pings++);
    expect((await Promise.all([closeOf(deaf), closeOf(talker)])).map((c) => c.code)).toEqual([1006, 1006]);
    // Three more heartbeats after the others were cut: still open.
    const seen = pings;
    await expect.poll(() => pings, { timeout: HEARTBEAT_MS * 10 }).toBeGreaterThanOrEqual(seen + 3);
    expect(answerer.readyState).toBe(WebSocket.OPEN);
  });

  it('caps the sockets of one account: one more is closed with 4008 and the others stay', async () => {
    const { session } = await registerUser(app, 'Tabs');
    const tabs = await Promise.all(Array.from({ length: 5 }, () => openChat(session.hikariAccessToken)));
    const extra = await openChat(session.hikariAccessToken);
    const refused = await closeOf(extra);
    expect(refused).toEqual({ code: 4008, reason: 'too many connections' });
    await pause(50);
    expect(tabs.every((t) => t.readyState === WebSocket.OPEN)).toBe(true);
    // Another account is not affected.
    const other = await registerUser(app, 'Neighbour');
    const theirs = await openChat(other.session.hikariAccessToken);
    // A closed tab frees its place.
    tabs[0]?.close();
    await closeOf(tabs[0]!);
    const again = await openChat(session.hikariAccessToken);
    await pause(50);
    expect(again.readyState).toBe(WebSocket.OPEN);
    for (const ws of [...tabs, again, theirs]) ws.close();
    await Promise.all([...tabs, again, theirs].map(closeOf));
  });

  it('closes a socket when its access token expires, and refuses expired tokens', async () => {
    const { session } = await registerUser(app, 'Expiring');
    const userId = session.user._id;
    // Tokens signed "an hour ago" must not count as issued before the password was set.
    await app.ctx.db
      .updateTable('users')
      .set({ password_changed_at: new Date(Date.now() - 2 * 3600_000).toISOString() })
      .where('id', '=', userId)
      .execute();
    const shortLived = await signAccessToken(
      app.ctx.config.jwtSecret,
      { id: userId, group: 'user' },
      Date.now() - 3600_000 + 2500,
    );
    const ws = await openChat(shortLived);
    const started = Date.now();
    const closed = await closeOf(ws);
    expect(closed).toEqual({ code: CHAT_CLOSE.tokenExpired.code, reason: 'token expired' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await refusedWith(chatUrl(shortLived))).toBe(401);
  });

  it('closes the sockets of a login on logout, with 1000, and leaves other logins open', async () => {
    const { session, password } = await registerUser(app, 'Leaver');
    const second = await login('Leaver', password);
    const mine = await openChat(session.hikariAccessToken);
    const other = await openChat(second.hikariAccessToken);
    const closed = closeOf(mine);
    await post(app, '/user/logout', { hikariRefreshToken: session.hikariRefreshToken });
    expect(await closed).toEqual({ code: 1000, reason: 'logged out' });
    await pause(HEARTBEAT_MS * 2);
    expect(other.readyState).toBe(WebSocket.OPEN);
    // The logged-out login cannot come back with its still unexpired access token.
    expect(await refusedWith(chatUrl(session.hikariAccessToken))).toBe(401);
    other.close();
    await closeOf(other);
  });

  it('closes every socket of an account on a password change, and of a banned account', async () => {
    const { session, password } = await registerUser(app, 'Changer');
    const ws = await openChat(session.hikariAccessToken);
    const closed = closeOf(ws);
    const res = await app.request('/api/user/change-password', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.hikariAccessToken}` },
      body: JSON.stringify({ oldPassword: password, newPassword: 'another horse battery' }),
    });
    expect(res.status).toBe(200);
    expect(await closed).toEqual({ code: CHAT_CLOSE.sessionEnded.code, reason: 'session ended' });

    // A ban set directly in the database is found by the periodic re-check.
    const banned = await registerUser(app, 'Banned');
    const bws = await openChat(banned.session.hikariAccessToken);
    const bclosed = closeOf(bws);
    await setUserStatus(authDepsOf(app.ctx), banned.session.user._id, 'banned');
    expect(await bclosed).toEqual({ code: CHAT_CLOSE.banned.code, reason: 'account banned' });
    expect(await refusedWith(chatUrl(banned.session.hikariAccessToken))).toBe(403);
  });

  it('still answers /api/health after all of it', async () => {
    await expectHealthy();
    const res = await get(port, '/api/health');
    expect(JSON.parse(res.body)).toMatchObject({ success: true });
  });
});
