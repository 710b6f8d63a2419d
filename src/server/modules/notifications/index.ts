import { defineModule } from '../module.ts';
import { queueDigests, sendDigest } from './notifications.digest.ts';
import type { NotificationEvent } from './notifications.queue.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { deliverAnnouncements, handleNotificationEvent } from './notifications.service.ts';

const MINUTE = 60 * 1000;

/**
 * Notifications of comments, replies, likes, follows, moderation and announcements (decision 021):
 * written by the `notifications.event` job the other modules queue in their own transactions, mailed
 * as digests to members who opted in.
 */
export const notificationsModule = defineModule({
  name: 'notifications',
  api: notificationsRoutes,
  jobs: (ctx) => ({
    'notifications.event': (event: NotificationEvent) =>
      handleNotificationEvent({ db: ctx.db, targets: ctx.targets }, event),
    'notifications.digest': async ({ userId }: { userId: string }) => {
      await sendDigest({ db: ctx.db, targets: ctx.targets, jobs: ctx.jobs, origin: ctx.config.publicOrigin }, userId);
    },
  }),
  housekeeping: [
    {
      name: 'notifications.announcements',
      everyMs: 5 * MINUTE,
      run: (ctx) => deliverAnnouncements(ctx.db).then(() => undefined),
    },
    {
      name: 'notifications.digests',
      everyMs: 60 * MINUTE,
      run: (ctx) => queueDigests(ctx.db, ctx.jobs).then(() => undefined),
    },
  ],
});
