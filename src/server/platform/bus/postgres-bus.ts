import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../db/database.ts';
import {
  assertTopic,
  encodePayload,
  LocalFanout,
  type Bus,
  type BusHandler,
  type JsonValue,
  type PlatformLogger,
} from './bus.ts';

export interface PostgresBusOptions {
  /** Connection string for the dedicated listening connection (the pool is never used to LISTEN). */
  url: string;
  /** Publishes (pg_notify) through the application's pool. */
  db: Db;
  logger: PlatformLogger;
  /** Shown in pg_stat_activity for the listening connection. */
  applicationName?: string;
  /** Wait before reconnect attempt `attempt` (0, 1, 2…); exponential with jitter by default. */
  reconnectDelayMs?: (attempt: number) => number;
}

/** Every channel starts with this, so the bus never hears (or sends on) anyone else's channels. */
export const CHANNEL_PREFIX = 'hikari.';

export function channelFor(topic: string): string {
  assertTopic(topic);
  return CHANNEL_PREFIX + topic;
}

/**
 * 100 ms, 200 ms, 400 ms… up to 2 s, each between half and all of that (so instances do not stampede).
 * The cap keeps events flowing again within a few seconds of the database coming back.
 */
export function defaultReconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(2000, 100 * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface Envelope {
  /** The publishing bus; its own echo is skipped because it already delivered locally. */
  o: string;
  p: JsonValue;
}

/**
 * The bus between processes: NOTIFY through the pool, LISTEN on one dedicated connection that is
 * re-opened with backoff (and every channel listened to again) whenever it drops. Events published
 * here are delivered to local subscribers directly, once; the NOTIFY echo carries our origin id and is
 * skipped. Events sent while the listener is down are not replayed (use jobs for work that must happen).
 */
export function createPostgresBus<T extends object>(options: PostgresBusOptions): Bus<T> {
  const { logger } = options;
  const origin = randomBytes(9).toString('base64url');
  const fanout = new LocalFanout(logger);
  const reconnectDelay = options.reconnectDelayMs ?? ((attempt: number) => defaultReconnectDelay(attempt));
  const listening = new Set<string>();
  const waiters = new Set<() => void>();
  let client: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;
  let syncing: Promise<void> = Promise.resolve();

  const changed = () => {
    for (const wake of waiters) wake();
    waiters.clear();
  };

  function onNotification(message: pg.Notification): void {
    if (!message.channel.startsWith(CHANNEL_PREFIX) || message.payload === undefined) return;
    const topic = message.channel.slice(CHANNEL_PREFIX.length);
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message.payload) as Envelope;
    } catch (error) {
      logger.warn({ err: error, channel: message.channel }, 'bus ignored a notification that is not JSON');
      return;
    }
    if (envelope.o === origin) return;
    fanout.deliver(topic, JSON.stringify(envelope.p));
  }

  function dropped(c: pg.Client, error: unknown): void {
    if (client !== c) return;
    const wasConnected = connected;
    client = null;
    connected = false;
    listening.clear();
    c.end().catch(() => {});
    changed();
    if (closed) return;
    const first = attempt === 0;
    const delay = reconnectDelay(attempt++);
    // Said once per outage: the retries that follow are quiet until 'bus listener reconnected'.
    if (first || wasConnected) {
      const what = wasConnected
        ? 'bus listener connection lost; reconnecting'
        : 'bus listener could not connect; retrying';
      logger.warn({ err: error, retryInMs: delay }, what);
    }
    timer = setTimeout(() => void connect(), delay);
  }

  async function connect(): Promise<void> {
    timer = null;
    if (closed) return;
    const c = new pg.Client({
      connectionString: options.url,
      application_name: options.applicationName ?? 'hikari-bus',
      keepAlive: true,
    });
    client = c;
    c.on('error', (error) => dropped(c, error));
    c.on('end', () => dropped(c, new Error('the listening connection ended')));
    c.on('notification', onNotification);
    try {
      await c.connect();
    } catch (error) {
      dropped(c, error);
      return;
    }
    if (client !== c) return;
    connected = true;
    if (attempt > 0) logger.info({ attempts: attempt }, 'bus listener reconnected');
    await sync();
  }

  /** Makes the channels listened to match the topics subscribed, one change at a time. */
  function sync(): Promise<void> {
    syncing = syncing.then(async () => {
      const c = client;
      if (!c || !connected) return;
      const wanted = new Set(fanout.topics());
      try {
        for (const topic of wanted) {
          if (listening.has(topic)) continue;
          await c.query(`LISTEN ${quoteIdent(channelFor(topic))}`);
          if (client === c) listening.add(topic);
        }
        for (const topic of [...listening]) {
          if (wanted.has(topic)) continue;
          await c.query(`UNLISTEN ${quoteIdent(channelFor(topic))}`);
          listening.delete(topic);
        }
        if (client === c) attempt = 0;
      } catch (error) {
        dropped(c, error);
      }
      changed();
    });
    return syncing;
  }

  void connect();

  return {
    async publish(topic, payload) {
      if (closed) throw new Error('The bus is closed; events can no longer be published.');
      const channel = channelFor(topic);
      const text = encodePayload(topic, payload);
      await sql`select pg_notify(${channel}, ${`{"o":"${origin}","p":${text}}`})`.execute(options.db);
      fanout.deliver(topic, text);
    },
    subscribe(topic, handler) {
      assertTopic(topic);
      const h = handler as BusHandler<JsonValue>;
      if (fanout.add(topic, h)) void sync();
      return () => {
        if (fanout.remove(topic, h)) void sync();
      };
    },
    async ready() {
      for (;;) {
        if (closed) throw new Error('The bus is closed.');
        if (connected && fanout.topics().every((topic) => listening.has(topic))) return;
        await new Promise<void>((resolve) => waiters.add(resolve));
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      fanout.clear();
      const c = client;
      client = null;
      connected = false;
      changed();
      if (c) await c.end().catch(() => {});
    },
  };
}
