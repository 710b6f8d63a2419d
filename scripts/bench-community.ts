// npm run bench:community — the community pages on a big generated community (SQLite): 2 000 members,
// 50 000 posts, 5 000 articles, their comments, likes and favourites, and a "big thread" post with 200
// comments (npm run community:generate), beside 5 000 generated games the posts name. For one server
// process and for WEB_CONCURRENCY=2, at 50 connections, it measures /community, the slowest list of the
// front page (/community?sort=hot&page=2), the section with the most posts, the most used topic, the
// big thread and the article with the most comments, as a visitor (the visitors' copy in the page
// cache) and as a logged-in member (the copy members share), and prints req/s, p50, p99, errors and
// the target: p50 < 30 ms for /community and the big thread. For those two pages it also measures a
// member whose every request renders (a new query string each time: what a change to the page costs
// until it is kept again), and, once, that render time on a single connection (200 requests one after
// another: no queueing). Last, what loading their data costs when the shared reads miss (in process:
// queries, their time, the slowest one).
// Run `npm run build` first.
//
// The generated database is kept in .bench/community between runs (BENCH_FRESH=1 regenerates it; the
// big thread is two days old when generated, so regenerate after a few days to keep it "hot").
// BENCH_SECONDS (default 10) per row, BENCH_CONNECTIONS (50), BENCH_PROCESSES ("1,2"), BENCH_PORT (4396),
// BENCH_POSTS (50000), BENCH_ARTICLES (5000), BENCH_USERS (2000), BENCH_GAMES (5000; 0 for none).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { connectDatabase } from '../src/server/db/connect.ts';
import { listAnnouncements } from '../src/server/modules/announcement/announcement.service.ts';
import { listComments } from '../src/server/modules/comments/comments.service.ts';
import {
  BIG_THREAD_REPLIES,
  BIG_THREAD_ROOTS,
  GENERATED_EMAIL_DOMAIN,
  GENERATED_PASSWORD,
} from '../src/server/modules/community/community.generate.ts';
import { feed, getCommunityFront } from '../src/server/modules/community/feed.service.ts';
import { getPostDetail } from '../src/server/modules/community/posts.service.ts';
import { appTargets } from '../src/server/modules/index.ts';
import { COMMENT_PAGE_DEFAULT } from '../src/shared/comments/comments.ts';
import { articlePath } from '../src/shared/community/community.ts';
import { loginCookie, measureLoad, startBenchServer, uncached } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4396);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const processSets = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
const generated = {
  users: process.env.BENCH_USERS ?? '2000',
  posts: process.env.BENCH_POSTS ?? '50000',
  articles: process.env.BENCH_ARTICLES ?? '5000',
  games: Number(process.env.BENCH_GAMES ?? 5000),
};
const dataDir = path.join(root, '.bench/community');
const file = path.join(dataDir, 'hikari.db');
const base = `http://127.0.0.1:${port}`;
/** The pages whose render must stay under TARGET_MS at p50. */
const TARGET_MS = 30;
const SINGLE_RUNS = 200;
const LOAD_RUNS = 50;

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
if (process.env.BENCH_FRESH === '1') rmSync(dataDir, { recursive: true, force: true });

function generate(script: string, args: string[]): void {
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', script, ...args], {
    cwd: root,
    // Bulk inserts are slow by design: no slow-query lines while generating.
    env: { ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', SLOW_QUERY_MS: '0' },
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    // A half-made database would be measured next time as if it were whole.
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  }
}

if (!existsSync(file)) {
  mkdirSync(dataDir, { recursive: true });
  if (generated.games > 0) generate('src/server/cli/catalogue-generate.ts', ['--count', String(generated.games)]);
  generate('src/server/cli/community-generate.ts', [
    '--users',
    generated.users,
    '--posts',
    generated.posts,
    '--articles',
    generated.articles,
  ]);
}

// ── What to measure, read from the generated database ─────────────────────────────────────────────

const handle = connectDatabase({ dialect: 'sqlite', file });
const db = handle.db;
const bigThread = await db
  .selectFrom('post')
  .select(['id', 'title'])
  .where('status', '=', 'published')
  .where('comment_count', '=', BIG_THREAD_ROOTS + BIG_THREAD_REPLIES)
  .orderBy('id', 'desc')
  .executeTakeFirst();
if (!bigThread) throw new Error('the generated database has no post with 200 comments; run with BENCH_FRESH=1');
const shape = await db
  .selectFrom('comment')
  .select((eb) => [
    eb.fn.countAll<number>().as('all'),
    eb.fn.sum<number>(sql`case when root_id is null then 1 else 0 end`).as('roots'),
  ])
  .where('target_type', '=', 'post')
  .where('target_id', '=', bigThread.id)
  .where('status', '=', 'visible')
  .executeTakeFirstOrThrow();
