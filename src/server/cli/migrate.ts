import { migrateDown, migrateToLatest, migrationState } from '../db/migrator.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run db:migrate            apply pending migrations
// npm run db:migrate -- down    revert the newest migration (down N: revert N)
await runCli(async () => {
  const [command = 'up', count = '1'] = process.argv.slice(2);
  if (command !== 'up' && command !== 'down') throw new Error(`Unknown command "${command}": use up or down [N]`);
  await withApp(
    async ({ db, dialect }) => {
      if (command === 'down') {
        const reverted = await migrateDown(db, Number(count));
        console.log(reverted.length ? `Reverted: ${reverted.join(', ')}` : 'Nothing to revert.');
      } else {
        const applied = await migrateToLatest(db);
        console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      }
      const state = await migrationState(db);
      console.log(`${dialect}: ${state.applied} applied, ${state.pending} pending (latest: ${state.latest ?? 'none'})`);
    },
    { migrate: false },
  );
});
