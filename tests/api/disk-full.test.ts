import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type App } from '../../src/server/app-context.ts';
import { createApi } from '../../src/server/http/api.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { loadConfig } from '../../src/server/platform/config.ts';
import { createLogger } from '../../src/server/platform/logger.ts';
import type { ApiFailure } from '../../src/shared/api.ts';
import { startSignedPutServer } from '../support/signed-put.ts';
import { postgresInstalled, startPostgresServer, type PostgresServer } from '../support/postgres-server.ts';

/** A 32 MB tmpfs to fill for real, when this user may mount one (root here and in CI); else skipped. */
const mountPoint = mkdtempSync(path.join(tmpdir(), 'hikari-full-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m,mode=0755', 'tmpfs', mountPoint]).status === 0;
/** With the PostgreSQL suites: a PostgreSQL server of the test's own, its database in a tablespace on the tmpfs. */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { success: boolean; code: string; message: string };
}

// The site's data on a disk that fills up: DATA_DIR (the SQLite database, media) on SQLite; the
// database's tablespace on PostgreSQL (53100 disk_full).
describe.skipIf(!mounted || (onPostgres && !postgresInstalled))('a full disk under the database (a real tmpfs)', () => {
  let postgres: PostgresServer | undefined;
  let app: App;
  let api: ReturnType<typeof createApi>;
  let token: string;
  let memberId: string;
  const logged: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      done();
    },
  });
  const filler = path.join(mountPoint, 'filler');

  /** Writes a file until the disk refuses, as a log or a backup filling the disk would. */
  function fillDisk(): void {
    const fd = openSync(filler, 'w');
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      closeSync(fd);
    }
  }

  async function checkIn(): Promise<Answer> {
    const res = await api.request('/api/v2/user/check-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as Answer['body'],
    };
  }

  /** A PostgreSQL database whose files live on the tmpfs. */
  async function postgresOnTmpfs(): Promise<string> {
    postgres = await startPostgresServer();
    const space = path.join(mountPoint, 'tablespace');
    mkdirSync(space);
    if (process.getuid?.() === 0) spawnSync('chown', ['postgres:postgres', space]);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`create tablespace hikari_full location '${space}'`);
    await admin.query('create database hikari tablespace hikari_full');
    await admin.end();
    return postgres.urlOf('hikari');
  }

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: path.join(mountPoint, 'data'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      ...(onPostgres ? { DATABASE_URL: await postgresOnTmpfs() } : {}),
    });
    app = await createAppContext(config, {
      logger: createLogger('info', { format: 'json', stream }),
      buildId: 'test-build',
      worker: false,
    });
    api = createApi(app.ctx);
    const member = await createUser(app.ctx.db, { name: 'disk_full', email: 'full@example.test', passwordHash: 'x' });
    memberId = member.id;
    token = await signAccessToken(config.jwtSecret, { id: member.id, group: 'user' });
    // An empty write-ahead log: the next write has to grow it.
    if (!onPostgres) await sql`pragma wal_checkpoint(TRUNCATE)`.execute(app.ctx.db);
  });
  afterAll(async () => {
    await app?.close();
    await postgres?.destroy();
    spawnSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('a write answers 507 STORAGE_FULL in the reader’s language, changes nothing, names SQLITE_FULL once, and works once space is freed', async () => {
    // An upload address asked for while there was room; the upload comes when there is none.
    const uploads = await startSignedPutServer(app);
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#39c5bb' } })
      .webp()
      .toBuffer();
    const asked = await api.request('/api/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: 'comment', id: 1, format: 'webp' }),
    });
    const address = ((await asked.json()) as { data: { url: string } }).data.url;
    const put = () =>
      fetch(`${uploads.base}${new URL(address).pathname}${new URL(address).search}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'image/webp' },
        body: new Uint8Array(image),
      });
    fillDisk();
    logged.length = 0;

    const first = await checkIn();
    expect(first).toMatchObject({ status: 507, retryAfter: '60', body: { success: false, code: 'STORAGE_FULL' } });
    expect(first.body.message).toBe('服务器存储空间已满，暂时无法保存，请稍后再试');
    expect((await checkIn()).status).toBe(507);

    // Nothing half-written: no check-in, no points, no ledger row.
    const user = await app.ctx.db
      .selectFrom('users')
      .select('hikari_point')
      .where('id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(user.hikari_point).toBe(0);
    expect(await app.ctx.db.selectFrom('point_ledger').select('seq').where('user_id', '=', memberId).execute()).toEqual(
      [],
    );

    // The log names the real cause once for both requests, never "cannot rollback".
    const errors = logged.filter((l) => (l.level as number) >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'the disk is full; writes answer 507 until space is freed' });
    expect(JSON.stringify(errors[0]!.err)).toMatch(onPostgres ? /No space left on device/ : /database or disk is full/);
    expect(JSON.stringify(logged)).not.toMatch(/cannot rollback/);

    // The media disk: the upload is refused the same way, and nothing is stored under its address.
    const refused = await put();
    expect(refused.status).toBe(507);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toMatchObject({
      code: 'STORAGE_FULL',
      message: '服务器存储空间已满，暂时无法保存，请稍后再试',
    });
    expect(logged.filter((l) => (l.level as number) >= 50)).toHaveLength(1);

    // Health says which check fails.
    const health = await api.request('/api/health');
    expect(health.status).toBe(503);
    expect(((await health.json()) as { data: { failing: string[] } }).data.failing).toContain('databaseWrite');

    // Space is freed: the same request works, nothing restarted.
    rmSync(filler);
    const done = await checkIn();
    expect(done.status, JSON.stringify(done.body as ApiFailure)).toBe(200);
    expect((await put()).status).toBe(200);
    await uploads.close();
  });
});
