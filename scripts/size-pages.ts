// npm run size:pages [-- --games 20000] [--locale en] — the weight of every visitor page as Chromium loads
// it on a first visit: gzipped JavaScript and the HTML document, against the budgets (100 kB of JS per
// page, 60 kB of HTML for /galgame). Starts the built server on a temporary data directory with the
// demo content, or with `--games <n>` generated games instead. Run `npm run build` first. Exits 1 when
// a page is over budget.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  GALGAME_HTML_BUDGET,
  PAGE_JS_BUDGET,
  measurePageWeight,
  overBudget,
  visitorPagePaths,
  type PageWeight,
} from './page-weight.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { games: { type: 'string' }, locale: { type: 'string', default: 'zh-CN' } },
});
const games = values.games === undefined ? null : Number(values.games);
if (games !== null && (!Number.isInteger(games) || games < 1 || games > 1_000_000)) {
  console.error('--games must be a whole number from 1 to 1000000');
  process.exit(2);
}
const locale = values.locale;
if (locale !== 'zh-CN' && locale !== 'en') {
  console.error('--locale must be zh-CN or en');
  process.exit(2);
}
if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}

/** A port nothing listens on right now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

function table(weights: PageWeight[]): string {
  const rows = weights.map((w) => {
    const galgame = new URL(w.path, 'http://x').pathname === '/galgame';
    return [
      w.path,
      String(w.status),
      kb(w.jsGzipBytes),
      String(w.jsFiles),
      kb(w.htmlBytes),
      `JS ≤ ${kb(PAGE_JS_BUDGET)}${galgame ? `, HTML ≤ ${kb(GALGAME_HTML_BUDGET)}` : ''}`,
      overBudget(w).length === 0 ? 'pass' : 'FAIL',
    ];
  });
  const head = ['page', 'status', 'JS gz kB', 'JS files', 'HTML kB', 'budget (kB)', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-size-pages-'));
const port = await freePort();
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  SEED_DEMO: games === null ? 'true' : 'false',
};
const node = ['--disable-warning=ExperimentalWarning'];
let server: ReturnType<typeof spawn> | null = null;
let failed = false;
try {
  if (games !== null) {
    const generated = spawnSync(
      process.execPath,
      [...node, 'src/server/cli/catalogue-generate.ts', '--count', String(games)],
      { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
    if (generated.status !== 0) throw new Error(`generating the catalogue failed:\n${generated.stderr}`);
  }
  server = spawn(process.execPath, [...node, 'src/server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  let up = false;
  for (let i = 0; i < 150 && !up; i++) {
    up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 200));
  }
  if (!up) throw new Error('the server did not start');
  const weights = await measurePageWeight(base, await visitorPagePaths(base), { locale });
  console.log(
    `\n${games === null ? 'Demo content' : `${games} generated games`}, ${locale}, Chromium first visit (gzip of each JS file, counted once)\n`,
  );
  console.log(table(weights));
  const over = weights.flatMap(overBudget);
  if (over.length > 0) {
    failed = true;
    console.log(`\nOver budget:\n${over.map((o) => `  ${o}`).join('\n')}`);
  }
} finally {
  if (server) {
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
