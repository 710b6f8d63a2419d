import { defineModule } from '../module.ts';
import { pruneAuthData } from './auth.housekeeping.ts';
import { sendAuthMail, type AuthMailJob } from './auth.mail-job.ts';
import { authRoutes } from './auth.routes.ts';

const HOUR = 60 * 60 * 1000;

/** Sessions, verification codes, registration and account recovery, and the mails they send. */
export const authModule = defineModule({
  name: 'auth',
  api: authRoutes,
  jobs: (ctx) => ({ 'auth.mail': (job: AuthMailJob) => sendAuthMail(ctx, job) }),
  housekeeping: [{ name: 'auth.prune', everyMs: HOUR, run: (ctx) => pruneAuthData(ctx.db) }],
});