const section = await db
  .selectFrom('section')
  .select(['id', 'name', 'post_count'])
  .orderBy('post_count', 'desc')
  .executeTakeFirstOrThrow();
const topic = await db
  .selectFrom('topic')
  .select(['id', 'name', 'use_count'])
  .orderBy('use_count', 'desc')
  .executeTakeFirstOrThrow();
const article = await db
  .selectFrom('article')
  .select(['id', 'slug', 'comment_count', sql<number>`length(body_html)`.as('html')])
  .where('status', '=', 'published')
  .orderBy('comment_count', 'desc')
  .orderBy(sql`length(body_html)`, 'desc')
  .executeTakeFirstOrThrow();
const member = await db
  .selectFrom('users')
  .select(['name', 'post_count'])
  .where('email', 'like', `%@${GENERATED_EMAIL_DOMAIN}`)
  .orderBy('user_id')
  .executeTakeFirstOrThrow();
const sizes = await db
  .selectFrom('post')
  .select((eb) => [
    eb.fn.countAll<number>().as('posts'),
    eb
      .selectFrom('article')
      .select((e) => e.fn.countAll<number>().as('n'))
      .as('articles'),
    eb
      .selectFrom('comment')
      .select((e) => e.fn.countAll<number>().as('n'))
      .as('comments'),
    eb
      .selectFrom('users')
      .select((e) => e.fn.countAll<number>().as('n'))
      .as('users'),
  ])
  .executeTakeFirstOrThrow();
await handle.close();

const bigThreadPath = `/community/post/${bigThread.id}`;
const pages: { name: string; path: string; target: boolean }[] = [
  { name: '/community', path: '/community', target: true },
  { name: '/community?sort=hot&page=2', path: '/community?sort=hot&page=2', target: false },
  {
    name: `section ${section.id} (${section.post_count} posts)`,
    path: `/community/section/${section.id}`,
    target: false,
  },
  { name: `topic ${topic.id} (${topic.use_count} uses)`, path: `/community/topic/${topic.id}`, target: false },
  {
    name: `big thread post ${bigThread.id} (${shape.all} comments)`,
    path: bigThreadPath,
    target: true,
  },
  { name: `article ${article.id} (${article.comment_count} comments)`, path: articlePath(article), target: false },
];

// ── Measuring ─────────────────────────────────────────────────────────────────────────────────────

/** The member's cookies as the browser keeps them after logging in. */
const memberCookie = () => loginCookie(base, member.name, GENERATED_PASSWORD);

/**
 * Every page answers 200, and a member gets the copy all members share: from the cache the second
 * time, private to browsers, with the header's avatar left to the islands (nothing of theirs in it).
 */
async function checkPages(cookie: string): Promise<void> {
  for (const page of pages) {
    const visitor = await fetch(`${base}${page.path}`);
    await visitor.arrayBuffer();
    // Each process keeps its own copy: a few requests reach them all.
    let hits = 0;
    for (let i = 0; i < 6; i++) {
      const logged = await fetch(`${base}${page.path}`, { headers: { cookie } });
      const html = await logged.text();
      if (visitor.status !== 200 || logged.status !== 200)
        throw new Error(`${page.path} answered ${visitor.status} (visitor) and ${logged.status} (member)`);
      if (!html.includes('data-testid="user-menu-placeholder"'))
        throw new Error(`${page.path} was not the members' shared copy`);
      if (logged.headers.get('cache-control') !== 'private, no-cache')
        throw new Error(`${page.path} was answered to a member as ${logged.headers.get('cache-control')}`);
      if (logged.headers.get('x-cache') === 'HIT') hits++;
    }
    if (hits === 0) throw new Error(`${page.path} never came from the page cache for a member`);
  }
}

const measure = (pathname: string, headers: Record<string, string> = {}, everyRenders = false) =>
  measureLoad(pathname, { base, connections, seconds, headers, everyRenders });

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => Math.round(value * 10) / 10;

/** SINGLE_RUNS member requests one after another on one connection: the render time without queueing. */
async function single(pathname: string, cookie: string) {
  const next = uncached(pathname);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 20 + SINGLE_RUNS; i++) {
    const started = performance.now();
    const res = await fetch(`${base}${next()}`, { headers: { cookie } });
    const body = await res.arrayBuffer();
    if (res.headers.has('x-cache') && res.headers.get('x-cache') !== 'MISS')
      throw new Error(`${pathname} came from the page cache`);
    if (res.status !== 200) throw new Error(`${pathname} answered ${res.status}`);
    if (i >= 20) times.push(performance.now() - started);
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p90: percentile(times, 90), p99: percentile(times, 99), bytes };
}

