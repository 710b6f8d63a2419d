// npm run bench:creator — the creator centre under load (SQLite, the built server, demo content made
// big): a review queue of 3 000 pending update requests, a game with 30 download files of 10 links and
// 400 revisions, 5 000 audit-log rows. At 50 connections it measures, as the demo editor or admin: the
// audits queue (API), one request with its side-by-side fields, the game's revision history, its editor
// document and download list, the manage list with a keyword, the audit log, and the audits page itself
// rendered every time. Prints req/s, p50, p99 and failed answers, and the time of the downloads' save.
// Run `npm run build` first. BENCH_SECONDS (default 10), BENCH_CONNECTIONS (50), BENCH_PORT (4397).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../src/server/db/connect.ts';
import { nextId } from '../src/server/db/ids.ts';
import { loginCookie, measureLoad, startBenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4397);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const base = `http://127.0.0.1:${port}`;
const REQUESTS = 3000;
const REVISIONS = 400;
const AUDITS = 5000;
const DOWNLOADS = 30;
const LINKS = 10;

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-creator-'));
const server = await startBenchServer(port, { DATA_DIR: dataDir, SEED_DEMO: 'true' });
const bearer = async (account: string, password: string) => {
  const cookie = await loginCookie(base, account, password);
  const token = /hikari-access-token=([^;]+)/.exec(cookie)?.[1] ?? '';
  return { cookie, authorization: `Bearer ${token}` };
};
try {
  const editor = await bearer('hikari_editor', 'hikari-editor-2026');
  const admin = await bearer('hikari_admin', 'hikari-admin-2026');
  const game = 1;

  // Game 1 gets the most downloads a document holds (30 files of 10 links), saved through the editor's
  // call; its revisions and the requests below then carry them, as a well-stocked game's would.
  const first = (await (
    await fetch(`${base}/api/creator/items/galgame/${game}`, { headers: { authorization: editor.authorization } })
  ).json()) as { data: { doc: Record<string, unknown>; revision: number } };
  const downloads = Array.from({ length: DOWNLOADS }, (_, d) => ({
    id: null,
    language: ['zh-Hans', 'zh-Hant', 'ja', 'en'][d % 4],
    platform: 'windows',
    translationType: 'fan',
    translationGroup: `汉化组 ${d}`,
    sizeBytes: (d + 1) * 1024 ** 3,
    note: `第 ${d} 个版本，含全部补丁与存档说明`,
    links: Array.from({ length: LINKS }, (_, l) => ({
      id: null,
      label: `网盘 ${l}`,
      url: `https://pan.example.com/s/${d}-${l}-${'x'.repeat(80)}`,
      password: `pw${l}`,
    })),
  }));
  const saveStarted = performance.now();
  const saved = await fetch(`${base}/api/creator/items/galgame/${game}`, {
    method: 'PUT',
    headers: { authorization: editor.authorization, 'Content-Type': 'application/json' },
    body: JSON.stringify({ doc: { ...first.data.doc, downloads }, baseRevision: first.data.revision }),
  });
  const saveMs = Math.round(performance.now() - saveStarted);
  if (!saved.ok) throw new Error(`downloads: ${saved.status} ${await saved.text()}`);

  // 400 revisions of game 1, saved through the API as an editor would (each one a real edit).
  for (let i = 0; i < REVISIONS; i++) {
    const opened = (await (
      await fetch(`${base}/api/creator/items/galgame/${game}`, { headers: { authorization: editor.authorization } })
    ).json()) as { data: { doc: Record<string, unknown>; revision: number } };
    const res = await fetch(`${base}/api/creator/items/galgame/${game}`, {
      method: 'PUT',
      headers: { authorization: editor.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        doc: { ...opened.data.doc, intro: `${String(opened.data.doc.intro).slice(0, 2000)}\n修订 ${i}` },
        baseRevision: opened.data.revision,
        note: `第 ${i} 次修订`,
      }),
    });
    if (!res.ok) throw new Error(`revision ${i}: ${res.status} ${await res.text()}`);
  }

  // The queue and the audit log, written straight into the database (what months of use leave).
  const handle = connectDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
  const db = handle.db;
  const demo = await db.selectFrom('users').select('id').where('name', '=', 'hikari_demo').executeTakeFirstOrThrow();
  const base1 = await db
    .selectFrom('catalogue_revision')
    .select(['doc', 'number'])
    .where('item_type', '=', 'galgame')
    .where('item_id', '=', game)
    .orderBy('number', 'desc')
    .executeTakeFirstOrThrow();
  const doc = JSON.parse(base1.doc) as Record<string, unknown>;
  const at = new Date().toISOString();
  for (let start = 0; start < REQUESTS; start += 500) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(REQUESTS, start + 500); i++) {
        const proposed = { ...doc, intro: `${String(doc.intro)}\n提议 ${i}` };
        await trx
          .insertInto('update_request')
          .values({
            id: await nextId(trx, 'update_request_id'),
            item_type: 'galgame',
            item_id: game,
            base_revision: base1.number,
            doc: JSON.stringify(proposed),
            changes: JSON.stringify([{ field: 'intro', before: doc.intro, after: proposed.intro }]),
            title: String(doc.titleZh || doc.title),
            fields: JSON.stringify(['intro']),
            note: `提议 ${i}`,
            status: 'pending',
            user_id: demo.id,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
    });
  }
  for (let start = 0; start < AUDITS; start += 500) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(AUDITS, start + 500); i++) {
        await trx
          .insertInto('audit_log')
          .values({
            id: await nextId(trx, 'audit_log_id'),
            actor_id: demo.id,
            action: 'content.hide',
            target_type: 'post',
            target_id: String(i),
            detail: JSON.stringify({ reason: `批量 ${i}` }),
            created_at: at,
          })
          .execute();
      }
    });
  }
  const someRequest = await db
    .selectFrom('update_request')
    .select('id')
    .where('status', '=', 'pending')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  await handle.close();

  const rows = [
    ['audits queue (API)', '/api/creator/update-requests?status=pending', editor.authorization, false],
    ['a request, side by side (API)', `/api/creator/update-requests/${someRequest.id}`, editor.authorization, false],
    [
      `revision history of a game (${REVISIONS}, API)`,
      `/api/creator/items/galgame/${game}/revisions`,
      editor.authorization,
      false,
    ],
    [
      `the game's editor document, ${DOWNLOADS} files × ${LINKS} links (API)`,
      `/api/creator/items/galgame/${game}`,
      editor.authorization,
      false,
    ],
    [
      `its download list, ${DOWNLOADS * LINKS} links (API)`,
      `/api/galgame/${game}/downloads`,
      editor.authorization,
      false,
    ],
    ['manage list with a keyword (API)', '/api/creator/manage/galgame?keyword=a', editor.authorization, false],
    ['audit log (API)', '/api/moderation/audit', admin.authorization, false],
    ['/create/update-request/audits (page, every request renders)', '/create/update-request/audits', null, true],
  ] as const;
  const table = [];
  for (const [name, pathname, authorization, page] of rows) {
    const headers: Record<string, string> = page ? { cookie: editor.cookie } : { authorization: authorization ?? '' };
    const result = await measureLoad(pathname, { base, connections, seconds, headers, everyRenders: page });
    table.push({ what: name, 'req/s': result.rps, 'p50 ms': result.p50, 'p99 ms': result.p99, failed: result.errors });
  }
  console.log(
    `\n${connections} connections, ${seconds} s per row, SQLite, ${REQUESTS} pending requests, ${REVISIONS} revisions, ${AUDITS} audit rows`,
  );
  console.table(table);
  console.log(`One save of game ${game}'s ${DOWNLOADS} files × ${LINKS} links (one editor, one request): ${saveMs} ms`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
