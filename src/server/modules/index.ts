import { createTargetRegistry, type TargetRegistry } from '../platform/targets/targets.ts';
import { announcementModule } from './announcement/index.ts';
import { authModule } from './auth/index.ts';
import { catalogueModule } from './catalogue/index.ts';
import { checkinModule } from './checkin/index.ts';
import { chatModule } from './chat/index.ts';
import { communityModule } from './community/index.ts';
import { creatorModule } from './creator/index.ts';
import { moderationModule } from './moderation/index.ts';
import { commentsModule } from './comments/index.ts';
import { emojiModule } from './emoji/index.ts';
import { healthModule } from './health/index.ts';
import { lightnovelModule } from './lightnovel/index.ts';
import { mediaModule } from './media/index.ts';
import type { ServerModule } from './module.ts';
import { notificationsModule } from './notifications/index.ts';
import { pointsModule } from './points/index.ts';
import { reactionsModule } from './reactions/index.ts';
import { searchModule } from './search/index.ts';
import { siteModule } from './site/index.ts';
import { usersModule } from './users/index.ts';

/**
 * Every server module, in the order they start (and, reversed, stop). The only list of modules:
 * the API, the HTTP server, the job runner and the target registry are all built from it.
 */
export const appModules: readonly ServerModule[] = [
  healthModule,
  siteModule,
  announcementModule,
  usersModule,
  pointsModule,
  checkinModule,
  authModule,
  catalogueModule,
  lightnovelModule,
  searchModule,
  mediaModule,
  emojiModule,
  communityModule,
  commentsModule,
  reactionsModule,
  notificationsModule,
  chatModule,
  creatorModule,
  moderationModule,
];

/** The target types of all modules, as createAppContext registers them (for tests of one service). */
export const appTargets = (): TargetRegistry => createTargetRegistry(appModules.flatMap((m) => m.targets ?? []));
