import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectDatabase, type DatabaseHandle } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrator.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import type { ChatServerFrame } from '../../src/shared/chat/chat-model.ts';
import { postgresInstalled, startPostgresServer, type PostgresServer } from '../support/postgres-server.ts';
import { readyPort, send, siteBuilt, startServer, type Answer, type ServerProcess } from '../support/server-process.ts';

const JWT_SECRET = 'database-outage-test-secret-0123456789';
// Runs with the PostgreSQL suites (TEST_DATABASE_URL), on a PostgreSQL server of its own that it stops
// and starts; the built server entry as `npm start` runs it, with two processes.
const enabled = Boolean(process.env.TEST_DATABASE_URL) && siteBuilt && postgresInstalled;

interface Sample {
  at: number;
  status: number;
  code: string | null;
  retryAfter: string | undefined;
}

const codeOf = (answer: Answer): string | null => {
  try {
    return (JSON.parse(answer.body) as { code?: string }).code ?? null;
  } catch {
    return null;
  }
};

/**
 * Requests one after another on `lanes` lanes until stopped, each answer sampled; `onAnswer` runs after
 * every one, so a test can wait for a condition on the answers without sleeping.
 */
function load(port: number, lanes: number, request: (port: number) => Promise<Answer>) {
  const samples: Sample[] = [];
  const waiters = new Set<() => void>();
  let running = true;
  const lane = async () => {
    while (running) {
      const answer = await request(port).catch(() => ({ status: 0, headers: {}, body: '' }) as Answer);
      const retryAfter = answer.headers['retry-after'];
      samples.push({
        at: performance.now(),
        status: answer.status,
        code: codeOf(answer),
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      });
      for (const wake of waiters) wake();
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane));
  return {
    samples,
    /** Resolves once `condition` holds after some answer. */
    until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!condition()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`condition not met; last answers: ${JSON.stringify(samples.slice(-5))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop: async () => {
      running = false;
      await done;
    },
  };
}

describe.skipIf(!enabled)('PostgreSQL going away under load (a server of its own; runs on PostgreSQL)', () => {
  let postgres: PostgresServer;
  let handle: DatabaseHandle;
  let dataDir: string;
  let server: ServerProcess;
  let port: number;
  const tokens: string[] = [];
  const receivers: number[] = [];
  const others: ServerProcess[] = [];
  const sockets: WebSocket[] = [];

  const profile = (p: number) =>
    send(p, 'GET', '/api/v2/user/profile', undefined, { authorization: `Bearer ${tokens[0]}` });
  /** The built server with two processes on the test's own PostgreSQL. */
  const serverEnv = () => ({
    WEB_CONCURRENCY: '2',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.urlOf('hikari'),
    JWT_SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
  });
  const exited = (s: ServerProcess) => s.logs.filter((l) => String(l.msg).startsWith('server process exited'));

  beforeAll(async () => {
    postgres = await startPostgresServer();
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('create database hikari');
    await admin.end();
    handle = connectDatabase({ dialect: 'postgres', url: postgres.urlOf('hikari') }, { poolSize: 2 });
    await migrateToLatest(handle.db);
    for (let i = 0; i < 8; i++) {
      const user = await createUser(handle.db, {
        name: `outage_${i}`,
        email: `outage${i}@example.test`,
        passwordHash: 'x',
      });
      if (i < 4) tokens.push(await signAccessToken(JWT_SECRET, { id: user.id, group: 'user' }));
      else receivers.push(user.user_id);
    }
    dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-outage-'));
    server = startServer(serverEnv());
    port = await readyPort(server);
  }, 60_000);

  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    for (const s of [server, ...others]) s?.kill();
    await handle?.close();
    await postgres?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('ending every pooled connection under load (pg_terminate_backend) ends no process; requests after it succeed', async () => {
    const traffic = load(port, 6, profile);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    for (let round = 0; round < 3; round++) {
      const before = traffic.samples.length;
      await traffic.until(() => traffic.samples.length >= before + 30);
      const { rows } = await admin.query<{ pid: number }>(
        `with doomed as materialized (
           select pid from pg_stat_activity
           where datname = 'hikari' and pid <> pg_backend_pid() and backend_type = 'client backend'
         )
         select pid from doomed where pg_terminate_backend(pid)`,
      );
      expect(rows.length).toBeGreaterThan(0);
      // Requests racing a connection as it ends may get 503; from the moment they are all gone, none may.
      await expect
        .poll(
          async () =>
            (await admin.query('select 1 from pg_stat_activity where pid = any($1)', [rows.map((r) => r.pid)]))
              .rowCount,
        )
        .toBe(0);
    }
    await admin.end();
    const after = traffic.samples.length;
    await traffic.until(() => traffic.samples.length >= after + 60);
    await traffic.stop();
    expect(exited(server)).toEqual([]);
    // A request whose connection was ended may fail with 503; nothing answers 500, and what follows works.
    expect(traffic.samples.filter((s) => s.status !== 200 && s.code !== 'DATABASE_UNAVAILABLE')).toEqual([]);
    expect(traffic.samples.slice(after).filter((s) => s.status !== 200)).toEqual([]);
  });

  it('PostgreSQL stopped for 15 s under a write load: 503 meanwhile, kept pages served, back within 5 s, no acknowledged message lost', async () => {
    // A page the page cache holds in both processes, and chat senders that keep writing.
    for (let i = 0; i < 6; i++) expect((await send(port, 'GET', '/galgame/list')).status).toBe(200);
    const acked = new Map<string, string>();
    const refused: ChatServerFrame[] = [];
    const senders = await Promise.all(
      tokens.map(async (token, i) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${encodeURIComponent(token)}`);
        sockets.push(ws);
        ws.on('message', (raw) => {
          const frame = JSON.parse(String(raw)) as ChatServerFrame;
          if (frame.type === 'message_sent' && frame.clientId) acked.set(frame.clientId, frame._id);
          if (frame.type === 'error') refused.push(frame);
        });
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
        });
        let n = 0;
        // Under two messages a second per member: inside the chat's own send limit (20 in 10 s).
        const timer = setInterval(() => {
          if (ws.readyState !== WebSocket.OPEN) return;
          const clientId = `outage-${i}-${String(n++).padStart(4, '0')}`;
          ws.send(JSON.stringify({ type: 'message', receiverId: receivers[i], content: `消息 ${clientId}`, clientId }));
        }, 700);
        return { ws, stop: () => clearInterval(timer) };
      }),
    );
    const traffic = load(port, 2, profile);
    await traffic.until(() => acked.size >= 8);

    await postgres.stop();
    const downAt = performance.now();
    await traffic.until(() => traffic.samples.some((s) => s.at > downAt && s.code === 'DATABASE_UNAVAILABLE'));
    const duringOutage = await Promise.all([
      send(port, 'GET', '/api/health'),
      ...Array.from({ length: 4 }, () => send(port, 'GET', '/galgame/list')),
      send(port, 'GET', '/galgame/list?page=2'),
    ]);
    // The outage lasts 15 s of the load's own answers.
    await traffic.until(() => (traffic.samples.at(-1)?.at ?? 0) - downAt >= 15_000, 30_000);
    const ackedBeforeBack = acked.size;

    const restartAt = performance.now();
    await postgres.start();
    const backAt = performance.now();
    await traffic.until(() => traffic.samples.some((s) => s.at > backAt && s.status === 200), 15_000);
    const recoveredAt = traffic.samples.find((s) => s.at > backAt && s.status === 200)!.at;
    await traffic.until(() => acked.size >= ackedBeforeBack + 8);
    for (const s of senders) s.stop();
    await traffic.stop();

    expect(exited(server)).toEqual([]);
    expect(recoveredAt - backAt).toBeLessThan(5000);
    const outage = traffic.samples.filter((s) => s.at > downAt + 1000 && s.at < restartAt);
    expect(outage.length).toBeGreaterThan(10);
    for (const s of outage) expect(s).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '5' });
    const [health, ...pages] = duringOutage;
    expect(health).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    expect(JSON.parse(health!.body)).toMatchObject({
      code: 'DATABASE_UNAVAILABLE',
      data: { checks: { database: { ok: false } } },
    });
    expect(pages.slice(0, 4).map((p) => p.status)).toEqual([200, 200, 200, 200]);
    expect(pages[4]).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    expect(refused.filter((f) => f.type !== 'error' || f.code !== 'DATABASE_UNAVAILABLE')).toEqual([]);
    // The sockets stayed open through the outage.
    expect(senders.map((s) => s.ws.readyState)).toEqual(senders.map(() => WebSocket.OPEN));
    // Every message acknowledged is stored, once.
    const ids = [...acked.values()].map(Number);
    const stored = await handle.db
      .selectFrom('private_message')
      .select(['id', 'client_id'])
      .where('id', 'in', ids)
      .execute();
    expect(stored.map((r) => r.client_id).sort()).toEqual([...acked.keys()].sort());
  }, 90_000);

  it('a start while PostgreSQL is down waits (said once) and serves once it is up', async () => {
    await postgres.stop();
    const late = startServer(serverEnv());
    others.push(late);
    const waiting = await late.waitForLog((l) => l.msg === 'waiting for the database to start', 30_000);
    expect(String(waiting.reason)).toMatch(/refused the connection/);
    expect(late.child.exitCode).toBeNull();
    await postgres.start();
    const latePort = await readyPort(late, 30_000);
    expect((await send(latePort, 'GET', '/api/health')).status).toBe(200);
    expect(late.logs.filter((l) => l.msg === 'waiting for the database to start')).toHaveLength(1);
    expect(exited(late)).toEqual([]);
  }, 60_000);

  it('a configuration that can never work (no such database) still stops the start at once with one line', async () => {
    const wrong = startServer({
      ...serverEnv(),
      WEB_CONCURRENCY: '1',
      DATABASE_URL: postgres.urlOf('no_such_database'),
    });
    others.push(wrong);
    expect(await wrong.exit).toBe(1);
    expect(wrong.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(/^Cannot start: PostgreSQL at 127\.0\.0\.1:\d+\/no_such_database has no such database/),
    ]);
  });
});
