import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../shared/community/community.ts';
import {
  DEFAULT_FEED_VIEW,
  colorOf,
  contentTags,
  cssString,
  escapeAttribute,
  feedHref,
  feedTags,
  iconOf,
  lastPageRedirect,
  parseArticleKey,
  parseFeedView,
} from './community-routes.ts';

const params = (search: string) => new URLSearchParams(search);

describe('the feed view in the address', () => {
  it('reads sort, type and page', () => {
    expect(parseFeedView(params(''))).toEqual(DEFAULT_FEED_VIEW);
    expect(parseFeedView(params('sort=hot&type=article&page=3'))).toEqual({ sort: 'hot', type: 'article', page: 3 });
    expect(parseFeedView(params('sort=featured&type=post'))).toEqual({ sort: 'featured', type: 'post', page: 1 });
  });

  it('falls back to the defaults for anything unknown or malformed', () => {
    for (const search of [
      'sort=best',
      'type=video',
      'page=0',
      'page=-2',
      'page=1.5',
      'page=abc',
      'page=01',
      'page=%00',
    ]) {
      expect(parseFeedView(params(search)), search).toEqual(DEFAULT_FEED_VIEW);
    }
    expect(parseFeedView(params('page=0'))).toEqual(DEFAULT_FEED_VIEW);
    expect(parseFeedView(params('page=99999999'))).toEqual(DEFAULT_FEED_VIEW);
    expect(parseFeedView(params('sort=HOT&type=Post'))).toEqual(DEFAULT_FEED_VIEW);
    // The highest page a list accepts is still a page.
    expect(parseFeedView(params('page=10000')).page).toBe(10_000);
    expect(parseFeedView(params('page=10001')).page).toBe(1);
  });

  it('writes links with the defaults left out, the filters kept and an optional anchor', () => {
    expect(feedHref('/community', {})).toBe('/community');
    expect(feedHref('/community', DEFAULT_FEED_VIEW)).toBe('/community');
    expect(feedHref('/community', { sort: 'hot', type: 'all', page: 2 })).toBe('/community?sort=hot&page=2');
    expect(feedHref('/community/section/3', { sort: 'new', type: 'article', page: 1 })).toBe(
      '/community/section/3?type=article',
    );
    expect(feedHref('/community', { sort: 'featured' }, 'community-feed')).toBe(
      '/community?sort=featured#community-feed',
    );
  });

  it('sends a page past the end to the last page, keeping the filters', () => {
    const view = { sort: 'hot', type: 'post', page: 9 } as const;
    expect(lastPageRedirect('/community', view, { page: 9, total: 45, totalPages: 3 })).toBe(
      '/community?sort=hot&type=post&page=3',
    );
    expect(lastPageRedirect('/community', { ...view, page: 3 }, { page: 3, total: 45, totalPages: 3 })).toBeNull();
    // An empty feed shows its empty state on any page.
    expect(lastPageRedirect('/community', view, { page: 9, total: 0, totalPages: 1 })).toBeNull();
    expect(lastPageRedirect('/t', { ...view, page: 2 }, { page: 2, total: 5, totalPages: 1 })).toBe(
      '/t?sort=hot&type=post',
    );
  });
});

describe('article addresses', () => {
  it('takes an id or a slug, and nothing else', () => {
    expect(parseArticleKey('12')).toEqual({ id: 12 });
    expect(parseArticleKey('semi-ame-review')).toEqual({ slug: 'semi-ame-review' });
    for (const bad of [undefined, '', '0', '012', 'ab', 'Semi-Ame', '-abc', 'a b c', '../x', 'x'.repeat(81)]) {
      expect(parseArticleKey(bad), String(bad)).toBeNull();
    }
  });
});

describe('section and topic looks', () => {
  it('uses sprite icons only, with a fallback', () => {
    expect(iconOf('gamepad', 'messages')).toBe('gamepad');
    expect(iconOf('no-such-icon', 'messages')).toBe('messages');
    expect(iconOf('__proto__', 'hash')).toBe('hash');
  });

  it('takes #rrggbb colours only', () => {
    expect(colorOf('#39C5BB')).toBe('#39c5bb');
    for (const bad of ['', 'red', '#fff', '#39c5bb;background:url(x)', 'var(--x)']) expect(colorOf(bad)).toBeNull();
  });

  it('writes any text as a CSS string that cannot end its declaration', () => {
    expect(cssString('Spoiler — click to show')).toBe('"Spoiler \\2014  click to show"');
    expect(cssString('剧透')).toBe('"\\5267 \\900f "');
    expect(cssString('a"b\\c;}</style>')).toBe('"a\\22 b\\5c c;}</style>"');
    expect(cssString('line\nbreak')).toBe('"line\\a break"');
  });

  it('escapes text for an attribute', () => {
    expect(escapeAttribute('a "b" <c> & d')).toBe('a &quot;b&quot; &lt;c&gt; &amp; d');
  });
});

describe('cache tags', () => {
  const item = (over: Partial<FeedItem>): FeedItem => ({
    type: 'post',
    id: 1,
    title: 't',
    excerpt: '',
    images: [],
    author: { userId: 1, name: 'a', avatar: '' },
    section: { id: 4, name: 's', color: '#000000', icon: 'hash' },
    topics: [{ id: 9, name: 'x', color: '' }],
    likeCount: 0,
    commentCount: 0,
    favoriteCount: 0,
    viewCount: 0,
    pinned: false,
    featured: false,
    isReview: false,
    publishedAt: '2026-01-01T00:00:00.000Z',
    editedAt: null,
    url: '/community/post/1',
    ...over,
  });

  it('names every item of a feed, its section and topics, and the community', () => {
    expect(feedTags([item({}), item({ type: 'article', id: 2, section: null, topics: [] })])).toEqual([
      'community',
      'post:1',
      'section:4',
      'topic:9',
      'article:2',
    ]);
  });

  it('names a page’s item, its comments, chips and related games, but not names without a topic yet', () => {
    expect(
      contentTags('article', {
        id: 5,
        section: null,
        topics: [
          { id: 0, name: 'new', color: '' },
          { id: 3, name: 'old', color: '' },
        ],
        works: [
          { type: 'galgame', id: 7 },
          { type: 'lightnovel', id: 8 },
        ],
      }),
    ).toEqual(['article:5', 'comments:article:5', 'topic:3', 'galgame:7']);
  });
});
