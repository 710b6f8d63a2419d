import { describe, expect, it } from 'vitest';
import type { DownloadView } from './catalogue-model.ts';
import {
  coverInitials,
  displayTitle,
  formatFileSize,
  formatReleaseDate,
  groupDownloads,
  labelOf,
  loginHref,
} from './catalogue-format.ts';
import { translator } from './i18n/catalogues.ts';

const zh = translator('zh-CN');
const en = translator('en');

describe('catalogue labels', () => {
  it('labels known values in both languages and shows unknown ones as they are', () => {
    expect(labelOf(zh, 'platform', 'windows')).toBe('Windows');
    expect(labelOf(zh, 'translation', 'fan')).toBe('汉化组翻译');
    expect(labelOf(zh, 'translation', 'machine')).toBe('机翻');
    expect(labelOf(zh, 'translation', 'ai')).toBe('AI 翻译');
    expect(labelOf(zh, 'translation', 'official')).toBe('官方中文');
    expect(labelOf(zh, 'translation', 'none')).toBe('无中文');
    expect(labelOf(zh, 'playStatus', 'on_hold')).toBe('搁置');
    expect(labelOf(en, 'playStatus', 'plan')).toBe('Plan to play');
    expect(labelOf(zh, 'language', 'zh-Hant')).toBe('繁體中文');
    expect(labelOf(zh, 'entity.kind', 'amateur')).toBe('同人社团');
    expect(labelOf(zh, 'platform', 'dreamcast')).toBe('dreamcast');
    expect(labelOf(zh, 'staffRole', 'toString')).toBe('toString');
  });

  it('prefers the Chinese title', () => {
    expect(displayTitle({ title: '蝉時雨のリフレイン', titleZh: '蝉雨回响' })).toBe('蝉雨回响');
    expect(displayTitle({ title: 'Original', titleZh: '  ' })).toBe('Original');
  });

  it('takes two characters of a CJK title, or the start of a word, for a generated cover', () => {
    expect(coverInitials('蝉雨回响')).toBe('蝉雨');
    expect(coverInitials('「闪耀」舞台')).toBe('闪耀');
    expect(coverInitials('stardust transit')).toBe('ST');
    expect(coverInitials('  ')).toBe('?');
  });
});

describe('dates and sizes', () => {
  it('formats full release dates per locale, keeps partial ones, and reads null as TBD', () => {
    expect(formatReleaseDate('2019-08-23', 'zh-CN', zh)).toBe('2019年8月23日');
    expect(formatReleaseDate('2019-08-23', 'en', en)).toBe('August 23, 2019');
    expect(formatReleaseDate('2027-03', 'zh-CN', zh)).toBe('2027-03');
    expect(formatReleaseDate(null, 'zh-CN', zh)).toBe('待定');
  });

  it('writes sizes in 1024 steps', () => {
    expect(formatFileSize(4_218_734_592)).toBe('3.9 GB');
    expect(formatFileSize(3_435_973_837)).toBe('3.2 GB');
    expect(formatFileSize(734_003_200)).toBe('700 MB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(1024 ** 3)).toBe('1 GB');
    expect(formatFileSize(null)).toBe('');
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Math.round(3.93 * 1024 ** 3), 2)).toBe('3.93 GB');
    expect(formatFileSize(Math.round(3.9 * 1024 ** 3), 2)).toBe('3.9 GB');
    expect(formatFileSize(700 * 1024 ** 2, 2)).toBe('700 MB');
  });
});

const download = (id: number, language: string): DownloadView => ({
  id,
  language,
  platform: 'windows',
  translationType: 'fan',
  translationGroup: '',
  sizeBytes: null,
  note: '',
  links: [],
});

describe('download groups', () => {
  it('groups by language in a fixed order, unknown languages last', () => {
    const groups = groupDownloads([
      download(1, 'ja'),
      download(2, 'zh-Hans'),
      download(3, 'ko'),
      download(4, 'zh-Hant'),
      download(5, 'zh-Hans'),
    ]);
    expect(groups.map((g) => g.language)).toEqual(['zh-Hans', 'zh-Hant', 'ja', 'ko']);
    expect(groups[0]?.downloads.map((d) => d.id)).toEqual([2, 5]);
  });
});

it('links to the login page with the way back', () => {
  expect(loginHref('/galgame/3/download?x=1')).toBe('/login?jumpTo=%2Fgalgame%2F3%2Fdownload%3Fx%3D1');
});
