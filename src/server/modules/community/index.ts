import { Hono } from 'hono';
import { defineModule } from '../module.ts';
import { sectionsRoutes } from './sections.routes.ts';
import { communityRoutes } from './community.routes.ts';
import { communityTargets } from './community.targets.ts';
import { stopContentViewCounter } from './view-counter.ts';

/** Sections, topics, posts, articles and follows; a user's content, drafts and favourite posts and articles. */
export const communityModule = defineModule({
  name: 'community',
  api: (ctx) => new Hono().route('/', communityRoutes(ctx)).route('/', sectionsRoutes(ctx)),
  targets: communityTargets,
  stop: stopContentViewCounter,
});
