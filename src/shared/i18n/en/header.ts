import type { AreaMessages } from '../message.ts';
import type { header as reference } from '../zh-CN/header.ts';

/** English messages of the header area. */
export const header: AreaMessages<typeof reference> = {
  'nav.home': 'Home',
  'nav.community': 'Community',
  'nav.galgame': 'Galgame',
  'nav.lightnovel': 'Light novel',
  'nav.rules': 'Community rules',
  'nav.docs': 'Docs',
  'nav.aiGirlfriend': 'AI girlfriend',
  'nav.tag.ad': 'Ad',
  'nav.more': 'More',
  'nav.back': 'Back',
  'nav.openMenu': 'open menu',
  'nav.closeMenu': 'close menu',
  'nav.menu': 'Menu',
  'nav.creatorCenter': 'Creator Center',
  'nav.login': 'Log in',
  'nav.register': 'Register',
  'nav.skipToContent': 'Skip to content',
  'nav.main': 'Main navigation',

  'user.menu': 'User menu',
  'user.hp': 'HP {points}',
  'user.hpTitle': 'HikariPoint balance',
  'user.menu.creatorCenter': 'Creator Center',
  'user.menu.creatorApplication': 'Creator application',
  'user.menu.homepage': 'Personal homepage',
  'user.nsfw.label': 'NSFW covers',
  'user.nsfw.show': 'Show',
  'user.nsfw.blur': 'Blur',
  'user.nsfw.hide': 'Hide',
  'user.menu.logout': 'Log out',
  'user.logoutConfirm': 'are you sure you want to log out?',
  'user.notifications': 'Notifications',
  'user.notificationsUnread': 'Notifications ({count} unread)',
};
