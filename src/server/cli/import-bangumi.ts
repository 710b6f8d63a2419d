import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkDumpFolder,
  formatImportSummary,
  importBangumiDump,
} from '../modules/catalogue/bangumi/bangumi.import.ts';
import { createProgressBar } from './progress-bar.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run import:bangumi -- <folder> — imports the galgame of an unpacked Bangumi Archive dump
// (https://github.com/bangumi/Archive/releases). Safe to run again: unchanged entries are not written.
await runCli(async () => {
  const { positionals } = parseArgs({ allowPositionals: true });
  const [folderArgument] = positionals;
  if (!folderArgument || positionals.length > 1) {
    throw new Error('Usage: npm run import:bangumi -- <folder of an unpacked Bangumi Archive dump>');
  }
  const folder = path.resolve(folderArgument);
  await checkDumpFolder(folder);

  const progress = createProgressBar(process.stderr);
  await withApp(async ({ db, dialect }) => {
    const summary = await importBangumiDump(db, folder, {
      onProgress: ({ step, done, total, unit }) => progress.update({ label: step, done, total, unit }),
    });
    progress.finish();
    console.log(`Bangumi dump ${folder} imported into ${dialect}:`);
    for (const line of formatImportSummary(summary)) console.log(`  ${line}`);
  }).finally(() => progress.finish());
});