interface Row {
  processes: number;
  page: string;
  as: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
  target: string;
  /** The 1-minute load average after the row: this server and client make about 2; more is other work skewing it. */
  load: number;
}

const rows: Row[] = [];
const singles: Record<string, string | number>[] = [];
for (const processes of processSets) {
  const server = await startBenchServer(port, {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    WEB_CONCURRENCY: String(processes),
  });
  try {
    const cookie = await memberCookie();
    await checkPages(cookie);
    for (const page of pages) {
      const audiences = page.target
        ? (['visitor', 'member', 'member, every request renders'] as const)
        : (['visitor', 'member'] as const);
      for (const as of audiences) {
        const result = await measure(
          page.path,
          as === 'visitor' ? {} : { cookie },
          as === 'member, every request renders',
        );
        rows.push({
          processes,
          page: page.name,
          as,
          'req/s': result.rps,
          'p50 ms': result.p50,
          'p99 ms': result.p99,
          errors: result.errors,
          target:
            page.target && as !== 'member, every request renders'
              ? `p50 < ${TARGET_MS} ms: ${result.p50 < TARGET_MS ? 'met' : 'MISSED'}`
              : '—',
          load: Math.round((loadavg()[0] ?? 0) * 10) / 10,
        });
      }
    }
    if (singles.length === 0) {
      for (const page of pages.filter((p) => p.target)) {
        const result = await single(page.path, cookie);
        singles.push({
          processes,
          page: page.name,
          as: 'member, 1 connection, every request renders',
          requests: SINGLE_RUNS,
          'p50 ms': ms(result.p50),
          'p90 ms': ms(result.p90),
          'p99 ms': ms(result.p99),
          'HTML KB': Math.round(result.bytes / 100) / 10,
          target: `p50 < ${TARGET_MS} ms: ${result.p50 < TARGET_MS ? 'met' : 'MISSED'}`,
          load: Math.round((loadavg()[0] ?? 0) * 10) / 10,
        });
      }
    }
  } finally {
    await server.stop();
  }
}

// ── What the data of the two target pages costs when the shared reads miss (in process) ──────────

let queries: { sql: string; durationMs: number }[] = [];
const timed = connectDatabase(
  { dialect: 'sqlite', file },
  { onQuery: (q) => queries.push({ sql: q.sql, durationMs: q.durationMs }) },
);
const targets = appTargets();
const loads: Record<string, () => Promise<unknown>> = {
  '/community data': () =>
    Promise.all([
      getCommunityFront(timed.db, null),
      feed(timed.db, { page: 1, limit: 20, type: 'all', sort: 'new' }),
      listAnnouncements(timed.db, 3),
    ]),
  'big thread data': () =>
    Promise.all([
      getPostDetail({ db: timed.db, targets }, bigThread.id, null),
      listComments({ db: timed.db, targets }, null, {
        targetType: 'post',
        targetId: bigThread.id,
        page: 1,
        limit: COMMENT_PAGE_DEFAULT,
      }),
    ]),
};
const loadRows: Record<string, string | number>[] = [];
for (const [name, load] of Object.entries(loads)) {
  const times: number[] = [];
  let last: typeof queries = [];
  for (let i = 0; i < 5 + LOAD_RUNS; i++) {
    queries = [];
    const started = performance.now();
    await load();
    if (i >= 5) times.push(performance.now() - started);
    last = queries;
  }
  times.sort((a, b) => a - b);
  const slowest = [...last].sort((a, b) => b.durationMs - a.durationMs)[0];
  loadRows.push({
    data: name,
    runs: LOAD_RUNS,
    'p50 ms': ms(percentile(times, 50)),
    'p99 ms': ms(percentile(times, 99)),
    queries: last.length,
    'slowest query ms': ms(slowest?.durationMs ?? 0),
    'slowest query': (slowest?.sql ?? '').replace(/\s+/g, ' ').slice(0, 90),
  });
}
await timed.close();

const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
console.log(
  `\nHikari ${version.version}: ${sizes.users} members, ${sizes.posts} posts, ${sizes.articles} articles, ${sizes.comments} comments (SQLite); ` +
    `big thread ${bigThreadPath}: ${shape.all} comments (${shape.roots} roots); member ${member.name}; ` +
    `${connections} connections, ${seconds} s per row, Node ${process.versions.node}, ${cpus().length} CPUs`,
);
console.table(rows);
console.log(`\nRender time for a member, one connection, ${SINGLE_RUNS} requests one after another:`);
console.table(singles);
console.log(`\nLoading the data of the two pages when the shared reads miss (in process, ${LOAD_RUNS} runs):`);
console.table(loadRows);
