import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { nameField, profileUpdateSchema } from './auth.ts';
import { translator } from './i18n/catalogues.ts';
import { translateRef } from './i18n/index.ts';
import { safeText } from './input-rules.ts';
import { hasHiddenCharacter, showsNothing, showsSomething, withoutHiddenCharacters } from './visible-text.ts';

const zh = (message: string | undefined) => translateRef(translator('zh-CN'), message ?? '');
const en = (message: string | undefined) => translateRef(translator('en'), message ?? '');
const firstIssue = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;

/** Texts that draw nothing, each made of one kind of invisible character. */
const INVISIBLE_TEXTS: [string, string][] = [
  ['a zero-width space', '\u200B'],
  ['zero-width joiners and non-joiners', '\u200D\u200C\u2060'],
  ['a BOM', '\uFEFF'],
  ['blank braille', '\u2800\u2800\u2800'],
  ['Hangul fillers', '\u3164\uFFA0\u115F\u1160'],
  ['combining marks alone', '\u0301\u0308\u0323'],
  ['an enclosing circle alone', '\u20DD'],
  ['a combining mark on a space', ' \u0301'],
  ['variation selectors', '\uFE0F\u{E0100}'],
  ['tag characters', '\u{E0041}\u{E0042}\u{E007F}'],
  ['bidi marks and isolates', '\u200E\u200F\u061C'],
  ['no-break and ideographic spaces', '\u00A0\u3000\u2007\u202F'],
  ['en to hair spaces', '\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200A'],
  ['the Mongolian vowel separator', '\u180E'],
  ['line and paragraph separators', '\u2028\u2029'],
  ['invisible operators', '\u2061\u2062\u2063\u2064'],
  ['a soft hyphen and a combining grapheme joiner', '\u00AD\u034F'],
  ['Khmer inherent vowels', '\u17B4\u17B5'],
  ['the musical null notehead', '\u{1D159}'],
  ['shorthand format controls', '\u{1BCA0}\u{1BCA3}'],
  ['a mix of all of them', '\u200B\u2800 \u3164\u0301\uFE0F\u3000'],
];

describe('visible text', () => {
  it.each(INVISIBLE_TEXTS)('finds nothing to see in %s', (_name, text) => {
    expect(showsNothing(text)).toBe(true);
    expect(showsSomething(text)).toBe(false);
  });

  it.each([
    ['Chinese', '光'],
    ['kana', 'ひかり'],
    ['Hangul syllables', '한글'],
    ['Hangul jamo', 'ㄱ'],
    ['an emoji', '😀'],
    ['an emoji with a variation selector', '❤\uFE0F'],
    ['a ZWJ family', '👨\u200D👩\u200D👧'],
    ['a flag', '🇨🇳'],
    ['a keycap', '1\uFE0F\u20E3'],
    ['a letter with a combining accent', 'e\u0301'],
    ['a letter among zero-width characters', '\u200Ba\u200B'],
    ['punctuation', '…'],
    ['a private-use character', '\uE000'],
    ['a dot among blank braille', '\u2800\u2801\u2800'],
  ])('sees %s', (_name, text) => {
    expect(showsSomething(text)).toBe(true);
  });

  it('reads very long invisible text in one pass', () => {
    expect(showsNothing('\u200B\u0301'.repeat(200_000))).toBe(true);
    expect(showsNothing(`${'\u2800'.repeat(400_000)}x`)).toBe(false);
  });

  it('finds characters in names that draw nothing, and leaves them out of what names are compared by', () => {
    for (const hidden of [
      '\u3164',
      '\uFFA0',
      '\u115F',
      '\u1160',
      '\u200B',
      '\u2800',
      '\uFE0F',
      '\u{E0061}',
      '\u00AD',
    ]) {
      expect(hasHiddenCharacter(`hikari_admin${hidden}`)).toBe(true);
      expect(withoutHiddenCharacters(`hikari${hidden}_admin`)).toBe('hikari_admin');
    }
    for (const name of ['hikari_admin', '光之', '한글', 'ひかり', 'Ünal', 'ǅemal'])
      expect(hasHiddenCharacter(name)).toBe(false);
  });
});

describe('text fields refuse text that shows nothing', () => {
  const signature = safeText({ max: 50, label: 'validation.label.signature' });
  const bio = safeText({ kind: 'multiline', max: 200, label: 'validation.label.bio' });

  // White space alone is trimmed to nothing (an empty optional text; a required one asks for it).
  const notTrimmed = INVISIBLE_TEXTS.filter(([, text]) => text.trim() !== '');

  it('trims white space alone to an empty text', () => {
    expect(signature.parse('\u00A0\u3000\u2007\u202F\u2028\uFEFF')).toBe('');
    const title = safeText({ max: 50, min: 1, label: 'validation.label.signature' });
    expect(zh(firstIssue(title, '\u3000\u00A0'))).toBe('请输入签名');
  });

  it.each(notTrimmed)('refuses %s, in both languages', (_name, text) => {
    for (const field of [signature, bio]) expect(field.safeParse(text).success).toBe(false);
    expect(zh(firstIssue(bio, text))).toBe(
      '个人简介只有看不见的字符（空格、零宽字符、空白符号或单独的附加符号），请写些能看到的内容',
    );
    expect(en(firstIssue(signature, text))).toBe(
      'Signature shows nothing (only spaces, invisible characters or lone accents): write something visible',
    );
  });

  it('still takes empty optional text, and text with something to see', () => {
    expect(signature.parse('')).toBe('');
    expect(signature.parse('  ')).toBe('');
    expect(bio.parse('\u200Bhi\u200B')).toBe('\u200Bhi\u200B');
    expect(bio.parse('👨\u200D👩\u200D👧')).toBe('👨\u200D👩\u200D👧');
    expect(profileUpdateSchema.safeParse({ signature: '\u200B' }).success).toBe(false);
    expect(profileUpdateSchema.safeParse({ signature: '' }).success).toBe(true);
  });

  it('lets text another program wrote through when asked', () => {
    const chapter = safeText({ max: 50, label: 'reader.label.chapter', invisible: 'keep' });
    expect(chapter.parse('\u2800')).toBe('\u2800');
  });
});

describe('user names', () => {
  it.each([
    ['a Hangul filler', 'hikari_admin\u3164'],
    ['a half-width Hangul filler', 'hikari_admin\uFFA0'],
    ['a choseong filler', '\u115Fhikari_admin'],
    ['a jungseong filler', 'hikari\u1160admin'],
  ])('refuse %s, saying why', (_name, name) => {
    const message = firstIssue(nameField, name);
    expect(zh(message)).toBe('用户名不能包含看不见的字符（零宽字符、韩文填充字符、空白点字符等）');
    expect(en(message)).toMatch(/^A user name cannot contain invisible characters/);
  });

  it.each([['\u200B'], ['\u2800'], ['\uFE0F'], ['\u{E0041}'], ['\u00AD'], ['\u0301'], ['\u00A0'], ['\u3000']])(
    'refuse a name with %j inside',
    (hidden) => {
      expect(nameField.safeParse(`hikari_${hidden}admin`).success).toBe(false);
    },
  );

  it('refuse names made only of fillers', () => {
    expect(nameField.safeParse('\u3164\u3164\u3164').success).toBe(false);
  });

  it('keep taking names in any script', () => {
    for (const name of ['hikari_admin', '光之', '한글이름', 'ひかり', 'カタカナ', 'Ünal', 'Ελένη', 'user-2']) {
      expect(nameField.parse(name)).toBe(name);
    }
  });
});
