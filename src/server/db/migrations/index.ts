import type { Migration } from 'kysely/migration';
import * as m20261122_0001 from './20261122-0001-system.ts';
import * as m20261122_0002 from './20261122-0002-accounts.ts';
import * as m20261122_0003 from './20261122-0003-catalogue.ts';
import * as m20261123_0001 from './20261123-0001-account-safety.ts';
import * as m20261123_0003 from './20261123-0003-jobs.ts';
import * as m20261124_0001 from './20261124-0001-list-facets.ts';
import * as m20261124_0002 from './20261124-0002-emoji.ts';
import * as m20261125_0001 from './20261125-0001-community.ts';
import * as m20261125_0002 from './20261125-0002-comments.ts';
import * as m20261126_0001 from './20261126-0001-community-hot.ts';
import * as m20261126_0002 from './20261126-0002-user-follow.ts';
import * as m20261127_0001 from './20261127-0001-notifications.ts';
import * as m20261127_0002 from './20261127-0002-space.ts';
import * as m20261127_0003 from './20261127-0003-user-comments.ts';
import * as m20261128_0001 from './20261128-0001-search.ts';
import * as m20261129_0001 from './20261129-0001-points.ts';
import * as m20261130_0001 from './20261130-0001-private-messages.ts';
import * as m20261201_0001 from './20261201-0001-chat-undelivered.ts';
import * as m20261202_0001 from './20261202-0001-lightnovel.ts';
import * as m20261203_0001 from './20261203-0001-lightnovel-sorts.ts';
import * as m20261204_0001 from './20261204-0001-creator.ts';
import * as m20261204_0002 from './20261204-0002-creator-application.ts';
import * as m20261204_0003 from './20261204-0003-moderation.ts';
import * as m20261204_0004 from './20261204-0004-sections.ts';
import * as m20261205_0001 from './20261205-0001-update-request-queue.ts';
import * as m20261206_0001 from './20261206-0001-revision-downloads.ts';
import * as m20261206_0002 from './20261206-0002-update-request-summary.ts';
import * as m20261207_0001 from './20261207-0001-name-skeletons.ts';
import * as m20261207_0002 from './20261207-0002-rate-limit-pending.ts';

/**
 * Every migration, in order. Listed here (not read from the folder) so the same list works under
 * Node, Vite and the test runner. Names sort in the order they must run.
 */
export const migrations: Record<string, Migration> = {
  '20261122-0001-system': m20261122_0001,
  '20261122-0002-accounts': m20261122_0002,
  '20261122-0003-catalogue': m20261122_0003,
  '20261123-0001-account-safety': m20261123_0001,
  '20261123-0003-jobs': m20261123_0003,
  '20261124-0001-list-facets': m20261124_0001,
  '20261124-0002-emoji': m20261124_0002,
  '20261125-0001-community': m20261125_0001,
  '20261125-0002-comments': m20261125_0002,
  '20261126-0001-community-hot': m20261126_0001,
  '20261126-0002-user-follow': m20261126_0002,
  '20261127-0001-notifications': m20261127_0001,
  '20261127-0002-space': m20261127_0002,
  '20261127-0003-user-comments': m20261127_0003,
  '20261128-0001-search': m20261128_0001,
  '20261129-0001-points': m20261129_0001,
  '20261130-0001-private-messages': m20261130_0001,
  '20261201-0001-chat-undelivered': m20261201_0001,
  '20261202-0001-lightnovel': m20261202_0001,
  '20261203-0001-lightnovel-sorts': m20261203_0001,
  '20261204-0001-creator': m20261204_0001,
  '20261204-0002-creator-application': m20261204_0002,
  '20261204-0003-moderation': m20261204_0003,
  '20261204-0004-sections': m20261204_0004,
  '20261205-0001-update-request-queue': m20261205_0001,
  '20261206-0001-revision-downloads': m20261206_0001,
  '20261206-0002-update-request-summary': m20261206_0002,
  '20261207-0001-name-skeletons': m20261207_0001,
  '20261207-0002-rate-limit-pending': m20261207_0002,
};
