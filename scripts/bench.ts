// npm run bench — load test of the built server: requests per second and p50/p99 latency for the
// home page and a docs page at 50 concurrent connections. Run `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4398);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const targets = (process.env.BENCH_PATHS ?? '/,/docs/community/community-regulation').split(',');

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-'));
const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'src/server/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

interface Row {
  path: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
  non2xx: number;
}

try {
  await waitForHealth();
  const rows: Row[] = [];
  for (const target of targets) {
    // A short warm-up so the first-request costs (module loading, JIT) do not count.
    await autocannon({ url: `http://127.0.0.1:${port}${target}`, connections: 10, duration: 2 });
    const result = await autocannon({ url: `http://127.0.0.1:${port}${target}`, connections, duration: seconds });
    rows.push({
      path: target,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    });
  }
  const processes = process.env.WEB_CONCURRENCY || `${availableParallelism()} (one per core)`;
  console.log(
    `\n${connections} connections, ${seconds} s per path, Node ${process.versions.node}, SQLite, ${processes} server processes`,
  );
  console.table(rows);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
