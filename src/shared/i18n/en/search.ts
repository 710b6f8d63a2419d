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

  'search.page.title': 'Search',
  'search.page.titleWith': '{keyword} - Search',
  'search.page.description': 'Search games, light novels, producers, voice actors and characters',
  'search.page.label': 'Search keyword',
  'search.page.placeholder': 'A title, a producer or a name',
  'search.page.submit': 'Search',
  'search.page.tabs': 'Search type',
  'search.type.galgame': 'Galgame',
  'search.type.novel': 'Light novels',
  'search.type.producer': 'Producers',
  'search.type.person': 'People',
  'search.page.total': { one: '{count} result for “{keyword}”', other: '{count} results for “{keyword}”' },
  'search.page.totalMore': {
    one: 'More than {count} result for “{keyword}”; the first 50 pages are shown',
    other: 'More than {count} results for “{keyword}”; the first 50 pages are shown',
  },
  'search.page.wholeNames': 'Only names that are exactly “{keyword}” are shown.',
  'search.page.partialNames': 'Show names containing “{keyword}”',
  'search.page.prompt': 'What are you looking for?',
  'search.page.promptHint':
    'Type a game or light novel title, a producer, an author, a voice actor or a character; simplified and traditional Chinese, Japanese and romaji all work.',
  'search.page.empty': 'Nothing found for “{keyword}” in {type}',
  'search.page.emptyHint': 'Try another keyword, or look at the other tabs.',
  'search.page.suggestions': 'Did you mean:',
  'search.page.invalid': 'Cannot search: {message}',
  'search.page.works': { one: '{count} work', other: '{count} works' },
  'search.page.matchedBy': 'Matched: ',
  'search.page.prev': 'Previous',
  'search.page.next': 'Next',
  'search.page.pageLabel': 'Page {page}',
  'search.page.pagination': 'Search result pages',
  'search.kind.producer': 'Producer',
  'search.kind.person': 'Person',
  'search.kind.character': 'Character',
};
