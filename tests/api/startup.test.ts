import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppContext } from '../../src/server/app-context.ts';
import { connectDatabase } from '../../src/server/db/connect.ts';
import { ConfigError, StartupError, loadConfig } from '../../src/server/platform/config.ts';
import { createLogger } from '../../src/server/platform/logger.ts';
import { transformImage } from '../../src/server/modules/media/image.service.ts';

const root = path.resolve(import.meta.dirname, '../..');
const NOBODY = 65534;

interface Exit {
  code: number | null;
  stderr: string;
}

/** Starts the real server entry with `env` and waits for it to give up. */
function start(env: Record<string, string>, asNobody = false): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'src/server/main.ts'],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', SEED_DEMO: 'false', PORT: '0', ...env },
        timeout: 60_000,
        ...(asNobody ? { uid: NOBODY, gid: NOBODY } : {}),
      },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
    );
  });
}

function expectOneLine(exit: Exit, ...parts: string[]) {
  expect(exit.code).toBe(1);
  const lines = exit.stderr.trim().split('\n');
  expect(lines, exit.stderr).toHaveLength(1);
  for (const part of parts) expect(lines[0]).toContain(part);
  expect(exit.stderr).not.toMatch(/^\s+at /m);
}

describe('start-up failures say in one line what is wrong', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hikari-start-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) {
      chmodSync(dir, 0o700);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names DATA_DIR when it is a file', async () => {
    const file = path.join(tempDir(), 'not-a-folder');
    writeFileSync(file, 'x');
    expectOneLine(await start({ DATA_DIR: file }), 'DATA_DIR', file, 'not a folder');
  });

  it('names DATA_DIR when this user may not write it', async () => {
    const dataDir = path.join(tempDir(), 'data');
    mkdirSync(dataDir);
    const asRoot = process.getuid?.() === 0;
    // The superuser writes anywhere, so the server runs as another user for whom the folder is read-only.
    chmodSync(path.dirname(dataDir), 0o755);
    chmodSync(dataDir, asRoot ? 0o755 : 0o555);
    expectOneLine(await start({ DATA_DIR: dataDir }, asRoot), 'DATA_DIR', dataDir, 'not writable');
  });

  it('names the database file when it is not a database', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'hikari.db');
    writeFileSync(file, 'these bytes are no SQLite database '.repeat(200));
    expectOneLine(await start({ DATA_DIR: dataDir }), file, 'not a SQLite database', 'DATABASE_URL', 'DATA_DIR');
  });

  it('explains a damaged database file from the connect function too', () => {
    const file = path.join(tempDir(), 'broken.db');
    writeFileSync(file, Buffer.alloc(8192, 7));
    let error: unknown;
    try {
      connectDatabase({ dialect: 'sqlite', file });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).path).toBe(file);
    expect((error as StartupError).message).not.toContain('\n');
  });

  it('refuses a DATA_DIR below a file in the configuration', () => {
    const file = path.join(tempDir(), 'plain');
    writeFileSync(file, 'x');
    expect(() => loadConfig({ DATA_DIR: path.join(file, 'data') })).toThrow(ConfigError);
  });
});

describe('files under DATA_DIR are for the server user only', () => {
  let dataDir: string;
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates folders 0700 and the database, its journal, secrets and cached images 0600', async () => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'hikari-modes-')), 'data');
    const config = loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
    const { ctx, close } = await createAppContext(config, { logger: createLogger('silent'), buildId: 'test' });
    try {
      const media = path.join(dataDir, 'media');
      mkdirSync(path.join(media, 'covers'), { recursive: true, mode: 0o700 });
      const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      writeFileSync(path.join(media, 'covers/a.png'), png, { mode: 0o600 });
      await transformImage(ctx.config, { url: '/media/covers/a.png', w: 16 });
      const mode = (p: string) => statSync(p).mode & 0o777;
      for (const dir of [dataDir, media, path.join(dataDir, 'cache'), path.join(dataDir, 'cache/img')]) {
        expect(mode(dir), dir).toBe(0o700);
      }
      const db = path.join(dataDir, 'hikari.db');
      for (const file of [db, `${db}-wal`, `${db}-shm`, path.join(dataDir, 'secrets.json')]) {
        expect(existsSync(file), file).toBe(true);
        expect(mode(file), file).toBe(0o600);
      }
      const cacheDir = path.join(dataDir, 'cache/img');
      const { readdirSync } = await import('node:fs');
      const shard = readdirSync(cacheDir)[0] ?? '';
      expect(mode(path.join(cacheDir, shard))).toBe(0o700);
      const variant = readdirSync(path.join(cacheDir, shard))[0] ?? '';
      expect(mode(path.join(cacheDir, shard, variant))).toBe(0o600);
    } finally {
      await close();
    }
  });

  it('tightens an existing database file that others could read', () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-modes-'));
    const file = path.join(dataDir, 'old.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const handle = connectDatabase({ dialect: 'sqlite', file });
    void handle.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
