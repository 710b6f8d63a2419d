import { join } from 'node:path';
import { Hono } from 'hono';
import { defineModule } from '../module.ts';
import { lightnovelCatalogueRoutes } from './lightnovel.routes.ts';
import { epubRoutes } from './epub/epub.routes.ts';
import { lightnovelRatingRoutes } from './lightnovel.ratings.routes.ts';
import { readingRoutes } from './reading.routes.ts';
import { lightnovelTargets } from './lightnovel.targets.ts';
import { stopLightnovelViews } from './lightnovel.service.ts';
import { refreshReleasedVolumes } from './lightnovel.writer.ts';
import { pagesChanged } from '../../http/page-cache-policy.ts';
import { removeStaleUploads } from './epub/epub-upload.ts';

/**
 * Light novels: series and volumes (lightnovel.routes), ratings and favourite lists (lightnovel.ratings.routes),
 * what members read (reading.routes: progress and bookmarks) and the volumes' EPUBs (epub/).
 */
export const lightnovelModule = defineModule({
  name: 'lightnovel',
  api: (ctx) =>
    new Hono()
      .route('/', lightnovelCatalogueRoutes(ctx))
      .route('/', lightnovelRatingRoutes(ctx))
      .route('/', readingRoutes(ctx))
      .route('/', epubRoutes(ctx)),
  targets: lightnovelTargets,
  // Upload folders a crashed process left behind.
  start: async (ctx) => {
    await removeStaleUploads(join(ctx.config.dataDir, 'tmp'));
  },
  // Views counted in memory are written before the database closes.
  stop: stopLightnovelViews,
  housekeeping: [
    {
      // An announced volume whose day has come becomes its series' latest (lists sort by it).
      name: 'lightnovel.released',
      everyMs: 60 * 60 * 1000,
      run: async (ctx) => {
        const ids = await refreshReleasedVolumes(ctx.db);
        if (ids.length) await pagesChanged(ctx, ['lightnovels', ...ids.map((id) => `lightnovel:${id}`)]);
      },
    },
  ],
});
