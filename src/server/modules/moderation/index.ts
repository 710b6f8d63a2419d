import { defineModule } from '../module.ts';
import { moderationRoutes } from './moderation.routes.ts';

/** Moderation (decision 028): the report queue, content actions, bans, the audit log and roles. */
export const moderationModule = defineModule({
  name: 'moderation',
  api: moderationRoutes,
});
