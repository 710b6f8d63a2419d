// npm run bench:people — members' spaces, the user card and notifications on the big generated
// community of bench:community (2 000 members, 55 000 posts and articles, 130 000 comments; generated
// into .bench/community the first time, which takes a few minutes). The worst realistic cases: the
// space of the member with the most posts (its activity feed merges posts, articles, ratings,
// favourites and follows), the last page of that feed, and a member with 2 000 notifications, whose
// tab polls GET /api/v2/user/unread. At 50 connections, for one server process (BENCH_PROCESSES="1,2"
// adds two), it prints req/s, p50, p99 and failed answers, against the site's page target
// (p50 < 30 ms). Space pages are rendered on every request (decision 022), so they are measured so.
// Run `npm run build` first. BENCH_SECONDS (default 10) per row, BENCH_CONNECTIONS (50), BENCH_PORT (4397).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { connectDatabase } from '../src/server/db/connect.ts';
import { GENERATED_EMAIL_DOMAIN, GENERATED_PASSWORD } from '../src/server/modules/community/community.generate.ts';
import { loginCookie, measureLoad, startBenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4397);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const processSets = (process.env.BENCH_PROCESSES ?? '1').split(',').map(Number);
const dataDir = path.join(root, '.bench/community');
const file = path.join(dataDir, 'hikari.db');
const base = `http://127.0.0.1:${port}`;
const TARGET_MS = 30;
const NOTIFICATIONS = 2000;

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
if (!existsSync(file)) {
  // The community benchmark generates the database; one short row is enough to make it.
  const made = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'scripts/bench-community.ts'], {
    cwd: root,
    env: { ...process.env, BENCH_SECONDS: '1', BENCH_PROCESSES: '1' },
    stdio: 'inherit',
  });
  if (made.status !== 0) process.exit(1);
}

// The server migrates the database when it starts: start it once before reading the new tables.
const first = await startBenchServer(port, { DATA_DIR: dataDir, SEED_DEMO: 'false' });
await first.stop();

const handle = connectDatabase({ dialect: 'sqlite', file });
const db = handle.db;
/** The member with the most posts: the biggest activity feed and comment list. */
const busiest = await db
  .selectFrom('users')
  .select(['id', 'user_id', 'name', 'post_count', 'article_count'])
  .where('email', 'like', `%@${GENERATED_EMAIL_DOMAIN}`)
  .orderBy('post_count', 'desc')
  .orderBy('user_id')
  .executeTakeFirstOrThrow();
const feedSize = await db
  .selectFrom('users')
  .select((eb) => [
    eb
      .selectFrom('rating')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('user_id', '=', busiest.id)
      .as('ratings'),
    eb
      .selectFrom('favorite')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('user_id', '=', busiest.id)
      .as('favorites'),
    eb
      .selectFrom('comment')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('user_id', '=', busiest.id)
      .as('comments'),
  ])
  .where('id', '=', busiest.id)
  .executeTakeFirstOrThrow();
// The busiest member's inbox: NOTIFICATIONS comments by others on their posts (as the job writes them).
const have = await db
  .selectFrom('notification')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('user_id', '=', busiest.id)
  .executeTakeFirstOrThrow();
if (Number(have.n) < NOTIFICATIONS) {
  await sql`delete from notification where user_id = ${busiest.id}`.execute(db);
  await sql`insert into notification (id, user_id, kind, group_key, open_key, target_type, target_id, comment_id,
      excerpt, actor_ids, actor_count, created_at, updated_at)
    select 'bench' || c.id, ${busiest.id}, 'comment', 'comment:' || c.id, 'comment:' || c.id, c.target_type,
      c.target_id, c.id, substr(c.content, 1, 80), json_array(c.user_id), 1, c.created_at, c.created_at
    from comment c where c.user_id <> ${busiest.id} order by c.id desc limit ${NOTIFICATIONS}`.execute(db);
}
const unread = await db
  .selectFrom('notification')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('user_id', '=', busiest.id)
  .where('read_at', 'is', null)
  .executeTakeFirstOrThrow();
await handle.close();

const feedPages = Math.max(
  1,
  Math.ceil(
    (Number(busiest.post_count) +
      Number(busiest.article_count) +
      Number(feedSize.ratings) +
      Number(feedSize.favorites)) /
      10,
  ),
);
const space = `/space/${busiest.user_id}`;
const rows: Record<string, string | number>[] = [];
for (const processes of processSets) {
  const server = await startBenchServer(port, {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    WEB_CONCURRENCY: String(processes),
  });
  try {
    const cookie = await loginCookie(base, busiest.name, GENERATED_PASSWORD);
    const token = /hikari-access-token=([^;]+)/.exec(cookie)?.[1] ?? '';
    const api = { authorization: `Bearer ${token}` };
    const cases: { name: string; path: string; as: 'visitor' | 'member' | 'member (API)'; page?: boolean }[] = [
      { name: 'GET /api/v2/user/unread (the badge poll)', path: '/api/v2/user/unread', as: 'member (API)' },
      { name: `notifications page 1 (${unread.n} unread)`, path: '/api/v2/user/notifications', as: 'member (API)' },
      { name: '/message/system', path: '/message/system', as: 'member', page: true },
      { name: 'user card: profile', path: `/api/user/profile/${busiest.user_id}`, as: 'visitor' },
      { name: 'statistics', path: `/api/user/statistics/${busiest.user_id}`, as: 'visitor' },
      { name: 'activity feed page 1', path: `/api/v2/user/${busiest.user_id}/dynamic`, as: 'visitor' },
      {
        name: `activity feed last page (${feedPages})`,
        path: `/api/v2/user/${busiest.user_id}/dynamic?page=${feedPages}`,
        as: 'visitor',
      },
      { name: `comments (${feedSize.comments})`, path: `/api/v2/user/${busiest.user_id}/comments`, as: 'visitor' },
      { name: space, path: space, as: 'visitor', page: true },
      { name: space, path: space, as: 'member', page: true },
      { name: `${space}/dynamic`, path: `${space}/dynamic`, as: 'visitor', page: true },
      { name: `${space}/comment`, path: `${space}/comment`, as: 'member', page: true },
    ];
    for (const item of cases) {
      const headers: Record<string, string> = item.as === 'visitor' ? {} : item.as === 'member' ? { cookie } : api;
      const check = await fetch(`${base}${item.path}`, { headers, redirect: 'manual' });
      await check.arrayBuffer();
      if (check.status !== 200) throw new Error(`${item.path} answered ${check.status} (${item.as})`);
      const result = await measureLoad(item.path, { base, connections, seconds, headers, everyRenders: item.page });
      rows.push({
        processes,
        what: item.name,
        as: item.as,
        'req/s': result.rps,
        'p50 ms': result.p50,
        'p99 ms': result.p99,
        errors: result.errors,
        [`p50 < ${TARGET_MS} ms`]: result.p50 < TARGET_MS ? 'met' : 'MISSED',
        load: Math.round((loadavg()[0] ?? 0) * 10) / 10,
      });
    }
  } finally {
    await server.stop();
  }
}

console.log(
  `\nMember ${busiest.name} (userId ${busiest.user_id}): ${busiest.post_count} posts, ${busiest.article_count} articles, ` +
    `${feedSize.ratings} ratings, ${feedSize.favorites} favourites, ${feedSize.comments} comments, ${NOTIFICATIONS} notifications; ` +
    `${connections} connections, ${seconds} s per row, every page request rendered; Node ${process.versions.node}, ${cpus().length} CPUs`,
);
console.table(rows);
