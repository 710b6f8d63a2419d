import { loadConfig } from '../platform/config.ts';
import { connectDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { runDemoSeed } from '../db/seed/demo-seed.ts';
import { runCli } from './run-cli.ts';

// npm run db:seed — loads the demo content (idempotent: existing rows are left as they are).
await runCli(async () => {
  const { db, dialect, close } = connectDatabase(loadConfig().database);
  try {
    await migrateToLatest(db);
    const summary = await runDemoSeed(db);
    console.log(
      `Demo content loaded into ${dialect}: ${summary.announcements} announcements, ${summary.accounts} new demo accounts, ${summary.games} games.`,
    );
  } finally {
    await close();
  }
});
