import type { AreaMessages } from '../message.ts';
import type { home as reference } from '../zh-CN/home.ts';

/** English messages of the home area. */
export const home: AreaMessages<typeof reference> = {
  'home.heroTitle': 'Find the next story you will love',
  'home.heroText':
    'Keep track of the games you played and the novels you read, and share your thoughts with fellow fans.',
  'home.explore': 'Start exploring',
  'home.sections': 'Explore the site',
  'home.section.community': 'Community',
  'home.section.community.text': 'Posts, long reviews and topics.',
  'home.section.galgame': 'Galgame',
  'home.section.galgame.text': 'Game details, ratings and downloads.',
  'home.section.lightnovel': 'Light novel',
  'home.section.lightnovel.text': 'Series and volumes, with an EPUB reader.',
  'home.section.rules': 'Community rules',
  'home.section.rules.text': 'Spoiler marking, sharing and getting along.',
  'home.section.docs': 'Docs',
  'home.section.docs.text': 'Getting started, points and creator guides.',
  'home.announcements': 'Announcements',
  'home.pinned': 'Pinned',
  'home.readMore': 'Read more',

  'home.latestGames': 'New releases',
  'home.moreGames': 'More games',
};
