/**
 * npm run bench:outage — what readers and writers meet when PostgreSQL goes away under load, on the
 * built server (two processes) and a PostgreSQL server of its own (the Debian package's programs):
 *
 * 1. every pooled connection ended three times (`pg_terminate_backend`) under 50 connections;
 * 2. PostgreSQL stopped for 15 s under 50 connections of reads and four chat members writing: the
 *    answers meanwhile, how long after PostgreSQL accepts connections the site serves again, the
 *    server processes' memory, and whether every acknowledged message is stored;
 * 3. a start while PostgreSQL is down: how long after it comes up the site is ready.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { connectDatabase } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrator.ts';
import { signAccessToken } from '../src/server/modules/auth/tokens.ts';
import { createUser } from '../src/server/modules/users/users.service.ts';
import { startPostgresServer } from '../tests/support/postgres-server.ts';
import { readyPort, siteBuilt, startServer, type ServerProcess } from '../tests/support/server-process.ts';

const CONNECTIONS = 50;
const OUTAGE_MS = 15_000;
const JWT_SECRET = 'bench-outage-secret-0123456789abcdef';

if (!siteBuilt) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}

interface Sample {
  at: number;
  status: number;
}

/** CONNECTIONS lanes of GET requests, one after another per lane, each answer timed. */
function load(port: number, token: string) {
  const samples: Sample[] = [];
  let running = true;
  const lane = async () => {
    while (running) {
      const status = await fetch(`http://127.0.0.1:${port}/api/v2/user/profile`, {
        headers: { authorization: `Bearer ${token}` },
      }).then(
        async (res) => {
          await res.arrayBuffer();
          return res.status;
        },
        () => 0,
      );
      samples.push({ at: performance.now(), status });
    }
  };
  const done = Promise.all(Array.from({ length: CONNECTIONS }, lane));
  return {
    samples,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (samples: Sample[], status: number) => samples.filter((s) => s.status === status).length;

/** Resident memory of the server's processes (primary and workers), MB. */
function rssMb(server: ServerProcess): number {
  const pids = [server.child.pid, ...server.logs.filter((l) => l.msg === 'server process started').map((l) => l.pid)];
  let kb = 0;
  for (const pid of pids) {
    try {
      const line = readFileSync(`/proc/${String(pid)}/status`, 'utf8').match(/^VmRSS:\s+(\d+)/m);
      kb += Number(line?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024);
}

const postgres = await startPostgresServer();
const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-outage-'));
const servers: ServerProcess[] = [];
try {
  const admin = new pg.Client({ connectionString: postgres.url });
  // Ended when PostgreSQL stops (part 2); only parts 1 and the setup use it.
  admin.on('error', () => {});
  await admin.connect();
  await admin.query('create database hikari');
  const handle = connectDatabase({ dialect: 'postgres', url: postgres.urlOf('hikari') }, { poolSize: 2 });
  await migrateToLatest(handle.db);
  const tokens: string[] = [];
  const receivers: number[] = [];
  for (let i = 0; i < 8; i++) {
    const user = await createUser(handle.db, { name: `bench_${i}`, email: `b${i}@example.test`, passwordHash: 'x' });
    if (i < 4) tokens.push(await signAccessToken(JWT_SECRET, { id: user.id, group: 'user' }));
    else receivers.push(user.user_id);
  }
  const env = {
    WEB_CONCURRENCY: '2',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.urlOf('hikari'),
    JWT_SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
  };
  const server = startServer(env);
  servers.push(server);
  const port = await readyPort(server);
  const exits = () => server.logs.filter((l) => String(l.msg).startsWith('server process exited')).length;

  // 1. Connections ended under load.
  let traffic = load(port, tokens[0]!);
  await wait(2000);
  for (let round = 0; round < 3; round++) {
    await admin.query(
      `with doomed as materialized (select pid from pg_stat_activity where datname = 'hikari'
       and pid <> pg_backend_pid() and backend_type = 'client backend')
       select pg_terminate_backend(pid) from doomed`,
    );
    await wait(1000);
  }
  await traffic.stop();
  const s1 = traffic.samples;
  console.log('\n1. every pooled connection ended 3 times, 50 connections of reads');
  console.log(
    `   ${s1.length} answers: ${count(s1, 200)} × 200, ${count(s1, 503)} × 503, ${s1.length - count(s1, 200) - count(s1, 503)} other; processes exited: ${exits()}`,
  );

  // 2. PostgreSQL stopped for 15 s under reads and chat writes.
  const acked = new Map<string, string>();
  const sockets = await Promise.all(
    tokens.map(async (token, i) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${encodeURIComponent(token)}`);
      ws.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as { type: string; clientId?: string; _id?: string };
        if (frame.type === 'message_sent' && frame.clientId && frame._id) acked.set(frame.clientId, frame._id);
      });
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      let n = 0;
      const timer = setInterval(() => {
        const clientId = `bench-${i}-${String(n++).padStart(5, '0')}`;
        ws.send(JSON.stringify({ type: 'message', receiverId: receivers[i], content: clientId, clientId }));
      }, 700);
      return { ws, stop: () => clearInterval(timer) };
    }),
  );
  traffic = load(port, tokens[0]!);
  await wait(3000);
  const rssBefore = rssMb(server);
  await postgres.stop();
  const downAt = performance.now();
  await wait(OUTAGE_MS / 2);
  const rssDuring = rssMb(server);
  await wait(OUTAGE_MS / 2);
  const restartAt = performance.now();
  await postgres.start();
  const upAt = performance.now();
  await wait(5000);
  for (const s of sockets) s.stop();
  await traffic.stop();
  const rssAfter = rssMb(server);
  const during = traffic.samples.filter((s) => s.at > downAt + 500 && s.at < restartAt);
  const firstOk = traffic.samples.find((s) => s.at > upAt && s.status === 200);
  const lastBad = traffic.samples.filter((s) => s.at > upAt && s.status !== 200).at(-1);
  const ids = [...acked.values()].map(Number);
  const stored = ids.length
    ? await handle.db.selectFrom('private_message').select('id').where('id', 'in', ids).execute()
    : [];
  console.log('\n2. PostgreSQL stopped for 15 s, 50 connections of reads and 4 members sending chat messages');
  console.log(
    `   during the outage: ${during.length} answers, ${count(during, 503)} × 503 DATABASE_UNAVAILABLE, ${during.length - count(during, 503)} other`,
  );
  const failedAfter = traffic.samples.filter((s) => s.at > upAt && s.status !== 200).length;
  console.log(
    `   first 200 answer ${firstOk ? Math.round(firstOk.at - restartAt) : '–'} ms after PostgreSQL was started (pg_ctl start -w took ${Math.round(upAt - restartAt)} ms); ${failedAfter} failed answers once it accepted connections${lastBad ? `, the last ${Math.round(lastBad.at - upAt)} ms after` : ''}`,
  );
  console.log(
    `   server memory (RSS, all processes): ${rssBefore} MB before, ${rssDuring} MB during, ${rssAfter} MB after`,
  );
  console.log(`   chat messages acknowledged: ${acked.size}, stored: ${stored.length}; processes exited: ${exits()}`);
  for (const s of sockets) s.ws.terminate();
  await handle.close();

  // 3. A start while PostgreSQL is down.
  await postgres.stop();
  const late = startServer(env);
  servers.push(late);
  await late.waitForLog((l) => l.msg === 'waiting for the database to start', 30_000);
  await wait(3000);
  await postgres.start();
  const startedAt = performance.now();
  await readyPort(late);
  console.log('\n3. a start while PostgreSQL is down');
  console.log(`   ready ${Math.round(performance.now() - startedAt)} ms after PostgreSQL accepted connections\n`);
  await admin.end().catch(() => undefined);
} finally {
  for (const s of servers) s.kill();
  await postgres.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
