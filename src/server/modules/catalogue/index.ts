import { defineModule } from '../module.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { catalogueTargets } from './catalogue.targets.ts';
import { stopViewCounter } from './view-counter.ts';

/** Galgames, tags, producers, people and characters; ratings, downloads and favourites. */
export const catalogueModule = defineModule({
  name: 'catalogue',
  api: catalogueRoutes,
  targets: catalogueTargets,
  stop: stopViewCounter,
});
