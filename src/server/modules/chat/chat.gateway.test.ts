import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpError } from '../../platform/errors.ts';
import { createLogger } from '../../platform/logger.ts';
import { createSessionEvents, type SessionEvents } from '../auth/auth.events.ts';
import { createChatGateway, type ChatGateway, type ChatGatewayDeps } from './chat.gateway.ts';
import { CHAT_CLOSE } from './chat.limits.ts';
import type { ChatIdentity, SessionEnd } from './chat.sessions.ts';

const identity = (userId: string, sessionId: string | null = null): ChatIdentity => ({
  userId,
  publicId: 1,
  sessionId,
  issuedAt: Date.now(),
  expiresAt: Date.now() + 3600_000,
});

interface Harness {
  gateway: ChatGateway;
  events: SessionEvents;
  url: (token: string) => string;
}

let server: Server | undefined;
let gateway: ChatGateway | undefined;
const clients: WebSocket[] = [];

afterEach(async () => {
  for (const ws of clients.splice(0)) ws.terminate();
  await gateway?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  gateway = undefined;
});

async function start(overrides: Partial<ChatGatewayDeps>): Promise<Harness> {
  const events = overrides.events ?? createSessionEvents();
  gateway = createChatGateway({
    logger: createLogger('silent'),
    publicOrigin: 'http://hikari.test',
    authenticate: async (token) => identity(token),
    findEnded: async (ids) => ids.map(() => null),
    events,
    ...overrides,
  });
  const g = gateway;
  server = createServer((_req, res) => res.end());
  server.on('upgrade', (req, socket, head) => g.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { gateway: g, events, url: (token) => `ws://127.0.0.1:${port}/ws/chat?token=${token}` };
}

/** Opens a socket; resolves with the socket once open, or the HTTP status it was refused with. */
function attempt(
  url: string,
  options: WebSocket.ClientOptions = {},
): Promise<{ ws?: WebSocket; status?: number; retryAfter?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options);
    clients.push(ws);
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) =>
      resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined }),
    );
    ws.on('error', () => undefined);
  });
}

const closeOf = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );

