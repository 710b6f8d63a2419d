import { parseArgs } from 'node:util';
import { generateCatalogue } from '../modules/catalogue/catalogue.generate.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run catalogue:generate -- --count 50000 [--seed 7]   (synthetic games for load tests)
await runCli(async () => {
  const { values } = parseArgs({
    options: { count: { type: 'string', default: '50000' }, seed: { type: 'string', default: '2026' } },
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
    throw new Error('--count must be a whole number from 1 to 1000000');
  await withApp(async ({ db, dialect }) => {
    const started = performance.now();
    const result = await generateCatalogue(db, {
      count,
      seed: Number(values.seed),
      onProgress: (done, total) => process.stderr.write(`\r${done}/${total} games`),
    });
    process.stderr.write('\n');
    console.log(
      `Generated games ${result.firstId}–${result.lastId} into ${dialect} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
  });
});
