// npm run bench:pages — what readers feel on the biggest catalogue: 100 000 generated games (SQLite),
// 50 connections per row. For one server process and for WEB_CONCURRENCY=2 it measures a static file
// as large as the pages (the reference), then /, /galgame, /galgame/list with two filters,
// /galgame/{id}, /galgame/{id}/download and a docs page, as a visitor (page cache) and as a logged-in
// member (always rendered), and prints req/s, p50, p99 and the share of the reference. Then the
// gzipped JavaScript each visitor page loads in Chromium. Run `npm run build` first.
//
// The generated database is kept in .bench/pages between runs (BENCH_FRESH=1 regenerates it).
// BENCH_SECONDS (default 10) per row, BENCH_CONNECTIONS (50), BENCH_GAMES (100000),
// BENCH_PROCESSES ("1,2").
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { loginCookie } from './bench-server.ts';
import { PAGE_JS_BUDGET, measurePageWeight } from './page-weight.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4397);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const games = Number(process.env.BENCH_GAMES ?? 100_000);
const processSets = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
const dataDir = path.join(root, '.bench/pages');
const base = `http://127.0.0.1:${port}`;
const node = [process.execPath, '--disable-warning=ExperimentalWarning'] as const;
const member = { name: 'bench_member', email: 'bench@hikari.local', password: 'bench-member-2026' };

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
if (process.env.BENCH_FRESH === '1') rmSync(dataDir, { recursive: true, force: true });
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  PORT: String(port),
  HOST: '127.0.0.1',
};

