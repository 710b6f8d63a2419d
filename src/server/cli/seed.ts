import { runDemoSeed } from '../db/seed/demo-seed.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run db:seed — loads the demo content (idempotent: existing rows are left as they are).
await runCli(async () => {
  await withApp(async ({ db, dialect, storage }) => {
    const summary = await runDemoSeed(db, storage);
    console.log(
      `Demo content loaded into ${dialect}: ${summary.announcements} announcements, ${summary.accounts} new demo accounts, ${summary.games} games, ${summary.emojis} demo emojis.`,
    );
  });
});
