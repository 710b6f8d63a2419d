import { describe, expect, it } from 'vitest';
import { isLongText, lineDiff, valueLines } from './doc-diff.ts';
import type { LinkNames } from './requests.contract.ts';

const names: LinkNames = {
  tag: { '3': '恋爱' },
  producer: {},
  person: { '7': 'Mio' },
  character: { '9': 'Aoi' },
  galgame: {},
  lightnovel: {},
};
const say = (key: string) => key;

describe('values as the diff views show them', () => {
  it('shows lists one readable entry a line with the names of what they link to', () => {
    expect(valueLines('tags', [{ tagId: 3, spoiler: 1 }], names, say)).toEqual(['恋爱 (#3) · spoiler 1']);
    expect(valueLines('characters', [{ characterId: 9, role: 'main', voicePersonId: 7 }], names, say)).toEqual([
      'Aoi (#9) · main · CV Mio (#7)',
    ]);
    expect(valueLines('staff', [{ personId: 8, role: 'art', note: '' }], names, say)).toEqual(['#8 · art']);
    expect(valueLines('aliases', ['A', 'B'], names, say)).toEqual(['A', 'B']);
  });

  it('shows a download as its file and a line per link, the size at the precision the editor takes', () => {
    const file = {
      id: 4,
      language: 'ja',
      platform: 'windows',
      translationType: 'none',
      translationGroup: '',
      sizeBytes: Math.round(3.93 * 1024 ** 3),
      note: '',
      links: [{ id: 9, label: 'A', url: 'https://example.com/a', password: 'x' }],
    };
    const lines = (sizeBytes: number) => valueLines('downloads', [{ ...file, sizeBytes }], names, say);
    expect(lines(file.sizeBytes)[0]).toContain('3.93 GB');
    expect(lines(Math.round(3.95 * 1024 ** 3))[0]).toContain('3.95 GB');
    expect(lines(file.sizeBytes)[1]).toBe('  ↳ A https://example.com/a revision.field.linkPassword x');
  });

  it('shows flags, text and empty values', () => {
    expect(valueLines('nsfw', true, names, say)).toEqual(['revision.detail.yes']);
    expect(valueLines('intro', 'a\nb', names, say)).toEqual(['a', 'b']);
    expect(valueLines('cover', '', names, say)).toEqual([]);
    expect(valueLines('releaseDate', null, names, say)).toEqual([]);
  });

  it('diffs long text by lines', () => {
    expect(lineDiff(['a', 'b', 'c'], ['a', 'c', 'd'])).toEqual([
      { op: 'same', line: 'a' },
      { op: 'removed', line: 'b' },
      { op: 'same', line: 'c' },
      { op: 'added', line: 'd' },
    ]);
    expect(lineDiff([], ['x'])).toEqual([{ op: 'added', line: 'x' }]);
    expect(isLongText('one\ntwo', 'one')).toBe(true);
    expect(isLongText('short', 'also short')).toBe(false);
  });
});
