import { seedDemoCheckIns } from './demo-checkins.ts';
import { seedDemoSearches } from './demo-searches.ts';
import type { Db } from '../database.ts';
import { upsertAnnouncements } from '../../modules/announcement/announcement.service.ts';
import { demoAccounts, demoAnnouncements } from './demo-content.ts';
import { createUser, isNameTaken } from '../../modules/users/users.service.ts';
import { hashPassword } from '../../modules/auth/password.ts';
import { seedDemoCatalogue } from './demo-catalogue.ts';
import { seedDemoEmoji } from './demo-emoji.ts';
import { seedDemoCommunity } from './demo-community.ts';
import { seedDemoComments } from './demo-comments.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { seedDemoLightnovels } from './demo-lightnovels.ts';
import { seedDemoEpubs } from '../../modules/lightnovel/epub/demo-books.ts';
import { seedDemoCreatorCentre } from './demo-creator.ts';

const SEED_KEY = 'demo_seed';
/** Raised when the demo content grows: a database seeded by an older version gets the new parts (the seed is idempotent). */
const SEED_VERSION = 'v3';

/** True when the demo seed has never run on this database, or ran before its content last grew. */
export async function needsDemoSeed(db: Db): Promise<boolean> {
  const row = await db.selectFrom('system_state').select('value').where('key', '=', SEED_KEY).executeTakeFirst();
  return row?.value !== SEED_VERSION;
}

/**
 * Loads the demo content, the emoji images into `storage`. Deterministic (fixed ids and dates) and
 * idempotent: running it again adds nothing that is already there.
 */
export async function runDemoSeed(
  db: Db,
  storage: Storage,
  now: Date = new Date(),
): Promise<{
  announcements: number;
  accounts: number;
  games: number;
  emojis: number;
  posts: number;
  articles: number;
  comments: number;
  lightnovels: number;
}> {
  // Hash outside the transaction: argon2 is slow on purpose.
  const accounts = await Promise.all(
    demoAccounts.map(async (a) => ({ ...a, passwordHash: await hashPassword(a.password) })),
  );
  const summary = await db.transaction().execute(async (trx) => {
    await upsertAnnouncements(trx, demoAnnouncements);
    let created = 0;
    for (const account of accounts) {
      if (await isNameTaken(trx, account.name)) continue;
      // Members for a month already: their starting points come before the demo check-ins of the last days.
      const user = await createUser(trx, { ...account }, new Date(now.getTime() - 30 * 86_400_000));
      if (account.banned) await trx.updateTable('users').set({ status: 'banned' }).where('id', '=', user.id).execute();
      created++;
    }
    return { announcements: demoAnnouncements.length, accounts: created };
  });
  // The catalogue writer opens its own transactions.
  const catalogue = await seedDemoCatalogue(db, now);
  // After the accounts: the demo creator owns the set.
  const emoji = await seedDemoEmoji(db, storage, now);
  // After the catalogue: posts and articles link the demo games (and a review, a rating of one).
  const community = await seedDemoCommunity(db, now);
  // Last of the content: comments go on the games, and on the community's posts and articles when
  // the community seed (which must run before this) wrote some.
  const comments = await seedDemoComments(db, now);
  // Light novels with their people and labels, then the EPUBs of the first volumes of series 1–3.
  const lightnovels = await seedDemoLightnovels(db, now);
  await seedDemoEpubs(db, storage);
  await seedDemoSearches(db, now);
  // After the catalogue and the accounts: an update request waiting for review.
  await seedDemoCreatorCentre(db, now);
  await seedDemoCheckIns(db, now);
  // Marked done last, so an interrupted seed runs again on the next start.
  await db
    .insertInto('system_state')
    .values({ key: SEED_KEY, value: SEED_VERSION, updated_at: now.toISOString() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: SEED_VERSION, updated_at: now.toISOString() }))
    .execute();
  return {
    ...summary,
    games: catalogue.games,
    emojis: emoji.emojis,
    posts: community.posts,
    articles: community.articles,
    comments: comments.comments,
    lightnovels: lightnovels.series,
  };
}
