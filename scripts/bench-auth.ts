// npm run bench:auth — argon2id verify time (in process), login throughput of the built server
// (requests per second at 20 concurrent connections, 100 accounts), and bursts from one address: 60
// right passwords at once (a class logging in together) and 100 wrong ones at once (a guesser).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { hashPassword, verifyPassword } from '../src/server/modules/auth/password.ts';
import { connectDatabase } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrator.ts';
import { createUser } from '../src/server/modules/users/users.service.ts';
import { startBenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4397);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const hash = await hashPassword('benchmark password 123');
const times: number[] = [];
for (let i = 0; i < 40; i++) {
  const started = performance.now();
  await verifyPassword(hash, 'benchmark password 123');
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(
  `argon2id verify (m=19456 KiB, t=2, p=1), 40 runs: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`,
);

// 100 accounts and 100 client addresses, so the load is spread over the per-account and per-address
// counters as real members' would be: each connection starts at a different account.
const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-auth-'));
const ACCOUNTS = 100;
const PASSWORD = 'benchmark password 123';
{
  const { db, close } = connectDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
  await migrateToLatest(db);
  const passwordHash = await hashPassword(PASSWORD);
  for (let i = 0; i < ACCOUNTS; i++)
    await createUser(db, { name: `bench_${i}`, email: `bench_${i}@bench.test`, passwordHash });
  await close();
}
const server = await startBenchServer(port, { DATA_DIR: dataDir, SEED_DEMO: 'false', TRUST_PROXY: 'true' });
try {
  const requests = Array.from({ length: ACCOUNTS }, (_, i) => ({
    method: 'POST' as const,
    path: '/api/v2/user/login',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.77.0.${i + 1}` },
    body: JSON.stringify({ account: `bench_${i}`, password: PASSWORD }),
  }));
  let client = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 20,
    duration: seconds,
    requests,
    setupClient: (c) => {
      const offset = (client++ * 5) % ACCOUNTS;
      c.setRequests([...requests.slice(offset), ...requests.slice(0, offset)]);
    },
  });
  console.log(
    `login, 20 connections, ${seconds} s: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );

  // All at once from one address, each on its own connection: a class behind one school address, then a
  // guesser. Right passwords must all get in; wrong ones are checked up to the address's budget (20).
  const burst = async (label: string, count: number, address: string, password: (i: number) => string) => {
    const answers = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const started = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/api/v2/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ account: `bench_${i}`, password: password(i) }),
        });
        await res.arrayBuffer();
        return { status: res.status, ms: performance.now() - started };
      }),
    );
    const statuses = new Map<number, number>();
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const times = answers.map((a) => a.ms).sort((a, b) => a - b);
    console.log(
      `${label}: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}; p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms`,
    );
  };
  await burst('60 right passwords at once from one address', 60, '10.78.0.1', () => PASSWORD);
  await burst('100 wrong passwords at once from one address', 100, '10.78.0.2', (i) => `wrong guess ${i}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
