// npm run bench — load test of the built server: requests per second and p50/p99 latency for the
// home page and a docs page at 50 concurrent connections. Run `npm run build` first.
import { startBenchServer } from './bench-server.ts';
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
interface Row {
  path: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
  non2xx: number;
}

const server = await startBenchServer(port, { DATA_DIR: dataDir });
try {
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
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
