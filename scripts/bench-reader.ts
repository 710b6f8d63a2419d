// npm run bench:reader — how long a reader waits for the first page of a 5 MB EPUB. A volume of the
// demo catalogue gets a generated book of BENCH_EPUB_MB megabytes (buildSizedEpub: the demo story with
// large images), then headless Chromium opens /lightnovel/read for it BENCH_RUNS times per row and
// reads the `reader-first-page` mark the reader sets when foliate reports its first relocation (time
// from navigation start). Rows: desktop (1280×800) and phone (390×844), each with a cold cache (a new
// browser context every run) and a warm one (one context, a first load not counted). Prints median and
// p95. Run `npm run build` first.
//
// The data is kept in .bench/reader between runs (BENCH_FRESH=1 starts again). BENCH_PORT (4472),
// BENCH_RUNS (9), BENCH_EPUB_MB (5), CHROMIUM_PATH (/usr/bin/chromium).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright';
import { connectDatabase } from '../src/server/db/connect.ts';
import { buildSizedEpub } from '../src/server/modules/lightnovel/epub/demo-books.ts';
import { attachEpub } from '../src/server/modules/lightnovel/epub/epub.service.ts';
import { loadConfig } from '../src/server/platform/config.ts';
import { createStorage, uploadSecret } from '../src/server/platform/storage/create-storage.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4472);
const runs = Number(process.env.BENCH_RUNS ?? 9);
const megabytes = Number(process.env.BENCH_EPUB_MB ?? 5);
const dataDir = path.join(root, '.bench/reader');
const base = `http://127.0.0.1:${port}`;
const node = [process.execPath, '--disable-warning=ExperimentalWarning'] as const;

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
if (process.env.BENCH_FRESH === '1') rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'true',
  PORT: String(port),
  HOST: '127.0.0.1',
  WEB_CONCURRENCY: '1',
};

async function startServer(): Promise<ChildProcess> {
  const server = spawn(node[0], [node[1], 'src/server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
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

/** Main volume 1 of demo series 4 (which has no book of its own) gets the sized book, once. */
async function prepareVolume(): Promise<{ volumeId: number; bytes: number }> {
  const config = loadConfig(env);
  const handle = connectDatabase(config.database);
  try {
    const volume = await handle.db
      .selectFrom('lightnovel_volume')
      .select(['id', 'epub_size'])
      .where('lightnovel_id', '=', 4)
      .where('kind', '=', 'main')
      .where('number', '=', 1)
      .executeTakeFirstOrThrow();
    const wanted = megabytes * 1024 * 1024;
    if (Math.abs(Number(volume.epub_size) - wanted) < wanted * 0.05) {
      return { volumeId: volume.id, bytes: Number(volume.epub_size) };
    }
    const file = path.join(dataDir, 'sized.epub');
    writeFileSync(file, await buildSizedEpub(wanted));
    const storage = createStorage(config, { uploadSecret: uploadSecret(config) });
    const attached = await attachEpub({ db: handle.db, storage }, volume.id, file, null);
    rmSync(file, { force: true });
    return { volumeId: volume.id, bytes: attached.epub?.size ?? wanted };
  } finally {
    await handle.close();
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

/** Milliseconds from navigation start to the first page drawn. */
async function firstPage(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.waitForSelector('html[data-reader-ready]', { timeout: 60_000 });
    return await page.evaluate(() => performance.getEntriesByName('reader-first-page')[0]?.startTime ?? Number.NaN);
  } finally {
    await page.close();
  }
}

interface Row {
  device: string;
  cache: string;
  times: number[];
}

async function measure(browser: Browser, url: string): Promise<Row[]> {
  const devices = [
    { name: 'desktop 1280×800', viewport: { width: 1280, height: 800 }, hasTouch: false },
    { name: 'phone 390×844', viewport: { width: 390, height: 844 }, hasTouch: true },
  ];
  const rows: Row[] = [];
  for (const device of devices) {
    const options = { viewport: device.viewport, hasTouch: device.hasTouch };
    const cold: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext(options);
      cold.push(await firstPage(context, url));
      await context.close();
    }
    rows.push({ device: device.name, cache: 'cold', times: cold });
    const context = await browser.newContext(options);
    await firstPage(context, url);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) warm.push(await firstPage(context, url));
    await context.close();
    rows.push({ device: device.name, cache: 'warm', times: warm });
  }
  return rows;
}

const server = await startServer();
let browser: Browser | null = null;
try {
  const { volumeId, bytes } = await prepareVolume();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const rows = await measure(browser, `${base}/lightnovel/read?volumeId=${volumeId}`);
  console.log(`\nTime to the first page of a ${(bytes / 1024 / 1024).toFixed(1)} MB EPUB (${runs} runs a row)\n`);
  console.log('| device | cache | median | p95 |');
  console.log('| --- | --- | ---: | ---: |');
  for (const row of rows) {
    const sorted = [...row.times].sort((a, b) => a - b);
    const ms = (value: number) => `${Math.round(value)} ms`;
    console.log(`| ${row.device} | ${row.cache} | ${ms(quantile(sorted, 0.5))} | ${ms(quantile(sorted, 0.95))} |`);
  }
} finally {
  await browser?.close();
  await stopServer(server);
}
