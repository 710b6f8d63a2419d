import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { createUser } from '../modules/users/users.service.ts';

const root = path.resolve(import.meta.dirname, '../../..');

function run(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'src/server/cli/user-remove.ts', ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run user:remove', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-cli-'));
    const { db, close } = connectDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
    await migrateToLatest(db);
    await createUser(db, { name: 'Departing', email: 'departing@example.test', passwordHash: 'x' });
    await close();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('removes a user named on the command line, and says so', async () => {
    const done = await run(dataDir, ['departing', '--yes']);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Removed "Departing"');
    const again = await run(dataDir, ['departing', '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('No user "departing" (looked for a name, email, userId or _id).');
  });

  it('explains its usage without an argument', async () => {
    const res = await run(dataDir, []);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Usage: npm run user:remove');
  });
});
