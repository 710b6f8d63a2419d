import { defineModule } from '../module.ts';
import { liftEndedBans } from './moderation.members.ts';
import { moderationRoutes } from './moderation.routes.ts';

/** Moderation (decision 028): the report queue, content actions, bans, the audit log and roles. */
export const moderationModule = defineModule({
  name: 'moderation',
  api: moderationRoutes,
  // Time bans end by themselves: at most a minute late.
  housekeeping: [
    { name: 'moderation.ban-expiry', everyMs: 60_000, run: (ctx) => liftEndedBans(ctx.db).then(() => undefined) },
  ],
});
