import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../../platform/logger.ts';
import { createSessionEvents } from '../auth/auth.events.ts';
import { createChatGateway, type ChatGateway, type ChatSocket } from './chat.gateway.ts';
import { CHAT_CLOSE, CHAT_LIMITS, type ChatLimits } from './chat.limits.ts';

const CAP = CHAT_LIMITS.maxBufferedBytes;
/** A large server frame (the test's own), so the kernel's buffers fill in a few hundred frames. */
const BIG = { type: 'text', content: 'x'.repeat(16 * 1024) };

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

/** A gateway whose token is the account id, and the server side of each accepted socket, in order. */
async function start(limits: Partial<ChatLimits>) {
  const closed: ChatSocket[] = [];
  const onClosed: (() => void)[] = [];
  const g = createChatGateway({
    logger: createLogger('silent'),
    publicOrigin: 'http://hikari.test',
    authenticate: async (token) => ({
      userId: token,
      publicId: 1,
      sessionId: null,
      issuedAt: Date.now(),
      expiresAt: Date.now() + 3600_000,
    }),
    findEnded: async (ids) => ids.map(() => null),
    events: createSessionEvents(),
    onClose: (socket) => {
      closed.push(socket);
      for (const wake of onClosed.splice(0)) wake();
    },
    limits,
  });
  gateway = g;
  const serverSides: Socket[] = [];
  server = createServer((_req, res) => res.end());
  server.on('upgrade', (req, socket, head) => {
    serverSides.push(socket as Socket);
    g.handleUpgrade(req, socket, head);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  /** Opens a socket of `account` that counts the frames it reads. */
  const open = async (account: string) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${account}`);
    clients.push(ws);
    let frames = 0;
    const waiting: { n: number; wake: () => void }[] = [];
    ws.on('message', () => {
      frames++;
      for (const w of waiting.splice(0)) (frames >= w.n ? w.wake : () => waiting.push(w))();
    });
    await new Promise((resolve) => ws.once('open', resolve));
    return {
      ws,
      serverSide: serverSides.at(-1)!,
      /** Resolves once this socket has read `n` frames. */
      read: (n: number) => new Promise<void>((wake) => (frames >= n ? wake() : waiting.push({ n, wake }))),
    };
  };
  /** Resolves once `n` sockets have closed on the server. */
  const closedCount = (n: number) =>
    new Promise<void>(function check(resolve) {
      if (closed.length >= n) resolve();
      else onClosed.push(() => check(resolve));
    });
  return { gateway: g, open, closed, closedCount };
}

type Harness = Awaited<ReturnType<typeof start>>;
type Client = Awaited<ReturnType<Harness['open']>>;

/** The client's TCP socket: paused, it reads nothing, as a peer that stopped reading. */
const tcpOf = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket;

/**
 * Streams BIG frames to the account `slow` (its `slowSockets` are the `paused` one and any reader among
 * `readers`) and to `other`, each reader awaited frame by frame, until the paused one stops taking them;
 * answers how many were sent and the most its server side ever held unsent.
 */
async function streamUntilCut(h: Harness, paused: Client, readers: Client[], slowSockets: number) {
  let most = 0;
  for (let sent = 1; sent <= 2000; sent++) {
    const got = h.gateway.deliver('slow', BIG);
    h.gateway.deliver('other', BIG);
    most = Math.max(most, paused.serverSide.writableLength);
    await Promise.all(readers.map((r) => r.read(sent)));
    if (got < slowSockets) return { sent, most };
  }
  throw new Error('the paused socket was never cut');
}

// A socket whose peer does not read (spec §4's client reads everything; this is a stuck or hostile
// one): the server holds at most CHAT_LIMITS.maxBufferedBytes for it, then closes it with 4009, and
// cuts it when the close is not answered, while its member's other sockets and other members go on.
describe('chat backpressure', () => {
  it('closes a socket that does not read with 4009 once it holds the cap, and the others keep receiving', async () => {
    const h = await start({ closeGraceMs: 60_000 });
    const paused = await h.open('slow');
    const sameMember = await h.open('slow');
    const otherMember = await h.open('other');
    tcpOf(paused.ws).pause();
    const { sent, most } = await streamUntilCut(h, paused, [sameMember, otherMember], 2);
    // The kernel's buffers took some first; then the server held frames up to the cap, never more.
    expect(most).toBeGreaterThan(CAP - 2 * JSON.stringify(BIG).length);
    expect(most).toBeLessThanOrEqual(CAP);
    expect(paused.serverSide.writableLength).toBeLessThanOrEqual(CAP + 64);
    // The member's other socket and another member go on.
    for (let more = 1; more <= 20; more++) {
      expect(h.gateway.deliver('slow', BIG)).toBe(1);
      expect(h.gateway.deliver('other', BIG)).toBe(1);
    }
    await Promise.all([sameMember.read(sent + 20), otherMember.read(sent + 20)]);
    // Read at last, the stuck socket finds the close after its frames.
    const closed = new Promise<[number, string]>((resolve) =>
      paused.ws.once('close', (code, reason) => resolve([code, reason.toString()])),
    );
    tcpOf(paused.ws).resume();
    expect(await closed).toEqual([CHAT_CLOSE.slowReader.code, CHAT_CLOSE.slowReader.reason]);
    await h.closedCount(1);
    expect(h.gateway.size).toBe(2);
    expect([sameMember.ws.readyState, otherMember.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
  });

  it('cuts a closed socket whose peer never reads within the grace, and lets go of what it held', async () => {
    const h = await start({ closeGraceMs: 20 });
    const paused = await h.open('slow');
    const reader = await h.open('other');
    tcpOf(paused.ws).pause();
    await streamUntilCut(h, paused, [reader], 1);
    expect(paused.serverSide.writableLength).toBeGreaterThan(0);
    await h.closedCount(1);
    expect(h.closed.map((s) => s.identity.userId)).toEqual(['slow']);
    expect(paused.serverSide.destroyed).toBe(true);
    expect(paused.serverSide.writableLength).toBe(0);
    expect(h.gateway.size).toBe(1);
    expect(h.gateway.deliver('slow', BIG)).toBe(0);
    expect(h.gateway.deliver('other', BIG)).toBe(1);
  });
});
