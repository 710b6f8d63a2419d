import { describe, expect, it } from 'vitest';
import type { ChatServerFrame } from '../shared/chat/chat-model.ts';
import {
  CHAT_PING_MS,
  CHAT_RECONNECT_ATTEMPTS,
  createChatConnection,
  reconnectDelay,
  type SocketLike,
} from './chat-connection.ts';

/** A socket the test opens, closes and reads from by hand. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  readonly address: string;
  constructor(address: string) {
    this.address = address;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(code: number) {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code });
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

/** Timers run by the test: `advance(ms)` fires what is due, in order. */
function clock() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void; every: number | null }>();
  return {
    setTimeout: (run: () => void, ms: number) => {
      timers.set(next, { at: now + ms, run, every: null });
      return next++;
    },
    setInterval: (run: () => void, ms: number) => {
      timers.set(next, { at: now + ms, run, every: ms });
      return next++;
    },
    clear: (id: unknown) => void timers.delete(id as number),
    /** The delays of the timeouts waiting now. */
    waiting: () => [...timers.values()].filter((timer) => timer.every === null).map((timer) => timer.at - now),
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, timer] = due;
        now = timer.at;
        if (timer.every === null) timers.delete(id);
        else timer.at += timer.every;
        timer.run();
        await Promise.resolve();
        await Promise.resolve();
      }
      now = end;
    },
  };
}

function setup(token: string | null = 'tok') {
  const time = clock();
  const sockets: FakeSocket[] = [];
  const frames: ChatServerFrame[] = [];
  const opened: boolean[] = [];
  let firstErrors = 0;
  const connection = createChatConnection({
    address: async () => (token ? `ws://site/ws/chat?token=${token}` : null),
    create: (address) => {
      const socket = new FakeSocket(address);
      sockets.push(socket);
      return socket;
    },
    onFrame: (frame) => frames.push(frame),
    onOpen: (reconnected) => opened.push(reconnected),
    onFirstError: () => (firstErrors += 1),
    setTimeout: time.setTimeout,
    clearTimeout: time.clear,
    setInterval: time.setInterval,
    clearInterval: time.clear,
    log: () => undefined,
  });
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { time, sockets, frames, opened, connection, settle, firstErrors: () => firstErrors };
}

describe('chat connection (spec §4)', () => {
  it('waits min(1000 × 1.5^n, 30 000) ms before attempt n', () => {
    expect([1, 2, 3, 4, 5].map(reconnectDelay)).toEqual([1500, 2250, 3375, 5062.5, 7593.75]);
    expect(reconnectDelay(20)).toBe(30_000);
  });

  it('is connected on open, pings every 25 s, and passes frames on', async () => {
    const { connection, sockets, frames, opened, time, settle } = setup();
    connection.start();
    await settle();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.address).toBe('ws://site/ws/chat?token=tok');
    expect(connection.$status.get()).toBe('disconnected');
    sockets[0]!.open();
    expect(connection.$status.get()).toBe('connected');
    expect(opened).toEqual([false]);
    await time.advance(CHAT_PING_MS * 2);
    expect(sockets[0]!.sent).toEqual(['{"type":"ping"}', '{"type":"ping"}']);
    sockets[0]!.receive({ type: 'online_users', users: [2] });
    expect(frames).toEqual([{ type: 'online_users', users: [2] }]);
  });

  it('reconnects five times after an abnormal close, with the texts, then gives up', async () => {
    const { connection, sockets, time, settle } = setup();
    connection.start();
    await settle();
    sockets[0]!.open();
    sockets[0]!.drop(1006);
    expect(connection.$status.get()).toBe('disconnected');
    for (let attempt = 1; attempt <= CHAT_RECONNECT_ATTEMPTS; attempt++) {
      expect(connection.$notice.get()).toEqual({ kind: 'reconnecting', attempt });
      expect(time.waiting()).toEqual([reconnectDelay(attempt)]);
      await time.advance(reconnectDelay(attempt));
      await settle();
      expect(sockets).toHaveLength(attempt + 1);
      sockets[attempt]!.drop(1006);
    }
    expect(connection.$notice.get()).toEqual({ kind: 'failed' });
    expect(time.waiting()).toEqual([]);
    await time.advance(60_000);
    expect(sockets).toHaveLength(6);
  });

  it('starts the count again after a successful reconnect, and tells the owner it reconnected', async () => {
    const { connection, sockets, time, opened, settle } = setup();
    connection.start();
    await settle();
    sockets[0]!.open();
    sockets[0]!.drop(1006);
    await time.advance(reconnectDelay(1));
    await settle();
    sockets[1]!.drop(1006);
    expect(connection.$notice.get()).toEqual({ kind: 'reconnecting', attempt: 2 });
    await time.advance(reconnectDelay(2));
    await settle();
    sockets[2]!.open();
    expect(connection.$notice.get()).toBeNull();
    expect(opened).toEqual([false, true]);
    sockets[2]!.drop(1011);
    expect(connection.$notice.get()).toEqual({ kind: 'reconnecting', attempt: 1 });
  });

  it('does not reconnect after a normal close (1000), and reconnects at once when the token expired (4001)', async () => {
    const { connection, sockets, time, settle } = setup();
    connection.start();
    await settle();
    sockets[0]!.open();
    sockets[0]!.drop(4001);
    await settle();
    expect(sockets).toHaveLength(2);
    expect(connection.$notice.get()).toBeNull();
    sockets[1]!.open();
    sockets[1]!.drop(1000);
    await time.advance(60_000);
    expect(sockets).toHaveLength(2);
    expect(connection.$notice.get()).toBeNull();
  });

  it('says so when there is no token (spec §6) and opens nothing', async () => {
    const { connection, sockets, settle } = setup(null);
    connection.start();
    await settle();
    expect(sockets).toHaveLength(0);
    expect(connection.$notice.get()).toEqual({ kind: 'noToken' });
  });

  it('reports a first connection that fails once', async () => {
    const { connection, sockets, settle, firstErrors, time } = setup();
    connection.start();
    await settle();
    sockets[0]!.drop(1006);
    await time.advance(reconnectDelay(1));
    await settle();
    sockets[1]!.drop(1006);
    expect(firstErrors()).toBe(1);
  });

  it('refuses a send without an open socket and tries to connect; offline drops the socket and online retries', async () => {
    const { connection, sockets, time, settle } = setup();
    connection.start();
    await settle();
    expect(connection.send({ type: 'message' })).toBe(false);
    sockets[0]!.open();
    expect(connection.send({ type: 'message' })).toBe(true);
    connection.dropped();
    expect(sockets[0]!.closedWith).toBe(4000);
    expect(connection.$status.get()).toBe('disconnected');
    expect(connection.$notice.get()).toEqual({ kind: 'reconnecting', attempt: 1 });
    connection.retry();
    await settle();
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(connection.$notice.get()).toBeNull();
    await time.advance(10_000);
    expect(sockets).toHaveLength(2);
  });

  it('closes for good on stop', async () => {
    const { connection, sockets, time, settle } = setup();
    connection.start();
    await settle();
    sockets[0]!.open();
    connection.stop();
    expect(sockets[0]!.closedWith).toBe(1000);
    await time.advance(60_000);
    expect(sockets).toHaveLength(1);
  });
});