describe('chat gateway', () => {
  it('refuses upgrades past the pending limit with 503 while tokens are being checked', async () => {
    const waiting: (() => void)[] = [];
    const h = await start({
      limits: { pendingUpgrades: 2 },
      authenticate: (token) => new Promise<ChatIdentity>((resolve) => waiting.push(() => resolve(identity(token)))),
    });
    const first = attempt(h.url('a'));
    const second = attempt(h.url('b'));
    await expect.poll(() => waiting.length).toBe(2);
    expect(await attempt(h.url('c'))).toEqual({ status: 503, retryAfter: '5' });
    for (const release of waiting.splice(0)) release();
    expect((await first).ws?.readyState).toBe(WebSocket.OPEN);
    expect((await second).ws?.readyState).toBe(WebSocket.OPEN);
    // Finished checks free their places.
    const third = attempt(h.url('d'));
    await expect.poll(() => waiting.length).toBe(1);
    waiting[0]?.();
    expect((await third).ws?.readyState).toBe(WebSocket.OPEN);
    expect(h.gateway.size).toBe(3);
  });

  it('answers 401 and 403 from the token check, and 503 when the check itself fails', async () => {
    const h = await start({
      authenticate: async (token) => {
        if (token === 'banned') throw new HttpError(403, 'ACCOUNT_BANNED', 'server.banned');
        if (token === 'down') throw new Error('database unavailable');
        throw new HttpError(401, 'TOKEN_INVALID', 'server.tokenInvalid');
      },
    });
    expect((await attempt(h.url('forged'))).status).toBe(401);
    expect((await attempt(h.url('banned'))).status).toBe(403);
    expect((await attempt(h.url('down'))).status).toBe(503);
  });

  it('refuses an upgrade still being checked when the server shuts down', async () => {
    let release: () => void = () => undefined;
    const h = await start({
      authenticate: (token) => new Promise<ChatIdentity>((resolve) => (release = () => resolve(identity(token)))),
    });
    const pending = attempt(h.url('late'));
    await new Promise((r) => setTimeout(r, 50));
    await h.gateway.close();
    release();
    expect((await pending).status).toBe(503);
  });

  it('closes sockets by login and by account on session events, with a code for the reason', async () => {
    const h = await start({ authenticate: async (token) => identity(token.split('.')[0] ?? '', token) });
    const a1 = (await attempt(h.url('alice.s1'))).ws!;
    const a2 = (await attempt(h.url('alice.s2'))).ws!;
    const b1 = (await attempt(h.url('bob.s3'))).ws!;
    const a1Closed = closeOf(a1);
    h.events.publish({ type: 'session_revoked', scope: 'family', familyId: 'alice.s1', reason: 'reuse' });
    expect(await a1Closed).toEqual({ code: CHAT_CLOSE.sessionEnded.code, reason: 'session ended' });
    expect(a2.readyState).toBe(WebSocket.OPEN);
    const a2Closed = closeOf(a2);
    h.events.publish({ type: 'session_revoked', scope: 'user', userId: 'alice', reason: 'banned' });
    expect(await a2Closed).toEqual({ code: CHAT_CLOSE.banned.code, reason: 'account banned' });
    expect(b1.readyState).toBe(WebSocket.OPEN);
  });

  it('keeps sockets open when the periodic re-check fails, and closes those it finds ended', async () => {
    let verdict: 'fail' | SessionEnd | null = 'fail';
    let checks = 0;
    const h = await start({
      limits: { heartbeatMs: 50 },
      findEnded: async (ids) => {
        checks++;
        if (verdict === 'fail') throw new Error('database unavailable');
        return ids.map(() => verdict as SessionEnd | null);
      },
    });
    const ws = (await attempt(h.url('carol'))).ws!;
    await expect.poll(() => checks).toBeGreaterThan(2);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    const closed = closeOf(ws);
    verdict = 'ended';
    expect((await closed).code).toBe(CHAT_CLOSE.sessionEnded.code);
  });

  it('cuts sockets that do not echo its ping, whatever else they send, and keeps those that do', async () => {
    let beat = () => {};
    const marks: string[] = [];
    const h = await start({
      every: (_ms, tick) => {
        beat = tick;
        return () => {};
      },
      onFrame: (frame, socket) => void marks.push(socket.identity.userId),
    });
    // Each reacts to a ping, then sends a mark: once the server has every mark, it has read the rest.
    const open = async (who: string, react: (ws: WebSocket) => void, autoPong: boolean) => {
      const ws = (await attempt(h.url(who), { autoPong })).ws!;
      ws.on('ping', () => {
        react(ws);
        ws.send(JSON.stringify({ type: 'mark' }));
      });
      return ws;
    };
    const talker = await open('talker', (ws) => ws.send(JSON.stringify({ type: 'ping' })), false);
    const forger = await open('forger', (ws) => ws.pong(Buffer.from('00000000')), false);
    const answerer = await open('answerer', () => {}, true);
    const beatAndSettle = async (expected: number) => {
      beat();
      await expect.poll(() => marks.length).toBe(expected);
    };
    await beatAndSettle(3);
    const [talkerClosed, forgerClosed] = [closeOf(talker), closeOf(forger)];
    await beatAndSettle(4);
    // Cut without a closing handshake: the peer shows no sign of reading.
    expect((await talkerClosed).code).toBe(1006);
    expect((await forgerClosed).code).toBe(1006);
    for (const expected of [5, 6, 7]) await beatAndSettle(expected);
    expect(marks.slice(3)).toEqual(['answerer', 'answerer', 'answerer', 'answerer']);
    expect(answerer.readyState).toBe(WebSocket.OPEN);
    expect(h.gateway.size).toBe(1);
  });

  it('refuses paths other than the chat path, upgrades that are not WebSocket, and missing tokens', async () => {
    const h = await start({});
    expect((await attempt(h.url('x').replace('/ws/chat', '/ws/other'))).status).toBe(404);
    expect((await attempt(h.url('').replace('?token=', ''))).status).toBe(401);
    const h2c = await new Promise<number>((resolve, reject) => {
      const req = request(h.url('x').replace('ws:', 'http:'), {
        headers: { Connection: 'Upgrade', Upgrade: 'h2c' },
        agent: false,
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.end();
    });
    expect(h2c).toBe(400);
  });
});
