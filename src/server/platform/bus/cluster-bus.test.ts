import { EventEmitter } from 'node:events';
import type { Cluster, Worker } from 'node:cluster';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.ts';
import { MAX_PAYLOAD_BYTES, type Bus, type PlatformLogger } from './bus.ts';
import { createClusterBus, isClusterBusMessage, relayClusterBus, type ClusterChannel } from './cluster-bus.ts';

type Topics = {
  'chat.message': { roomId: string; text: string };
  'user.banned': { userId: string };
};

function recordingLogger() {
  const lines: { level: string; details: object; message: string }[] = [];
  const logger: PlatformLogger = {
    error: (details, message) => lines.push({ level: 'error', details, message }),
    warn: (details, message) => lines.push({ level: 'warn', details, message }),
    info: (details, message) => lines.push({ level: 'info', details, message }),
  };
  return { logger, lines };
}

/** Lets the event loop run past the IPC hops and the bus's scheduled deliveries. */
const settled = async () => {
  for (let i = 0; i < 4; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/**
 * A cluster in one process: each "worker" has a channel whose messages reach the primary's `message`
 * event asynchronously, as IPC does, and the primary's `worker.send` reaches the worker's listeners.
 */
function fakeCluster() {
  const primary = new EventEmitter();
  const workers: Record<number, Worker> = {};
  let nextId = 1;
  const clusterLike = Object.assign(primary, { workers }) as unknown as Pick<Cluster, 'on' | 'off' | 'workers'>;

  function join(): { channel: ClusterChannel; worker: Worker; disconnect: () => void; received: unknown[] } {
    const id = nextId++;
    const listeners = new Set<(message: unknown) => void>();
    const received: unknown[] = [];
    let connected = true;
    const worker = {
      id,
      isConnected: () => connected,
      send(message: unknown, done: (error: Error | null) => void) {
        setImmediate(() => {
          received.push(message);
          for (const listener of listeners) listener(structuredClone(message));
          done(null);
        });
        return true;
      },
    } as unknown as Worker;
    workers[id] = worker;
    const channel: ClusterChannel = {
      send(message, done) {
        if (!connected) return done(new Error('channel closed'));
        setImmediate(() => {
          primary.emit('message', worker, structuredClone(message));
          done(null);
        });
      },
      listen(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    };
    return { channel, worker, received, disconnect: () => (connected = false) };
  }
  return {
    cluster: clusterLike,
    join,
    /** A message from a worker as the primary sees it. */
    fromWorker: (worker: Worker, message: unknown) => primary.emit('message', worker, message),
    listenerCount: () => primary.listenerCount('message'),
  };
}

function workerBuses(n: number) {
  const { logger, lines } = recordingLogger();
  const fake = fakeCluster();
  const stopRelay = relayClusterBus(fake.cluster, logger);
  const members = Array.from({ length: n }, () => fake.join());
  const buses: Bus<Topics>[] = members.map((m) => createClusterBus<Topics>({ logger, channel: m.channel }));
  return { buses, members, lines, stopRelay, fake };
}

describe('cluster bus', () => {
  it('delivers an event once in the publishing process and once in every other one', async () => {
    const { buses } = workerBuses(3);
    const seen: string[][] = buses.map(() => []);
    buses.forEach((bus, i) => bus.subscribe('chat.message', (p) => void seen[i]!.push(p.text)));
    await Promise.all(buses.map((bus) => bus.ready()));
    await buses[0]!.publish('chat.message', { roomId: 'r', text: 'from 0' });
    await buses[2]!.publish('chat.message', { roomId: 'r', text: 'from 2' });
    await settled();
    expect(seen).toEqual([
      ['from 0', 'from 2'],
      ['from 0', 'from 2'],
      ['from 0', 'from 2'],
    ]);
  });

  it('runs handlers later, each with its own copy, and keeps handler errors from the publisher', async () => {
    const { buses, lines } = workerBuses(2);
    const [a, b] = buses as [Bus<Topics>, Bus<Topics>];
    const copies: Topics['chat.message'][] = [];
    a.subscribe('chat.message', () => {
      throw new Error('local failure');
    });
    b.subscribe('chat.message', async () => {
      throw new Error('remote failure');
    });
    b.subscribe('chat.message', (p) => void copies.push(p));
    b.subscribe('chat.message', (p) => void copies.push(p));
    const payload = { roomId: 'r', text: 'x' };
    await expect(a.publish('chat.message', payload)).resolves.toBeUndefined();
    payload.text = 'changed by the publisher';
    await settled();
    expect(copies).toEqual([
      { roomId: 'r', text: 'x' },
      { roomId: 'r', text: 'x' },
    ]);
    expect(copies[0]).not.toBe(copies[1]);
    expect(lines.filter((l) => l.level === 'error').map((l) => (l.details as { err: Error }).err.message)).toEqual([
      'local failure',
      'remote failure',
    ]);
  });

  it('delivers nothing after unsubscribe or close, in this process or from another', async () => {
    const { buses } = workerBuses(2);
    const [a, b] = buses as [Bus<Topics>, Bus<Topics>];
    const seen: string[] = [];
    const off = b.subscribe('user.banned', (p) => void seen.push(p.userId));
    await a.publish('user.banned', { userId: 'u1' });
    await settled();
    await a.publish('user.banned', { userId: 'in flight' });
    off();
    await settled();
    b.subscribe('user.banned', (p) => void seen.push(`again ${p.userId}`));
    await a.publish('user.banned', { userId: 'u2' });
    await b.close();
    await settled();
    expect(seen).toEqual(['u1']);
    await expect(b.publish('user.banned', { userId: 'late' })).rejects.toThrow(/closed/);
    await expect(b.ready()).rejects.toThrow(/closed/);
  });

  it('refuses what the other buses refuse, before anything leaves the process', async () => {
    const { buses, members } = workerBuses(2);
    const bus = buses[0] as unknown as Bus<Record<string, unknown>>;
    expect(() => bus.subscribe('Chat Message', () => {})).toThrow(/not valid/);
    await expect(bus.publish('chat."; drop', 'x')).rejects.toThrow(TypeError);
    await expect(bus.publish('chat.x', { at: 1n })).rejects.toThrow(/not plain JSON/);
    const error = await bus.publish('chat.x', 'é'.repeat(MAX_PAYLOAD_BYTES / 2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    await settled();
    expect(members[1]!.received).toEqual([]);
  });

  it('tells the publisher when the primary cannot be reached, and delivers nothing then', async () => {
    const { buses, members } = workerBuses(2);
    const seen: string[] = [];
    buses[0]!.subscribe('user.banned', (p) => void seen.push(p.userId));
    members[0]!.disconnect();
    await expect(buses[0]!.publish('user.banned', { userId: 'u1' })).rejects.toThrow(/channel closed/);
    await settled();
    expect(seen).toEqual([]);
    expect(members[1]!.received).toEqual([]);
  });

  it('relays bus events only, to connected workers but the sender, and ignores invalid topics', async () => {
    const { buses, members, lines, stopRelay, fake } = workerBuses(3);
    const seen: string[] = [];
    buses[1]!.subscribe('user.banned', (p) => void seen.push(p.userId));
    members[2]!.disconnect();
    members[0]!.channel.send({ hikariBus: 1, topic: 'user.banned', payload: '{"userId":"u1"}' }, () => {});
    fake.fromWorker(members[0]!.worker, { other: 'message' });
    members[0]!.channel.send({ hikariBus: 1, topic: 'Bad Topic', payload: '{}' }, () => {});
    await settled();
    expect(seen).toEqual(['u1']);
    expect(members[0]!.received).toEqual([]);
    expect(members[2]!.received).toEqual([]);
    expect(lines.map((l) => l.message)).toEqual(['bus ignored an event with an invalid topic']);
    expect(isClusterBusMessage({ hikariBus: 1, topic: 'a', payload: 1 })).toBe(false);
    stopRelay();
    expect(fake.listenerCount()).toBe(0);
  });
});
