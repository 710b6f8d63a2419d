import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ChatServerFrame } from '../../src/shared/chat/chat-model.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-db.ts';

const root = path.resolve(import.meta.dirname, '../..');
const JWT_SECRET = 'chat-crash-test-secret-0123456789abcdef';

/**
 * A server process of its own (the app and its HTTP server, without the site build) on the test's
 * database, as `npm run serve` would run one; it prints its port once it listens.
 */
const SERVER = `
import { createAppContext } from ${JSON.stringify(path.join(root, 'src/server/app-context.ts'))};
import { createHttpServer } from ${JSON.stringify(path.join(root, 'src/server/http/server.ts'))};
import { loadConfig } from ${JSON.stringify(path.join(root, 'src/server/platform/config.ts'))};
import { createLogger } from ${JSON.stringify(path.join(root, 'src/server/platform/logger.ts'))};
const config = loadConfig();
const { ctx } = await createAppContext(config, { logger: createLogger('silent'), buildId: 'test-build', worker: false });
const http = createHttpServer(ctx, { clientDir: config.dataDir, astro: async (_req, res) => void res.end() });
http.server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: http.server.address().port })));
`;

interface Server {
  child: ChildProcess;
  port: number;
  /** The signal that ended it (SIGKILL for the fault point), once it has. */
  exit: Promise<NodeJS.Signals | null>;
}

// The issue's test: "kill the server between receipt and acknowledgement: the sender retries and no
// duplicate appears". A real server process stores a message and dies before `message_sent` is
// written; the client reconnects to a fresh process on the same database, retries with the same
// clientId, and is acknowledged with the stored message's `_id`. SQLite (a file) and PostgreSQL.
describe('a server process killed between storing a message and acknowledging it', () => {
  let db: TestDatabase;
  let dataDir: string;
  const started: ChildProcess[] = [];
  const sockets: WebSocket[] = [];

  function startServer(env: Record<string, string> = {}): Promise<Server> {
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', '--input-type=module', '--eval', SERVER],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          DATABASE_URL: db.url,
          JWT_SECRET,
          SEED_DEMO: 'false',
          LOG_LEVEL: 'silent',
          PUBLIC_ORIGIN: 'http://hikari.test',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    started.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const port = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start; stderr:\n${stderr}`)), 30_000);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        try {
          const parsed = JSON.parse(line) as { port?: number };
          if (typeof parsed.port !== 'number') return;
          clearTimeout(timer);
          resolve(parsed.port);
        } catch {
          // not the line with the port
        }
      });
      void exit.then(() => {
        clearTimeout(timer);
        reject(new Error(`the server ended before listening; stderr:\n${stderr}`));
      });
    });
    return port.then((p) => ({ child, port: p, exit }));
  }

  async function connect(port: number, token: string) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${encodeURIComponent(token)}`);
    sockets.push(ws);
    const frames: ChatServerFrame[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as ChatServerFrame));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { ws, frames, closed, send: (frame: object) => ws.send(JSON.stringify(frame)) };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-chat-crash-'));
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(
      started.map((child) =>
        child.exitCode === null && child.signalCode === null
          ? new Promise((resolve) => child.once('exit', resolve))
          : null,
      ),
    );
    await db?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the retry to a fresh process is acknowledged with the stored message, which is there once', async () => {
    const [a, b] = await Promise.all(
      ['crash_a', 'crash_b'].map((name) =>
        createUser(db.db, { name, email: `${name}@example.test`, passwordHash: 'x' }),
      ),
    );
    const token = await signAccessToken(JWT_SECRET, { id: a!.id, group: 'user' });
    const frame = { type: 'message', receiverId: b!.user_id, content: '崩溃之前', clientId: 'crash-retry-0001' };

    const doomed = await startServer({ HIKARI_TEST_CHAT_CRASH: 'after-store' });
    const first = await connect(doomed.port, token);
    first.send(frame);
    expect(await doomed.exit).toBe('SIGKILL');
    expect(await first.closed).toBe(1006);
    expect(first.frames.filter((f) => f.type === 'message_sent')).toEqual([]);
    const stored = await db.db.selectFrom('private_message').selectAll().where('sender_id', '=', a!.id).execute();
    expect(stored.map((r) => [r.content, r.client_id])).toEqual([['崩溃之前', 'crash-retry-0001']]);

    const fresh = await startServer();
    const again = await connect(fresh.port, token);
    again.send(frame);
    await expect.poll(() => again.frames.find((f) => f.type === 'message_sent'), { timeout: 5000 }).toBeTruthy();
    expect(again.frames.find((f) => f.type === 'message_sent')).toMatchObject({
      _id: String(stored[0]!.id),
      clientId: 'crash-retry-0001',
      content: '崩溃之前',
      receiverId: b!.user_id,
    });
    const after = await db.db.selectFrom('private_message').selectAll().where('sender_id', '=', a!.id).execute();
    expect(after.map((r) => r.id)).toEqual([stored[0]!.id]);
    const contact = await db.db
      .selectFrom('chat_contact')
      .select('unread_count')
      .where('user_id', '=', b!.id)
      .where('contact_id', '=', a!.id)
      .executeTakeFirstOrThrow();
    expect(Number(contact.unread_count)).toBe(1);
  });
});
