import { defineModule } from '../module.ts';
import { INDEX_VERSION, indexVersion, refreshPopularity, reindexAll } from './search.index.ts';
import { searchRoutes } from './search.routes.ts';
import { pruneSearches } from './search.trending.ts';
import './search.tables.ts';

const MINUTE = 60 * 1000;

declare module '../../context.ts' {
  interface AppJobs {
    'search.reindex': { version: string };
  }
}

/**
 * Search (decision 024): the index of games, light novels, producers, people and characters kept by
 * the catalogue's writers, the /search API with trending and suggestions.
 */
export const searchModule = defineModule({
  name: 'search',
  api: searchRoutes,
  jobs: (ctx) => ({
    // Queued at start when the index was built by other rules (or never): one process rebuilds it.
    'search.reindex': async ({ version }: { version: string }) => {
      if ((await indexVersion(ctx.db)) === version) return;
      const started = Date.now();
      const { names } = await reindexAll(ctx.db);
      ctx.logger.info({ names, ms: Date.now() - started }, 'search index rebuilt');
    },
  }),
  housekeeping: [
    { name: 'search.popularity', everyMs: 60 * MINUTE, run: (ctx) => refreshPopularity(ctx.db).then(() => undefined) },
    { name: 'search.prune', everyMs: 10 * MINUTE, run: (ctx) => pruneSearches(ctx.db) },
  ],
  start: async (ctx) => {
    if ((await indexVersion(ctx.db)) !== INDEX_VERSION)
      await ctx.jobs.enqueue(
        ctx.db,
        'search.reindex',
        { version: INDEX_VERSION },
        { dedupeKey: `search.reindex:${INDEX_VERSION}` },
      );
  },
});
