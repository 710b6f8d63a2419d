import { HttpError } from '../errors.ts';
import { messageRef } from '../../../shared/i18n/index.ts';

/** A plain JSON value: what survives JSON.stringify/parse unchanged. Declare topic payloads as `type` aliases. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Topic name → payload type, e.g. `{ 'chat.message': { roomId: string; messageId: string } }` (interfaces fit too). */
export type TopicMap = Record<string, JsonValue>;

export type BusHandler<P> = (payload: P) => void | Promise<void>;

export interface Bus<T extends object> {
  /**
   * Sends `payload` to every subscriber of `topic`, in this process and in every other server process
   * (LISTEN/NOTIFY on PostgreSQL, the cluster primary on SQLite). Handlers run later, never inside this
   * call; their errors are logged and never reach here.
   */
  publish<K extends keyof T & string>(topic: K, payload: T[K]): Promise<void>;
  /** Calls `handler` for each event on `topic` until the returned function is called. */
  subscribe<K extends keyof T & string>(topic: K, handler: BusHandler<T[K]>): () => void;
  /** Resolves once every current subscription also receives events from other processes. */
  ready(): Promise<void>;
  /** Stops delivery and releases the connection; publishing afterwards fails. */
  close(): Promise<void>;
}

/** The part of the logger the bus and the job runner use (a pino logger fits). */
export interface PlatformLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * Largest payload, in bytes of its JSON. PostgreSQL refuses NOTIFY payloads of 8000 bytes or more, and
 * the envelope (origin id, keys) takes a little; both implementations apply the same limit so code
 * tried on SQLite behaves the same on PostgreSQL. Publish an id and let subscribers load the record
 * for anything bigger.
 */
export const MAX_PAYLOAD_BYTES = 7900;

const TOPIC_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;
const MAX_TOPIC_LENGTH = 48;

/** Topics are dotted lower-case words (`chat.message`), short enough to become a PostgreSQL channel name. */
export function assertTopic(topic: string): void {
  if (typeof topic !== 'string' || topic.length > MAX_TOPIC_LENGTH || !TOPIC_PATTERN.test(topic)) {
    throw new TypeError(
      `Bus topic ${JSON.stringify(topic)} is not valid: use lower-case words of a-z, 0-9 and _ joined by dots ` +
        `(e.g. "chat.message"), at most ${MAX_TOPIC_LENGTH} characters.`,
    );
  }
}

/**
 * Serialises a payload to JSON, refusing what is not plain JSON or too big. Subscribers always get a
 * fresh parse of this text, so nobody shares (or mutates) the publisher's object.
 */
export function encodePayload(topic: string, payload: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (error) {
    throw new TypeError(`Bus payload for "${topic}" is not plain JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw new TypeError(`Bus payload for "${topic}" is not plain JSON (got ${typeof payload}).`);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_PAYLOAD_BYTES) {
    throw new HttpError(
      413,
      'PAYLOAD_TOO_LARGE',
      messageRef('server.busPayloadTooLarge', { topic, bytes, limit: MAX_PAYLOAD_BYTES }),
    );
  }
  return text;
}

/**
 * Subscribers of one process, and delivery to them: each event is handed over on a later turn of the
 * event loop, each handler on its own, so a throwing or rejecting handler only produces a log line.
 */
export class LocalFanout {
  readonly #handlers = new Map<string, Set<BusHandler<JsonValue>>>();
  readonly #logger: PlatformLogger;

  constructor(logger: PlatformLogger) {
    this.#logger = logger;
  }

  /** Adds a handler; `true` when it is the topic's first. */
  add(topic: string, handler: BusHandler<JsonValue>): boolean {
    let set = this.#handlers.get(topic);
    const first = !set;
    if (!set) this.#handlers.set(topic, (set = new Set()));
    set.add(handler);
    return first;
  }

  /** Removes a handler; `true` when the topic has none left. */
  remove(topic: string, handler: BusHandler<JsonValue>): boolean {
    const set = this.#handlers.get(topic);
    if (!set?.delete(handler)) return false;
    if (set.size > 0) return false;
    this.#handlers.delete(topic);
    return true;
  }

  topics(): string[] {
    return [...this.#handlers.keys()];
  }

  clear(): void {
    this.#handlers.clear();
  }

  /** Delivers to the handlers subscribed now that are still subscribed when delivery comes. */
  deliver(topic: string, text: string): void {
    const set = this.#handlers.get(topic);
    if (!set || set.size === 0) return;
    const handlers = [...set];
    setImmediate(() => {
      for (const handler of handlers) {
        if (!this.#handlers.get(topic)?.has(handler)) continue;
        void this.#run(topic, handler, text);
      }
    });
  }

  async #run(topic: string, handler: BusHandler<JsonValue>, text: string): Promise<void> {
    try {
      await handler(JSON.parse(text) as JsonValue);
    } catch (error) {
      this.#logger.error({ err: error, topic }, 'bus subscriber failed');
    }
  }
}
