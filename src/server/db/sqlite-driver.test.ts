import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { startPeer, type PeerProcess } from '../platform/bus/peer-process.fixture.ts';
import { connectDatabase, type DatabaseHandle } from './connect.ts';

const writerScript = fileURLToPath(new URL('./sqlite-writer.fixture.ts', import.meta.url));

// Several server processes share one SQLite file (WEB_CONCURRENCY); this runs on SQLite whatever the
// test database is.
describe('SQLite shared by several processes', () => {
  const dirs: string[] = [];
  const handles: DatabaseHandle[] = [];
  const peers: PeerProcess[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) peer.child.kill('SIGKILL');
    for (const handle of handles.splice(0)) await handle.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function freshFile(): Promise<{ file: string; handle: DatabaseHandle }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'hikari-sqlite-'));
    dirs.push(dir);
    const file = path.join(dir, 'shared.db');
    const handle = connectDatabase({ dialect: 'sqlite', file });
    handles.push(handle);
    await sql`create table counter (id integer primary key, value integer not null)`.execute(handle.db);
    await sql`insert into counter (id, value) values (1, 0)`.execute(handle.db);
    return { file, handle };
  }

  it('read-then-write transactions from two processes wait for each other instead of failing', async () => {
    const { file, handle } = await freshFile();
    const each = 150;
    const writers = [startPeer(writerScript, [file, String(each)]), startPeer(writerScript, [file, String(each)])];
    peers.push(...writers);
    await Promise.all(writers.map((w) => w.waitFor((l) => l.ready === true)));
    for (const w of writers) w.send({ go: true });
    const results = await Promise.all(writers.map((w) => w.waitFor((l) => l.done === true, 60_000)));
    expect(results.map((r) => ({ failed: r.failed, errors: r.errors }))).toEqual([
      { failed: 0, errors: [] },
      { failed: 0, errors: [] },
    ]);
    // No increment was lost: each transaction saw the value the other process had committed.
    const { rows } = await sql<{ value: number }>`select value from counter where id = 1`.execute(handle.db);
    expect(Number(rows[0]?.value)).toBe(2 * each);
  }, 60_000);

  it('a read-only transaction does not wait for another connection that holds the write lock', async () => {
    const { file } = await freshFile();
    const writer = connectDatabase({ dialect: 'sqlite', file });
    const reader = connectDatabase({ dialect: 'sqlite', file });
    handles.push(writer, reader);
    let release = () => {};
    const holding = writer.db.transaction().execute(async (trx) => {
      await sql`update counter set value = 5 where id = 1`.execute(trx);
      await new Promise<void>((resolve) => (release = resolve));
    });
    // The writer's transaction has begun (and so holds the write lock) before it runs its first query.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    const seen = await reader.db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => (await sql<{ value: number }>`select value from counter where id = 1`.execute(trx)).rows);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(Number(seen[0]?.value)).toBe(0);
    release();
    await holding;
  });
});
