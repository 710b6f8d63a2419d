import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { translator } from '../../../shared/i18n/catalogues.ts';
import { translateRef } from '../../../shared/i18n/index.ts';
import { HttpError } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { MAX_PAYLOAD_BYTES, type PlatformLogger } from './bus.ts';
import { createBus } from './create-bus.ts';
import { createInProcessBus } from './in-process-bus.ts';

type Topics = {
  'chat.message': { roomId: string; text: string; at?: string };
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

/** Lets the event loop run past the bus's scheduled deliveries. */
const delivered = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('in-process bus', () => {
  it('runs handlers after publish returns, each with its own copy of the payload', async () => {
    const bus = createInProcessBus<Topics>({ logger: recordingLogger().logger });
    const seen: Topics['chat.message'][] = [];
    bus.subscribe('chat.message', (payload) => void seen.push(payload));
    const payload = { roomId: 'r1', text: '你好' };
    await bus.publish('chat.message', payload);
    expect(seen).toEqual([]);
    payload.text = 'changed by the publisher';
    await delivered();
    expect(seen).toEqual([{ roomId: 'r1', text: '你好' }]);
    expect(seen[0]).not.toBe(payload);
  });

  it('delivers to every subscriber of the topic only, in publish order', async () => {
    const bus = createInProcessBus<Topics>({ logger: recordingLogger().logger });
    const a: string[] = [];
    const b: string[] = [];
    const banned: string[] = [];
    bus.subscribe('chat.message', (p) => void a.push(p.text));
    bus.subscribe('chat.message', (p) => void b.push(p.text));
    bus.subscribe('user.banned', (p) => void banned.push(p.userId));
    for (const text of ['1', '2', '3']) await bus.publish('chat.message', { roomId: 'r', text });
    await delivered();
    expect(a).toEqual(['1', '2', '3']);
    expect(b).toEqual(['1', '2', '3']);
    expect(banned).toEqual([]);
  });

  it('keeps a failing handler from the publisher and from the other handlers, and logs it', async () => {
    const { logger, lines } = recordingLogger();
    const bus = createInProcessBus<Topics>({ logger });
    const seen: string[] = [];
    bus.subscribe('chat.message', () => {
      throw new Error('sync failure');
    });
    bus.subscribe('chat.message', async () => {
      throw new Error('async failure');
    });
    bus.subscribe('chat.message', (p) => void seen.push(p.text));
    await expect(bus.publish('chat.message', { roomId: 'r', text: 'ok' })).resolves.toBeUndefined();
    await delivered();
    await delivered();
    expect(seen).toEqual(['ok']);
    expect(
      lines.filter((l) => l.level === 'error').map((l) => [l.message, (l.details as { err: Error }).err.message]),
    ).toEqual([
      ['bus subscriber failed', 'sync failure'],
      ['bus subscriber failed', 'async failure'],
    ]);
  });

  it('writes a failing handler to the application log with the topic and the error', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const bus = createInProcessBus<Topics>({ logger: createLogger('info', { format: 'json', stream }) });
    bus.subscribe('user.banned', () => {
      throw new Error('cache unreachable');
    });
    await bus.publish('user.banned', { userId: 'u1' });
    await delivered();
    await delivered();
    const entry = JSON.parse(lines.join('')) as { msg: string; topic: string; err: { message: string } };
    expect(entry).toMatchObject({
      msg: 'bus subscriber failed',
      topic: 'user.banned',
      err: { message: 'cache unreachable' },
    });
  });

  it('stops delivering once unsubscribed, even an event already published', async () => {
    const bus = createInProcessBus<Topics>({ logger: recordingLogger().logger });
    const seen: string[] = [];
    const unsubscribe = bus.subscribe('chat.message', (p) => void seen.push(p.text));
    await bus.publish('chat.message', { roomId: 'r', text: 'before' });
    await delivered();
    await bus.publish('chat.message', { roomId: 'r', text: 'in flight' });
    unsubscribe();
    await bus.publish('chat.message', { roomId: 'r', text: 'after' });
    await delivered();
    expect(seen).toEqual(['before']);
  });

  it('refuses bad topics, payloads that are not JSON, payloads over the limit, and publishing after close', async () => {
    const bus = createInProcessBus<Record<string, Topics['chat.message'] | string>>({
      logger: recordingLogger().logger,
    });
    expect(() => bus.subscribe('Chat Message', () => {})).toThrow(/not valid: use lower-case words/);
    await expect(bus.publish('chat."; drop', 'x')).rejects.toThrow(TypeError);
    await expect(bus.publish('chat.x', { roomId: 'r', text: 'x', at: 1n } as never)).rejects.toThrow(/not plain JSON/);
    await expect(bus.publish('chat.x', undefined as never)).rejects.toThrow(/not plain JSON/);
    const tooBig = 'é'.repeat(MAX_PAYLOAD_BYTES / 2); // two bytes each, plus the quotes
    const error = await bus.publish('chat.x', tooBig).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(translateRef(translator('en'), (error as Error).message)).toMatch(/Publish the record's id/);
    await expect(bus.publish('chat.x', 'é'.repeat(MAX_PAYLOAD_BYTES / 2 - 1))).resolves.toBeUndefined();
    await bus.close();
    await expect(bus.publish('chat.x', 'late')).rejects.toThrow(/closed/);
  });

  it('is what createBus gives on SQLite', async () => {
    const { logger } = recordingLogger();
    const bus = createBus<Topics>({ dialect: 'sqlite', file: ':memory:' }, { db: null as never, logger });
    const seen: string[] = [];
    bus.subscribe('user.banned', (p) => void seen.push(p.userId));
    await bus.ready();
    await bus.publish('user.banned', { userId: 'u1' });
    await delivered();
    expect(seen).toEqual(['u1']);
    await bus.close();
  });
});
