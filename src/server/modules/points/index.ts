import { defineModule } from '../module.ts';
import { pointsRoutes } from './points.routes.ts';

/** The HikariPoint ledger: every change of a balance is a row, and the rows add up to it (decision 025). */
export const pointsModule = defineModule({ name: 'points', api: pointsRoutes });
