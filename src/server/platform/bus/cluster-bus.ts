import type { Cluster, Worker } from 'node:cluster';
import {
  assertTopic,
  encodePayload,
  LocalFanout,
  type Bus,
  type BusHandler,
  type JsonValue,
  type PlatformLogger,
} from './bus.ts';

/** One event on its way between server processes: the topic and the payload's JSON as encoded once. */
export interface ClusterBusMessage {
  hikariBus: 1;
  topic: string;
  payload: string;
}

/** Whether an IPC message is a bus event (anything else on the channel is someone else's). */
export function isClusterBusMessage(message: unknown): message is ClusterBusMessage {
  if (!message || typeof message !== 'object') return false;
  const m = message as Record<string, unknown>;
  return m.hikariBus === 1 && typeof m.topic === 'string' && typeof m.payload === 'string';
}

/** The IPC channel between a worker and the cluster primary (`workerChannel()`; tests pass their own). */
export interface ClusterChannel {
  /** Hands the message to the channel; `done` gets the error when it could not be sent. */
  send: (message: ClusterBusMessage, done: (error: Error | null) => void) => void;
  /** Listens to messages from the primary; returns the function that stops listening. */
  listen: (listener: (message: unknown) => void) => () => void;
}

/** The IPC channel of this process to its cluster primary. */
export function workerChannel(): ClusterChannel {
  return {
    send(message, done) {
      if (!process.send || !process.connected) {
        done(new Error('The bus cannot reach the other server processes: the channel to the primary is closed.'));
        return;
      }
      process.send(message, undefined, {}, done);
    },
    listen(listener) {
      process.on('message', listener);
      return () => void process.off('message', listener);
    },
  };
}

/**
 * The bus of a server process among several on SQLite (WEB_CONCURRENCY > 1): an event is delivered
 * here, once, and sent over IPC to the cluster primary, which hands it to every other worker
 * (`relayClusterBus`). Workers that are down or still starting miss what is sent meanwhile, like
 * LISTEN/NOTIFY: work that must happen goes through the job queue.
 */
export function createClusterBus<T extends object>(options: {
  logger: PlatformLogger;
  channel: ClusterChannel;
}): Bus<T> {
  const { logger, channel } = options;
  const fanout = new LocalFanout(logger);
  let closed = false;

  const stopListening = channel.listen((message) => {
    if (closed || !isClusterBusMessage(message)) return;
    try {
      assertTopic(message.topic);
    } catch (error) {
      logger.warn({ err: error }, 'bus ignored an event with an invalid topic');
      return;
    }
    fanout.deliver(message.topic, message.payload);
  });

  return {
    async publish(topic, payload) {
      if (closed) throw new Error('The bus is closed; events can no longer be published.');
      assertTopic(topic);
      const text = encodePayload(topic, payload);
      await new Promise<void>((resolve, reject) =>
        channel.send({ hikariBus: 1, topic, payload: text }, (error) => (error ? reject(error) : resolve())),
      );
      fanout.deliver(topic, text);
    },
    subscribe(topic, handler) {
      assertTopic(topic);
      const h = handler as BusHandler<JsonValue>;
      fanout.add(topic, h);
      return () => {
        fanout.remove(topic, h);
      };
    },
    // The channel is listened to from the start: there is nothing to wait for.
    async ready() {
      if (closed) throw new Error('The bus is closed.');
    },
    async close() {
      closed = true;
      stopListening();
      fanout.clear();
    },
  };
}

/**
 * The primary's half of the cluster bus: every bus event a worker sends is handed to every other
 * worker that is still connected. Returns the function that stops relaying.
 */
export function relayClusterBus(cluster: Pick<Cluster, 'on' | 'off' | 'workers'>, logger: PlatformLogger): () => void {
  const relay = (from: Worker, message: unknown) => {
    if (!isClusterBusMessage(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (!worker || worker === from || !worker.isConnected()) continue;
      // A worker that is exiting may close its channel meanwhile; it misses the event, nothing more.
      worker.send(message, (error: Error | null) => {
        if (error) logger.warn({ err: error, worker: worker.id, topic: message.topic }, 'bus event not relayed');
      });
    }
  };
  cluster.on('message', relay);
  return () => void cluster.off('message', relay);
}
