import type { AreaMessages } from '../message.ts';
import type { search as reference } from '../zh-CN/search.ts';

/** English messages of the search area. */
export const search: AreaMessages<typeof reference> = {
  'search.validation.keyword': 'Search keyword',
  'search.validation.prefix': 'Search prefix',
  'search.validation.type': 'The search type must be galgame, novel, producer or person',
  'search.validation.relativeMatch': 'relative_match must be true or false',
  'search.validation.window': 'The window must be 1h, 24h or 7d',
  'search.validation.blank': 'Enter something to search for',
};
