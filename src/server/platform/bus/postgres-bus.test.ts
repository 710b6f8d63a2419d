import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.ts';
import { MAX_PAYLOAD_BYTES, type Bus, type PlatformLogger } from './bus.ts';
import { startPeer, type PeerProcess } from './peer-process.fixture.ts';
import { channelFor, createPostgresBus, defaultReconnectDelay } from './postgres-bus.ts';

const url = process.env.TEST_DATABASE_URL;
const peerScript = fileURLToPath(new URL('./bus-peer.fixture.ts', import.meta.url));
// Channels are per database and the test server is shared: every run uses topics of its own.
const run = randomBytes(4).toString('hex');

const quietLogger = (lines: string[] = []): PlatformLogger => ({
  error: (_d, message) => lines.push(message),
  warn: (_d, message) => lines.push(message),
  info: (_d, message) => lines.push(message),
});

/** Waits (polling every 20 ms, up to `timeoutMs`) until `check` is true. */
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('bus channel names and reconnect delays', () => {
  it('prefixes validated topics and refuses anything else', () => {
    expect(channelFor('chat.message')).toBe('hikari.chat.message');
    expect(() => channelFor('chat"; NOTIFY x; --')).toThrow(TypeError);
    expect(() => channelFor('a'.repeat(49))).toThrow(/at most 48/);
  });

  it('waits exponentially longer, with jitter, up to ten seconds', () => {
    expect(defaultReconnectDelay(0, () => 1)).toBe(100);
    expect(defaultReconnectDelay(0, () => 0)).toBe(50);
    expect(defaultReconnectDelay(3, () => 1)).toBe(800);
    expect(defaultReconnectDelay(30, () => 1)).toBe(2000);
    expect(defaultReconnectDelay(30, () => 0)).toBe(1000);
  });
});

describe('PostgreSQL bus without a server', () => {
  it('keeps trying to connect with growing attempt numbers, and stops when closed', async () => {
    const attempts: number[] = [];
    const log: string[] = [];
    const bus = createPostgresBus<Record<string, string>>({
      // Nothing listens on port 1: every attempt is refused at once.
      url: 'postgres://nobody@127.0.0.1:1/none',
      db: null as never,
      logger: quietLogger(log),
      reconnectDelayMs: (attempt) => {
        attempts.push(attempt);
        return 5;
      },
    });
    bus.subscribe('test.offline', () => {});
    await until(() => attempts.length >= 3);
    // The expectation is attached before closing, so the rejection is never unhandled.
    const ready = expect(bus.ready()).rejects.toThrow(/closed/);
    await bus.close();
    await ready;
    const seen = attempts.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(attempts.length).toBe(seen);
    expect(attempts.slice(0, 3)).toEqual([0, 1, 2]);
    expect(log[0]).toBe('bus listener could not connect; retrying');
  });
});

