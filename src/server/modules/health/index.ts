import { defineModule } from '../module.ts';
import { healthRoutes } from './health.routes.ts';

/** GET /api/health: liveness, database read and write, migrations. */
export const healthModule = defineModule({ name: 'health', api: healthRoutes });
