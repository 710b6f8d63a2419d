import type { AreaMessages } from '../message.ts';
import type { userCard as reference } from '../zh-CN/user-card.ts';

/** English messages of the user card and the follow button of members. */
export const userCard: AreaMessages<typeof reference> = {
  'userFollow.follow': 'Follow',
  'userFollow.followed': 'Followed',
  'userFollow.login': 'login is required to use the follow feature',
  'userFollow.failed': 'operation failed: {message}',

  'userCard.label': '{name}’s card',
  'userCard.loading': 'Loading...',
  'userCard.failed': 'failed to get user info: {message}',
  'userCard.retry': 'Retry',
  'userCard.noSignature': 'No signature yet',
  'userCard.stat.following': 'Following',
  'userCard.stat.followers': 'Followers',
  'userCard.stat.articles': 'Articles',
  'userCard.stat.posts': 'Posts',
  'userCard.profile': 'Profile',
  'userCard.message': 'Message',
  'userCard.messageLogin': 'login is required to use the private message feature',
  'userCard.messageSelf': "can't message yourself",
  'userCard.newTab': '(opens in a new tab)',
};
