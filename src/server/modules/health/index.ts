import { PLANNER_STATS_EVERY_MS, refreshPlannerStats } from '../../db/planner-stats.ts';
import { defineModule } from '../module.ts';
import { healthRoutes } from './health.routes.ts';

/** GET /api/health: liveness, database read and write, migrations; and the planner's statistics kept fresh. */
export const healthModule = defineModule({
  name: 'health',
  api: healthRoutes,
  housekeeping: [
    { name: 'health.planner-stats', everyMs: PLANNER_STATS_EVERY_MS, run: (ctx) => refreshPlannerStats(ctx) },
  ],
});
