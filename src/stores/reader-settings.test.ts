import { describe, expect, it } from 'vitest';
import {
  $readerSettings,
  changeReaderSettings,
  DEFAULT_READER_SETTINGS,
  loadReaderSettings,
  parseReaderSettings,
  READER_SETTINGS_KEY,
  readerCss,
  stepFontSize,
  stepLineHeight,
} from './reader-settings.ts';

const memory = () => {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
};

describe('reader settings', () => {
  it('falls back to the defaults for anything missing, broken or out of range', () => {
    expect(parseReaderSettings(null)).toEqual(DEFAULT_READER_SETTINGS);
    expect(parseReaderSettings('{not json')).toEqual(DEFAULT_READER_SETTINGS);
    expect(parseReaderSettings('[1,2]')).toEqual(DEFAULT_READER_SETTINGS);
    expect(
      parseReaderSettings(
        JSON.stringify({ flow: 'sideways', fontSize: 99, lineHeight: 0.5, font: 'comic', theme: 'neon' }),
      ),
    ).toEqual({ ...DEFAULT_READER_SETTINGS, fontSize: 32, lineHeight: 1.2 });
    expect(parseReaderSettings(JSON.stringify({ fontSize: '20', lineHeight: Number.NaN }))).toEqual(
      DEFAULT_READER_SETTINGS,
    );
  });

  it('keeps changes on this device and reads them back', () => {
    const storage = memory();
    loadReaderSettings(storage);
    changeReaderSettings({ theme: 'sepia', fontSize: 22, flow: 'scrolled' }, storage);
    expect(JSON.parse(storage.values.get(READER_SETTINGS_KEY) ?? '{}')).toMatchObject({ theme: 'sepia', fontSize: 22 });
    $readerSettings.set(DEFAULT_READER_SETTINGS);
    expect(loadReaderSettings(storage)).toMatchObject({ theme: 'sepia', fontSize: 22, flow: 'scrolled' });
    // Storage that refuses leaves the page's settings working.
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(loadReaderSettings(refusing)).toEqual(DEFAULT_READER_SETTINGS);
    expect(changeReaderSettings({ theme: 'dark' }, refusing).theme).toBe('dark');
  });

  it('steps type size and line height within their ranges without drifting', () => {
    expect(stepFontSize({ ...DEFAULT_READER_SETTINGS, fontSize: 32 }, 1)).toBe(32);
    expect(stepFontSize({ ...DEFAULT_READER_SETTINGS, fontSize: 14 }, -1)).toBe(14);
    expect(stepFontSize(DEFAULT_READER_SETTINGS, 1)).toBe(20);
    expect(stepLineHeight({ ...DEFAULT_READER_SETTINGS, lineHeight: 1.6 }, 1)).toBe(1.8);
    expect(stepLineHeight({ ...DEFAULT_READER_SETTINGS, lineHeight: 2.4 }, 1)).toBe(2.4);
  });

  it('styles the book without overriding its writing mode or marking layout important', () => {
    const css = readerCss({ ...DEFAULT_READER_SETTINGS, theme: 'dark', fontSize: 20, font: 'sans' });
    expect(css).toContain('font-size: 20px');
    expect(css).toContain('#18181b');
    expect(css).toContain('sans-serif');
    expect(css).not.toMatch(/writing-mode|direction|!important/);
  });
});

describe('the theme of a reader who never chose one', () => {
  it("follows the site's colour mode, and a chosen theme wins over it", () => {
    expect(parseReaderSettings(null, 'dark').theme).toBe('dark');
    expect(parseReaderSettings(null, 'light').theme).toBe('light');
    expect(parseReaderSettings(JSON.stringify({ theme: 'sepia' }), 'dark').theme).toBe('sepia');
    expect(parseReaderSettings(JSON.stringify({ theme: 'light' }), 'dark').theme).toBe('light');
  });
});
