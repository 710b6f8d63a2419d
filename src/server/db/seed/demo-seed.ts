import type { Db } from '../database.ts';
import { upsertAnnouncements } from '../../modules/announcement/announcement.service.ts';
import { demoAnnouncements } from './demo-content.ts';

const SEED_KEY = 'demo_seed';

/** True when the demo seed has never run on this database. */
export async function needsDemoSeed(db: Db): Promise<boolean> {
  const row = await db.selectFrom('system_state').select('value').where('key', '=', SEED_KEY).executeTakeFirst();
  return row === undefined;
}

/**
 * Loads the demo content. Deterministic (fixed ids and dates) and idempotent: running it again adds
 * nothing that is already there.
 */
export async function runDemoSeed(db: Db, now: Date = new Date()): Promise<{ announcements: number }> {
  return db.transaction().execute(async (trx) => {
    await upsertAnnouncements(trx, demoAnnouncements);
    await trx
      .insertInto('system_state')
      .values({ key: SEED_KEY, value: 'v1', updated_at: now.toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: 'v1', updated_at: now.toISOString() }))
      .execute();
    return { announcements: demoAnnouncements.length };
  });
}
