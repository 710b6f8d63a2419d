// npm run bench:checkin — daily check-ins through the built server's API by distinct members, 50 at a
// time, then the ledger's invariant for every member (points/points.service.ts verifyPoints).
// Each request is POST /api/v2/user/check-in by a member who has not checked in today (one request per
// member; the token is signed here with the server's JWT secret), so every one of them writes the day,
// the streak, the balance and a ledger row. Prints check-ins per second, latency p50/p95/p99, the
// answers by status, and the invariant, against the target (≥ 500 check-ins/s on SQLite).
// SQLite in a temporary directory by default; BENCH_DATABASE_URL=postgres://… (an empty database it
// may fill) runs the same on PostgreSQL. BENCH_MEMBERS (20000), BENCH_CONNECTIONS (50),
// BENCH_PORT (4493), WEB_CONCURRENCY (server processes, the server's default when unset).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrator.ts';
import { signAccessToken } from '../src/server/modules/auth/tokens.ts';
import { verifyPoints } from '../src/server/modules/points/points.service.ts';
import { createBenchMembers } from './bench-members.ts';
import { startBenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const members = Number(process.env.BENCH_MEMBERS ?? 20_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const port = Number(process.env.BENCH_PORT ?? 4493);
const pgUrl = process.env.BENCH_DATABASE_URL;
const TARGET_PER_SECOND = 500;
const WARM_UP = 500;

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-checkin-'));
const secret = randomBytes(32).toString('hex');
const handle = pgUrl
  ? connectDatabase({ dialect: 'postgres', url: pgUrl })
  : connectDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
const { db } = handle;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Run {
  perSecond: number;
  latencies: number[];
  statuses: Map<number, number>;
  points: number;
  seconds: number;
}

/** Checks in every member once, `connections` requests in flight at a time. */
async function checkInAll(base: string, tokens: string[]): Promise<Run> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  let points = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = next++; i < tokens.length; i = next++) {
        const sent = performance.now();
        const res = await fetch(`${base}/api/v2/user/check-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i]}` },
          body: '{}',
        });
        const body = (await res.json()) as { data?: { points?: number } };
        latencies.push(performance.now() - sent);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        points += body.data?.points ?? 0;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: tokens.length / seconds, latencies, statuses, points, seconds };
}

await migrateToLatest(db);
const ids = (await createBenchMembers(db, WARM_UP + members, `bench_${randomBytes(3).toString('hex')}`)).map(
  (member) => member.id,
);
const tokens = await Promise.all(ids.map((id) => signAccessToken(secret, { id, group: 'user' })));
const server = await startBenchServer(port, {
  DATA_DIR: dataDir,
  SEED_DEMO: 'false',
  JWT_SECRET: secret,
  ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
});
try {
  const base = `http://127.0.0.1:${port}`;
  await checkInAll(base, tokens.slice(0, WARM_UP));
  const run = await checkInAll(base, tokens.slice(WARM_UP));
  const { checked, mismatches } = await verifyPoints(db);
  const rows = await db
    .selectFrom('check_in')
    .select((eb) => [eb.fn.countAll<number>().as('days'), eb.fn.sum<number>('points').as('points')])
    .executeTakeFirstOrThrow();
  const ms = (p: number) => `${percentile(run.latencies, p).toFixed(1)} ms`;
  const statuses = [...run.statuses].map(([status, n]) => `${status}×${n}`).join(', ');
  const ok = run.statuses.get(200) ?? 0;
  console.log(
    `\nCheck-ins by ${members} distinct members, ${connections} connections, ${pgUrl ? 'PostgreSQL' : 'SQLite'}, ` +
      `${process.env.WEB_CONCURRENCY ?? 'default'} server processes, ${cpus().length} cores\n`,
  );
  console.log(
    `  ${Math.round(run.perSecond)} check-ins/s (${run.seconds.toFixed(1)} s), target ≥ ${TARGET_PER_SECOND}`,
  );
  console.log(`  latency p50 ${ms(50)}, p95 ${ms(95)}, p99 ${ms(99)}, max ${ms(100)}`);
  console.log(`  answers: ${statuses}`);
  console.log(
    `  stored: ${Number(rows.days)} check-in days (${WARM_UP} of them warm-up), ${Number(rows.points)} points in them`,
  );
  console.log(
    `  invariant: ${checked} members checked, ${mismatches.length} balances differ from their ledger` +
      (mismatches.length ? ` (first: ${JSON.stringify(mismatches[0])})` : ''),
  );
  const pass = run.perSecond >= TARGET_PER_SECOND && mismatches.length === 0 && ok === members;
  console.log(`\n  ${pass ? 'PASS' : 'FAIL'}`);
  if (!pass) process.exitCode = 1;
} finally {
  await server.stop();
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
}
