import { authContract } from './auth/auth.contract.ts';
import { checkinContract } from './checkin/checkin.contract.ts';
import { pointsContract } from './checkin/points.contract.ts';
import { chatContract } from './chat/chat.contract.ts';
import { catalogueContract } from './catalogue/catalogue.contract.ts';
import { commentsContract } from './comments/comments.contract.ts';
import { communityContract } from './community/community.contract.ts';
import type { AnyEndpoint, Contract } from './contract.ts';
import { emojiContract } from './emoji/emoji.contract.ts';
import { healthContract } from './health/health.contract.ts';
import { epubContract } from './lightnovel/epub.contract.ts';
import { lightnovelContract } from './lightnovel/lightnovel.contract.ts';
import { lightnovelRatingsContract } from './lightnovel/ratings.contract.ts';
import { readingContract } from './lightnovel/reading.contract.ts';
import { mediaContract } from './media/media.contract.ts';
import { notificationsContract } from './notifications/notifications.contract.ts';
import { reactionsContract } from './reactions/reactions.contract.ts';
import { searchContract } from './search/search.contract.ts';
import { siteContract } from './site/site.contract.ts';
import { usersContract } from './users/users.contract.ts';
import { creatorItemsContract } from './creator/items.contract.ts';
import { creatorManageContract } from './creator/manage.contract.ts';
import { updateRequestsContract } from './creator/requests.contract.ts';
import { creatorApplicationContract } from './creator/application.contract.ts';
import { moderationContract } from './moderation/moderation.contract.ts';
import { sectionsContract } from './community/sections.contract.ts';

/**
 * Every module's contract, by module, in the order the README's API tables show them. The server must
 * mount exactly these endpoints (tests/api/contracts.test.ts) and `npm run docs:api` documents them.
 */
export const apiContracts = {
  health: healthContract,
  site: siteContract,
  auth: authContract,
  users: usersContract,
  catalogue: catalogueContract,
  media: mediaContract,
  emoji: emojiContract,
  community: communityContract,
  comments: commentsContract,
  reactions: reactionsContract,
  notifications: notificationsContract,
  search: searchContract,
  checkin: checkinContract,
  points: pointsContract,
  chat: chatContract,
  lightnovel: lightnovelContract,
  lightnovelRatings: lightnovelRatingsContract,
  reading: readingContract,
  epub: epubContract,
  creatorItems: creatorItemsContract,
  creatorManage: creatorManageContract,
  updateRequests: updateRequestsContract,
  creatorApplication: creatorApplicationContract,
  moderation: moderationContract,
  sections: sectionsContract,
} as const satisfies Record<string, Contract>;

export type ModuleName = keyof typeof apiContracts;

/** Every endpoint with its module and name, e.g. `{ module: 'users', name: 'profile', endpoint }`. */
export function allEndpoints(): { module: ModuleName; name: string; endpoint: AnyEndpoint }[] {
  return Object.entries(apiContracts).flatMap(([module, contract]) =>
    Object.entries(contract).map(([name, endpoint]) => ({ module: module as ModuleName, name, endpoint })),
  );
}