describe.skipIf(!url)('PostgreSQL bus (skipped when TEST_DATABASE_URL is unset)', () => {
  let handle: DatabaseHandle;
  const peers: PeerProcess[] = [];
  const buses: Bus<Record<string, string>>[] = [];

  beforeAll(() => {
    handle = connectDatabase({ dialect: 'postgres', url: url! }, { poolSize: 3 });
  });
  afterAll(async () => {
    for (const peer of peers) peer.child.kill();
    await Promise.all(buses.map((bus) => bus.close()));
    await handle.close();
  });

  it('carries events between two processes, each delivered exactly once to its publisher too', async () => {
    const topic = `test.bus_${run}.two`;
    const a = startPeer(peerScript, [url!, topic, `hikari-test-a-${run}`]);
    const b = startPeer(peerScript, [url!, topic, `hikari-test-b-${run}`]);
    peers.push(a, b);
    await Promise.all([a.waitFor((l) => l.ready === true), b.waitFor((l) => l.ready === true)]);

    a.send({ publish: 'from-a' });
    await b.waitFor((l) => l.event === 'from-a');
    b.send({ publish: 'from-b' });
    await a.waitFor((l) => l.event === 'from-b');
    // Notifications arrive in order, so a's own echo of "from-a" came before "from-b" and was skipped.
    await b.waitFor((l) => l.event === 'from-b');
    expect(a.lines.filter((l) => 'event' in l).map((l) => l.event)).toEqual(['from-a', 'from-b']);
    expect(b.lines.filter((l) => 'event' in l).map((l) => l.event)).toEqual(['from-a', 'from-b']);

    a.send({ exit: true });
    b.send({ exit: true });
    expect(await a.exited()).toBe(0);
    expect(await b.exited()).toBe(0);
  }, 60_000);

  it('listens again on a new connection after its listening connection is terminated', async () => {
    const appName = `hikari-test-reconnect-${run}`;
    const log: string[] = [];
    const listener = createPostgresBus<Record<string, string>>({
      url: url!,
      db: handle.db,
      logger: quietLogger(log),
      applicationName: appName,
      reconnectDelayMs: () => 50,
    });
    const publisher = createPostgresBus<Record<string, string>>({ url: url!, db: handle.db, logger: quietLogger() });
    buses.push(listener, publisher);
    const one = `test.bus_${run}.one`;
    const two = `test.bus_${run}.two_topics`;
    const seen: string[] = [];
    listener.subscribe(one, (p) => void seen.push(`one:${p}`));
    listener.subscribe(two, (p) => void seen.push(`two:${p}`));
    await listener.ready();

    const backendPid = async () => {
      const { rows } = await sql<{ pid: number }>`
        select pid from pg_stat_activity where application_name = ${appName}`.execute(handle.db);
      return rows.map((r) => r.pid);
    };
    const [before] = await backendPid();
    expect(before).toBeTypeOf('number');
    await sql`select pg_terminate_backend(${before})`.execute(handle.db);

    // Events sent while the listener is down are lost; keep sending until one arrives on each topic.
    let n = 0;
    await until(async () => {
      n += 1;
      await publisher.publish(one, `probe-${n}`);
      await publisher.publish(two, `probe-${n}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return seen.some((s) => s.startsWith('one:probe')) && seen.some((s) => s.startsWith('two:probe'));
    });
    const after = await backendPid();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(log).toContain('bus listener connection lost; reconnecting');

    seen.length = 0;
    await publisher.publish(one, 'after');
    await publisher.publish(two, 'after');
    await until(() => seen.length === 2);
    await listener.publish(one, 'own');
    await publisher.publish(two, 'marker');
    await until(() => seen.includes('two:marker'));
    expect(seen).toEqual(['one:after', 'two:after', 'one:own', 'two:marker']);
  });

  it('stops delivering a topic once its last subscriber leaves, and listens again on a new subscriber', async () => {
    const bus = createPostgresBus<Record<string, string>>({ url: url!, db: handle.db, logger: quietLogger() });
    const other = createPostgresBus<Record<string, string>>({ url: url!, db: handle.db, logger: quietLogger() });
    buses.push(bus, other);
    const topic = `test.bus_${run}.unlisten`;
    const marker = `test.bus_${run}.marker`;
    const got: string[] = [];
    const first = bus.subscribe(topic, (p) => void got.push(`first:${p}`));
    const second = bus.subscribe(topic, (p) => void got.push(`second:${p}`));
    bus.subscribe(marker, (p) => void got.push(`marker:${p}`));
    await bus.ready();
    await other.publish(topic, 'heard');
    await until(() => got.length === 2);
    first();
    second();
    await bus.ready();
    await other.publish(topic, 'not heard');
    await other.publish(marker, '1');
    await until(() => got.includes('marker:1'));
    const third = bus.subscribe(topic, (p) => void got.push(`third:${p}`));
    await bus.ready();
    await other.publish(topic, 'heard again');
    await until(() => got.includes('third:heard again'));
    third();
    expect(got).toEqual(['first:heard', 'second:heard', 'marker:1', 'third:heard again']);
  });

  it('carries the largest allowed payload through NOTIFY and refuses a larger one', async () => {
    const topic = `test.bus_${run}.big`;
    const receiver = createPostgresBus<Record<string, string>>({ url: url!, db: handle.db, logger: quietLogger() });
    const sender = createPostgresBus<Record<string, string>>({ url: url!, db: handle.db, logger: quietLogger() });
    buses.push(receiver, sender);
    const got: string[] = [];
    receiver.subscribe(topic, (p) => void got.push(p));
    await receiver.ready();
    // Three bytes a character, then ASCII to fill up, plus the two quotes of the JSON string.
    const wide = Math.floor((MAX_PAYLOAD_BYTES - 2) / 3);
    const largest = '光'.repeat(wide) + 'a'.repeat(MAX_PAYLOAD_BYTES - 2 - 3 * wide);
    expect(Buffer.byteLength(JSON.stringify(largest))).toBe(MAX_PAYLOAD_BYTES);
    await sender.publish(topic, largest);
    await until(() => got.length === 1);
    expect(got[0]).toBe(largest);
    await expect(sender.publish(topic, `${largest}x`)).rejects.toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });
});
