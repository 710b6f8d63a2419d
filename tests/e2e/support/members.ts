import { expect, type BrowserContext } from '@playwright/test';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { nameSkeleton } from '../../../src/server/modules/users/name-skeleton.ts';
import { DEMO, logInAsDemo } from './demo-login.ts';

/**
 * A plain member of our own (the demo accounts stay as other tests expect them), with the demo password:
 * written straight into the test server's database, as createUser writes one. `prefix` keeps the
 * account ids of different suites apart.
 */
export function addMember(name: string, prefix: string): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the tests through playwright.config.ts');
  const db = new DatabaseSync(path.join(dataDir, 'hikari.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const demo = db.prepare('SELECT password_hash FROM users WHERE name = ?').get(DEMO.account) as
      { password_hash: string } | undefined;
    if (!demo) throw new Error('the demo account is missing');
    db.exec('BEGIN IMMEDIATE');
    try {
      const { value } = db
        .prepare("UPDATE counter SET value = value + 1 WHERE name = 'user_id' RETURNING value")
        .get() as { value: number | bigint };
      const at = new Date().toISOString();
      db.prepare(
        `INSERT INTO users (id, user_id, name, name_key, name_skeleton, email, password_hash, user_setting,
           password_changed_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?)`,
      ).run(
        `${prefix}${Date.now().toString(16)}`.padEnd(24, '0').slice(0, 24),
        value,
        name,
        name.toLowerCase(),
        nameSkeleton(name),
        `${name}@example.test`,
        demo.password_hash,
        `${at.slice(0, 19)}.000Z`,
        at,
        at,
      );
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    db.close();
  }
}

/** A new page of `context` logged in as `who`, on `jumpTo`, with its islands hydrated. */
export async function signedIn(context: BrowserContext, jumpTo: string, who: { account: string; password: string }) {
  const page = await context.newPage();
  await logInAsDemo(page, jumpTo, who);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  return page;
}
