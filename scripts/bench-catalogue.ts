// npm run bench:catalogue — /galgame/list with two filters and /galgame/{id} on 50 000 generated games
// (SQLite): p50/p99 render latency with one connection, and throughput with 10 connections. Run `npm run build` first. The generated database is
// kept in .bench/catalogue between runs (BENCH_FRESH=1 regenerates it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4396);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connectionSets = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
const count = Number(process.env.BENCH_GAMES ?? 50_000);
const dataDir = path.join(root, '.bench/catalogue');
if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
if (process.env.BENCH_FRESH === '1') rmSync(dataDir, { recursive: true, force: true });
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  PORT: String(port),
  HOST: '127.0.0.1',
};
if (!existsSync(path.join(dataDir, 'hikari.db'))) {
  mkdirSync(dataDir, { recursive: true });
  const gen = spawnSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'src/server/cli/catalogue-generate.ts', '--count', String(count)],
    {
      cwd: root,
      // Bulk inserts are slow by design: no slow-query lines while generating.
      env: { ...env, SLOW_QUERY_MS: '0' },
      stdio: 'inherit',
    },
  );
  if (gen.status !== 0) process.exit(1);
}

const server = await startBenchServer(port, { DATA_DIR: dataDir, SEED_DEMO: 'false' });
try {
  const targets: [string, string[]][] = [
    [
      '/galgame/list, two filters',
      [
        '/galgame/list?tag=5&platform=windows',
        '/galgame/list?tag=12&year=2010',
        '/galgame/list?platform=switch&sort=rating',
        '/galgame/list?translation=fan&nsfw=safe&sort=popularity',
      ],
    ],
    ['/galgame/{id}', Array.from({ length: 50 }, (_, i) => `/galgame/${1 + i * 997}`)],
  ];
  const rows = [];
  for (const [name, paths] of targets) {
    // Each connection walks through the paths in turn.
    const requests = paths.map((p) => ({ method: 'GET' as const, path: p }));
    await autocannon({ url: `http://127.0.0.1:${port}`, connections: 4, duration: 2, requests });
    for (const connections of connectionSets) {
      const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: seconds, requests });
      rows.push({
        page: name,
        connections,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    }
  }
  console.log(`\n${count} games, SQLite, ${seconds} s per row, Node ${process.versions.node}`);
  console.table(rows);
} finally {
  await server.stop();
}
