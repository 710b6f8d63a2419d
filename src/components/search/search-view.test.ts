import { describe, expect, it } from 'vitest';
import { highlightParts, readSearchParams, SEARCH_TABS, searchPageHref } from './search-view.ts';

const read = (query: string) => readSearchParams(new URLSearchParams(query));

describe('readSearchParams', () => {
  it('asks for a keyword when there is none or it is blank', () => {
    expect(read('')).toEqual({ kind: 'prompt' });
    expect(read('keyword=%20%20')).toEqual({ kind: 'prompt' });
  });

  it('reads keyword, type and page', () => {
    expect(read('keyword=%E9%9B%A8%E5%A3%B0&type=person&page=2')).toEqual({
      kind: 'search',
      query: { keyword: '雨声', type: 'person', page: 2, limit: 20 },
    });
  });

  it('reads relative_match, and drops a bad one', () => {
    const input = readSearchParams(new URLSearchParams('keyword=雨&type=person&relative_match=true'));
    expect(input).toMatchObject({ kind: 'search', query: { relative_match: true, type: 'person' } });
    const bad = readSearchParams(new URLSearchParams('keyword=雨&relative_match=maybe'));
    expect(bad.kind === 'search' && bad.query.relative_match).toBeUndefined();
  });

  it('falls back to the defaults for a bad type or page instead of failing', () => {
    expect(read('keyword=a&type=foo&page=0')).toEqual({
      kind: 'search',
      query: { keyword: 'a', type: 'galgame', page: 1, limit: 20 },
    });
  });

  it('gives the rule message for a keyword that is too long', () => {
    const result = read(`keyword=${'a'.repeat(101)}`);
    expect(result.kind).toBe('invalid');
  });
});

describe('search page links and tabs', () => {
  it('has a tab per type, light novels after games', () => {
    expect(SEARCH_TABS).toEqual(['galgame', 'novel', 'producer', 'person']);
  });

  it('keeps the keyword and leaves defaults out', () => {
    expect(searchPageHref('a b', 'galgame')).toBe('/search?keyword=a+b');
    expect(searchPageHref('雨', 'producer', 3)).toBe('/search?keyword=%E9%9B%A8&type=producer&page=3');
    expect(searchPageHref('雨夜', 'novel')).toBe('/search?keyword=%E9%9B%A8%E5%A4%9C&type=novel');
    // relative_match only when it is not the type's default.
    expect(searchPageHref('雨', 'person', 1, true)).toBe('/search?keyword=%E9%9B%A8&type=person&relative_match=true');
    expect(searchPageHref('雨', 'person', 1, false)).toBe('/search?keyword=%E9%9B%A8&type=person');
    expect(searchPageHref('雨', 'galgame', 2, false)).toBe('/search?keyword=%E9%9B%A8&relative_match=false&page=2');
  });
});

describe('highlightParts', () => {
  it('marks the ranges, merging overlaps and clipping what is out of range', () => {
    expect(highlightParts('雨声侦探事务所', [[0, 2]])).toEqual([
      { text: '雨声', mark: true },
      { text: '侦探事务所', mark: false },
    ]);
    expect(
      highlightParts('abcdef', [
        [4, 9],
        [1, 2],
        [1, 3],
      ]),
    ).toEqual([
      { text: 'a', mark: false },
      { text: 'bc', mark: true },
      { text: 'd', mark: false },
      { text: 'ef', mark: true },
    ]);
    expect(highlightParts('abc', [])).toEqual([{ text: 'abc', mark: false }]);
  });
});
