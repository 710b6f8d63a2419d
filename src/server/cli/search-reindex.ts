import { refreshPopularity, reindexAll } from '../modules/search/search.index.ts';
import { createProgressBar } from './progress-bar.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run search:reindex   (rebuilds the search index from the catalogue, with progress)
await runCli(async () => {
  const progress = createProgressBar(process.stderr);
  await withApp(async ({ db, dialect }) => {
    const started = performance.now();
    const { names } = await reindexAll(db, {
      onProgress: ({ kind, done, total }) => progress.update({ label: kind, done, total, unit: 'items' }),
    });
    progress.finish();
    await refreshPopularity(db);
    console.log(`Indexed ${names} names into ${dialect} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  }).finally(() => progress.finish());
});
