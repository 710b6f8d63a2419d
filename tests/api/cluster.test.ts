import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashPassword } from '../../src/server/modules/auth/password.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import type { ApiResponse } from '../../src/shared/api.ts';
import type { SessionData } from '../../src/shared/auth.ts';
import { data } from '../support/accounts.ts';
import { send, siteBuilt, startServer, type LogLine, type ServerProcess } from '../support/server-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-db.ts';

const workerOf = (line: LogLine) => Number(line.worker);
const isRequest = (urlPath: string) => (line: LogLine) => line.msg === 'request' && line.path === urlPath;

describe.skipIf(!siteBuilt)('several server processes on one port (WEB_CONCURRENCY=2; skipped without a build)', () => {
  let t: TestDatabase;
  let dataDir: string;
  let server: ServerProcess;
  let port: number;
  const password = 'cluster test password';

  /** Pids of the workers the primary started and has not seen exit. */
  const liveWorkers = () => {
    const gone = new Set(
      server.logs.filter((l) => l.msg?.toString().startsWith('server process ') && 'code' in l).map(workerOf),
    );
    return server.logs.filter((l) => l.msg === 'server process started' && !gone.has(workerOf(l)));
  };

  /** Sends requests until both processes have answered one (each answer logs its worker id). */
  async function bothAnswer(after: number): Promise<Set<number>> {
    const seen = new Set<number>();
    for (let i = 0; i < 20 && seen.size < 2; i++) {
      expect((await send(port, 'GET', '/api/health')).status).toBe(200);
      await server.waitForLog((l) => server.logs.indexOf(l) >= after && isRequest('/api/health')(l));
      for (const line of server.logs.slice(after).filter(isRequest('/api/health'))) seen.add(workerOf(line));
    }
    return seen;
  }

  beforeAll(async () => {
    t = await createTestDatabase();
    await createUser(t.db, {
      name: 'ClusterUser',
      email: 'cluster@example.test',
      group: 'user',
      passwordHash: await hashPassword(password),
    });
    dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-cluster-'));
    server = startServer({
      WEB_CONCURRENCY: '2',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: t.url,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
    const banner = await server.waitForLog((l) => l.banner === true, 30_000);
    port = Number(new URL(String(banner.url)).port);
  }, 40_000);

  afterAll(async () => {
    server?.kill();
    await t?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the address once, and both processes answer on the one port', async () => {
    expect(server.logs.filter((l) => l.banner === true)).toHaveLength(1);
    expect(server.logs.find((l) => l.banner === true)).toMatchObject({ processes: 2, database: t.dialect });
    expect(liveWorkers()).toHaveLength(2);
    // Only the primary migrated (the database was already migrated) and nobody loaded demo content.
    expect(server.logs.filter((l) => l.msg === 'demo content loaded')).toEqual([]);
    expect(await bothAnswer(server.logs.length)).toEqual(new Set(liveWorkers().map(workerOf)));
  });

  it('a logout in one process closes, within a second, the chat sockets the other process holds', async () => {
    const login = await send(port, 'POST', '/api/v2/user/login', { account: 'ClusterUser', password });
    expect(login.status).toBe(200);
    const session = data(JSON.parse(login.body) as ApiResponse<SessionData>);
    // Connections go to the workers in turn, so four sockets are spread over both.
    const sockets: WebSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${session.hikariAccessToken}`);
      await new Promise<void>((resolve, reject) => {
        ws.on('open', () => resolve());
        ws.on('unexpected-response', (_req, res) => reject(new Error(`chat upgrade refused with ${res.statusCode}`)));
      });
      sockets.push(ws);
    }
    const closed = sockets.map(
      (ws) =>
        new Promise<{ code: number; reason: string; at: number }>((resolve) =>
          ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: performance.now() })),
        ),
    );
    const before = server.logs.length;
    const logout = await send(port, 'POST', '/api/user/logout', { hikariRefreshToken: session.hikariRefreshToken });
    const loggedOutAt = performance.now();
    expect(logout.status).toBe(200);

    const closes = await Promise.race([
      Promise.all(closed),
      new Promise<never>((_resolve, reject) =>
        setTimeout(() => reject(new Error('the chat sockets were not closed within 5 s')), 5000),
      ),
    ]);
    expect(closes.map(({ code, reason }) => ({ code, reason }))).toEqual(
      Array.from({ length: 4 }, () => ({ code: 1000, reason: 'logged out' })),
    );
    expect(Math.max(...closes.map((c) => c.at - loggedOutAt))).toBeLessThan(1000);
    // Each process closed the sockets it held: one heard the logout itself, the other through the bus.
    const since = (match: (line: LogLine) => boolean) => (line: LogLine) =>
      server.logs.indexOf(line) >= before && match(line);
    const logoutBy = workerOf(await server.waitForLog(since(isRequest('/api/user/logout'))));
    const closedBy = (same: boolean) =>
      server.waitForLog(
        since((l) => l.msg === 'chat sockets closed: session ended' && (workerOf(l) === logoutBy) === same),
      );
    const [here, there] = await Promise.all([closedBy(true), closedBy(false)]);
    expect(Number(here.sockets) + Number(there.sockets)).toBe(4);
  });

  it('replaces a process that crashes, and the other one answers meanwhile', async () => {
    const [victim] = liveWorkers();
    const before = server.logs.length;
    process.kill(Number(victim!.pid), 'SIGKILL');
    await server.waitForLog(
      (l) => l.msg === 'server process exited; starting another' && workerOf(l) === workerOf(victim!),
    );
    expect((await send(port, 'GET', '/api/health')).status).toBe(200);
    const replacement = await server.waitForLog(
      (l) => server.logs.indexOf(l) >= before && l.msg === 'server process listening',
    );
    expect(workerOf(replacement)).not.toBe(workerOf(victim!));
    expect(await bothAnswer(server.logs.length)).toContain(workerOf(replacement));
  });

  it('lets a process sent SIGTERM on its own finish and replaces it; the site keeps answering', async () => {
    const [victim] = liveWorkers();
    const before = server.logs.length;
    process.kill(Number(victim!.pid), 'SIGTERM');
    const statuses: number[] = [];
    const exited = server.waitForLog(
      (l) => server.logs.indexOf(l) >= before && l.msg === 'server process exited; starting another',
    );
    let done = false;
    void exited.finally(() => (done = true));
    while (!done) statuses.push((await send(port, 'GET', '/api/health')).status);
    expect(await exited).toMatchObject({ worker: workerOf(victim!), code: 0 });
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const replacement = await server.waitForLog(
      (l) => server.logs.indexOf(l) >= before && l.msg === 'server process listening',
    );
    expect(await bothAnswer(server.logs.length)).toContain(workerOf(replacement));
  });

  it('stops every process on SIGTERM to the primary, with exit code 0', async () => {
    const workers = liveWorkers();
    expect(workers).toHaveLength(2);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    const stopped = server.logs.filter((l) => l.msg === 'server process stopped');
    expect(stopped.map((l) => ({ worker: workerOf(l), code: l.code })).sort((a, b) => a.worker - b.worker)).toEqual(
      workers.map((l) => ({ worker: workerOf(l), code: 0 })).sort((a, b) => a.worker - b.worker),
    );
    for (const { pid } of workers) expect(() => process.kill(Number(pid), 0)).toThrow(/ESRCH/);
    expect(server.logs.at(-1)).toMatchObject({ msg: 'bye' });
    expect(server.logs.at(-1)?.worker).toBeUndefined();
  });
});

describe.skipIf(!siteBuilt)('a port already in use (skipped without a build)', () => {
  const dirs: string[] = [];
  let taken: ReturnType<typeof createServer>;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the server on the taken port and waits for it to give up. */
  async function startOnTakenPort(workers: number) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-port-'));
    dirs.push(dataDir);
    const server = startServer({
      WEB_CONCURRENCY: String(workers),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
    });
    const code = await server.exit;
    const stderr = server.stderr();
    return { code, lines: stderr.trim().split('\n') };
  }

  it('one process says so in one line and exits 1', async () => {
    const { code, lines } = await startOnTakenPort(1);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `Cannot start: port ${port} on 127.0.0.1 is already in use; stop the server that holds it or set PORT to another port.`,
    ]);
  });

  it('several: the primary stops retrying, says why in one line and exits 1', async () => {
    const { code, lines } = await startOnTakenPort(2);
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Cannot start: port ${port} on 127\\.0\\.0\\.1 is already in use; .+ \\(5 server processes in a row failed to start; giving up\\.\\)$`,
      ),
    );
  }, 60_000);
});
