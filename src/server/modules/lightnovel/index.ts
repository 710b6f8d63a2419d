import { Hono } from 'hono';
import { defineModule } from '../module.ts';
import { lightnovelCatalogueRoutes } from './lightnovel.routes.ts';
import { epubRoutes } from './epub/epub.routes.ts';
import { readingRoutes } from './reading.routes.ts';
import { lightnovelTargets } from './lightnovel.targets.ts';

/** Light novels: series and volumes, their EPUBs, and what members read (progress and bookmarks). */
export const lightnovelModule = defineModule({
  name: 'lightnovel',
  api: (ctx) =>
    new Hono().route('/', lightnovelCatalogueRoutes(ctx)).route('/', readingRoutes(ctx)).route('/', epubRoutes(ctx)),
  targets: lightnovelTargets,
});