function run(args: string[], input?: string): void {
  const result = spawnSync(node[0], [node[1], ...args], {
    cwd: root,
    env,
    input,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  if (result.status !== 0) process.exit(1);
}

if (!existsSync(path.join(dataDir, 'hikari.db'))) {
  mkdirSync(dataDir, { recursive: true });
  run(['src/server/cli/catalogue-generate.ts', '--count', String(games)]);
  run(['src/server/cli/user-create.ts', '--name', member.name, '--email', member.email], `${member.password}\n`);
}

async function startServer(processes: number): Promise<ChildProcess> {
  const server = spawn(node[0], [node[1], 'src/server/main.ts'], {
    cwd: root,
    env: { ...env, WEB_CONCURRENCY: String(processes) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 150; i++) {
    const up = await fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) return server;
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill('SIGKILL');
  throw new Error('the server did not start');
}

async function stopServer(server: ChildProcess): Promise<void> {
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

/** The member's cookies as the browser keeps them after logging in. */
const memberCookie = () => loginCookie(base, member.name, member.password);

/** A game id of the generated catalogue with a download entry, ratings and a long page. */
const sampleIds = Array.from({ length: 50 }, (_, i) => 1 + ((i * 1999) % games));
const pages: { name: string; paths: string[]; memberToo: boolean }[] = [
  { name: '/', paths: ['/'], memberToo: true },
  { name: '/galgame', paths: ['/galgame'], memberToo: true },
  {
    name: '/galgame/list (2 filters)',
    paths: [
      '/galgame/list?tag=5&platform=windows',
      '/galgame/list?tag=12&year=2010',
      '/galgame/list?platform=switch&sort=rating',
      '/galgame/list?translation=fan&nsfw=safe&sort=popularity',
    ],
    memberToo: true,
  },
  { name: '/galgame/{id}', paths: sampleIds.map((id) => `/galgame/${id}`), memberToo: true },
  { name: '/galgame/{id}/download', paths: sampleIds.map((id) => `/galgame/${id}/download`), memberToo: true },
  { name: 'docs page', paths: ['/docs/guide/getting-started'], memberToo: false },
];

interface Row {
  processes: number;
  page: string;
  as: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  'share of static': string;
  target: string;
  errors: number;
}

async function measure(paths: string[], headers: Record<string, string> = {}) {
  const requests = paths.map((p) => ({ method: 'GET' as const, path: p, headers }));
  // Warm up: first renders, page cache, SQLite page cache, JIT.
  await autocannon({ url: base, connections: Math.min(connections, 8), duration: 2, requests });
  const result = await autocannon({ url: base, connections, duration: seconds, requests });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** A static HTML file as large as a typical page (the median), served like any file in dist/client. */
function writeReference(bytes: number): { path: string; remove: () => void } {
  const dir = path.join(root, 'dist/client/bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'reference.html');
  const filler = 'Hikari 光 catalogue reference page. ';
  const text = `<!doctype html><html lang="zh-CN"><body>${filler.repeat(Math.ceil(bytes / filler.length))}</body></html>`;
  writeFileSync(file, text.slice(0, Math.max(bytes, 200)));
  return { path: '/bench/reference.html', remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const rows: Row[] = [];
let reference: ReturnType<typeof writeReference> | null = null;
let weights: Awaited<ReturnType<typeof measurePageWeight>> = [];
try {
  // Page sizes first (one process), for the reference file and the JavaScript table.
  let server = await startServer(1);
  const visitorPaths = [
    '/',
    '/galgame',
    pages[2]!.paths[0]!,
    `/galgame/${sampleIds[1]}`,
    `/galgame/${sampleIds[1]}/download`,
    '/docs/guide/getting-started',
  ];
  try {
    weights = await measurePageWeight(base, visitorPaths);
  } finally {
    await stopServer(server);
  }
  const sizes = weights.map((w) => w.htmlBytes).sort((a, b) => a - b);
  const typical = sizes[Math.floor(sizes.length / 2)] ?? 50_000;
  reference = writeReference(typical);

  for (const processes of processSets) {
    server = await startServer(processes);
    try {
      const cookie = await memberCookie();
      const staticRun = await measure([reference.path]);
      const share = (rps: number) => `${Math.round((rps / staticRun.rps) * 100)} %`;
      rows.push({
        processes,
        page: `static file (${Math.round(typical / 1000)} KB)`,
        as: '—',
        'req/s': staticRun.rps,
        'p50 ms': staticRun.p50,
        'p99 ms': staticRun.p99,
        'share of static': '100 %',
        target: 'reference',
        errors: staticRun.errors,
      });
      for (const page of pages) {
        const visitor = await measure(page.paths);
        const ok = visitor.rps >= staticRun.rps * 0.4 && visitor.p99 < 100;
        rows.push({
          processes,
          page: page.name,
          as: 'visitor',
          'req/s': visitor.rps,
          'p50 ms': visitor.p50,
          'p99 ms': visitor.p99,
          'share of static': share(visitor.rps),
          target: `≥ 40 %, p99 < 100 ms: ${ok ? 'met' : 'MISSED'}`,
          errors: visitor.errors,
        });
        if (!page.memberToo) continue;
        const logged = await measure(page.paths, { cookie });
        rows.push({
          processes,
          page: page.name,
          as: 'member',
          'req/s': logged.rps,
          'p50 ms': logged.p50,
          'p99 ms': logged.p99,
          'share of static': share(logged.rps),
          target: `≥ 10 %: ${logged.rps >= staticRun.rps * 0.1 ? 'met' : 'MISSED'}`,
          errors: logged.errors,
        });
      }
    } finally {
      await stopServer(server);
    }
  }
} finally {
  reference?.remove();
}

const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
console.log(
  `\nHikari ${version.version}: ${games} games, SQLite, ${connections} connections, ${seconds} s per row, Node ${process.versions.node}`,
);
console.table(rows);
console.log('\nJavaScript and HTML per visitor page (Chromium, first load):');
console.table(
  weights.map((w) => ({
    page: w.path,
    'JS gzip KB': Math.round(w.jsGzipBytes / 100) / 10,
    'JS files': w.jsFiles,
    'HTML KB': Math.round(w.htmlBytes / 100) / 10,
    target: w.jsGzipBytes <= PAGE_JS_BUDGET ? 'met' : 'MISSED',
  })),
);
