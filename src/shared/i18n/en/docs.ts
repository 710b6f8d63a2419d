import type { AreaMessages } from '../message.ts';
import type { docs as reference } from '../zh-CN/docs.ts';

/** English messages of the docs area. */
export const docs: AreaMessages<typeof reference> = {
  'docs.title': 'Docs',
  'docs.searchPlaceholder': 'Search the docs…',
  'docs.searchLabel': 'Search the docs',
  'docs.searching': 'Searching…',
  'docs.noResults': 'Nothing found for “{query}”',
  'docs.searchUnavailable': 'The search index is not available',
  'docs.updated': 'Updated {date}',
  'docs.toc': 'On this page',
  'docs.nav': 'Docs',
  'docs.group.guide': 'Getting started',
  'docs.group.community': 'Community',
  'docs.group.creator': 'Creators',
  'docs.group.general': 'Overview',
};
