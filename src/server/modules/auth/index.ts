import { defineModule } from '../module.ts';
import { authRoutes } from './auth.routes.ts';
import { pruneAuthData } from './auth.housekeeping.ts';

const HOUR = 60 * 60 * 1000;

/** Sessions, verification codes, registration and account recovery. */
export const authModule = defineModule({
  name: 'auth',
  api: authRoutes,
  housekeeping: [{ name: 'auth.prune', everyMs: HOUR, run: (ctx) => pruneAuthData(ctx.db) }],
});
