import { parseArgs } from 'node:util';
import { blockedKeywords, blockKeyword, unblockKeyword } from '../modules/search/search.trending.ts';
import { runCli, withApp } from './run-cli.ts';

// npm run search:block -- add <keyword> | remove <keyword> | list
// Keeps keywords out of 'Everyone is searching' and the search suggestions (decision 024).
await runCli(async () => {
  const { positionals } = parseArgs({ allowPositionals: true });
  const [action, ...rest] = positionals;
  const keyword = rest.join(' ').trim();
  if (action !== 'list' && ((action !== 'add' && action !== 'remove') || keyword === ''))
    throw new Error('Usage: npm run search:block -- add <keyword> | remove <keyword> | list');
  await withApp(async ({ db }) => {
    if (action === 'list') {
      const rows = await blockedKeywords(db);
      console.log(
        rows.length === 0 ? 'No blocked keywords.' : rows.map((r) => `${r.keyword}\t${r.createdAt}`).join('\n'),
      );
    } else if (action === 'add') {
      console.log(
        (await blockKeyword(db, keyword))
          ? `Blocked “${keyword}”.`
          : `“${keyword}” was already blocked (or has no letters or digits).`,
      );
    } else {
      console.log((await unblockKeyword(db, keyword)) ? `Unblocked “${keyword}”.` : `“${keyword}” was not blocked.`);
    }
  });
});
