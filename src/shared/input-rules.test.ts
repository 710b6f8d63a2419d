import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  bodyId,
  bodyInt,
  decimalId,
  hasLoneSurrogate,
  queryDecimal,
  queryInt,
  safeText,
  unsafeTextReason,
} from './input-rules.ts';
import { translator } from './i18n/catalogues.ts';
import { translateRef } from './i18n/index.ts';

const zh = (message: string | undefined) => translateRef(translator('zh-CN'), message ?? '');
const en = (message: string | undefined) => translateRef(translator('en'), message ?? '');
import { nameField, profileUpdateSchema } from './auth.ts';

const ok = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('input rules', () => {
  it('finds lone surrogates but not pairs', () => {
    expect(hasLoneSurrogate('ab\uD800')).toBe(true);
    expect(hasLoneSurrogate('\uDC00ab')).toBe(true);
    expect(hasLoneSurrogate('\uDC00\uD800')).toBe(true);
    expect(hasLoneSurrogate('😀 光')).toBe(false);
  });

  it.each([
    ['\u0000', 'line'],
    ['\u001B[31m', 'multiline'],
    ['\u007F', 'multiline'],
    ['\u009B', 'multiline'],
    ['\u202E', 'multiline'],
    ['\u2066', 'line'],
    ['\u2069', 'multiline'],
    ['\n', 'line'],
    ['\t', 'line'],
    ['\uD83D', 'multiline'],
  ] as const)('refuses %j in %s text', (ch, kind) => {
    expect(unsafeTextReason(`a${ch}b`, kind)).not.toBeNull();
  });

  it('keeps line breaks and tabs in multi-line text, and normalises \\r\\n', () => {
    const bio = safeText({ kind: 'multiline', max: 20, label: 'validation.label.bio' });
    expect(bio.parse(' 一\r\n二\t三 ')).toBe('一\n二\t三');
    expect(ok(bio, 'x'.repeat(21))).toBe(false);
    expect(zh(bio.safeParse('a\u202Eb').error?.issues[0]?.message)).toBe('个人简介不能包含改变文字方向的控制字符');
    expect(en(bio.safeParse('a\u202Eb').error?.issues[0]?.message)).toMatch(/^Bio /);
  });

  it('normalises names to NFKC before checking them', () => {
    expect(nameField.parse(' Ｈｉｋａｒｉ ')).toBe('Hikari');
    expect(ok(nameField, 'hi\u200Bkari')).toBe(false);
    expect(ok(nameField, 'ab\u0000')).toBe(false);
    expect(ok(profileUpdateSchema, { signature: 'a\nb' })).toBe(false);
    expect(ok(profileUpdateSchema, { bio: 'a\nb' })).toBe(true);
  });

  it('reads ids and query numbers only in plain decimal', () => {
    const id = decimalId();
    expect(id.parse('42')).toBe(42);
    for (const bad of ['042', '0x2A', '4.2e1', ' 42', '+42', '42 ', '٤٢', '0', '9'.repeat(16)]) {
      expect(ok(id, bad)).toBe(false);
    }
    const page = queryInt({ min: 1, max: 100, label: 'validation.label.page' });
    expect(page.parse('7')).toBe(7);
    expect(page.parse(7)).toBe(7);
    for (const bad of ['0x7', '7.0', '1e1', ' 7', '101', '', true]) expect(ok(page, bad)).toBe(false);
    const blur = queryDecimal({ min: 0.3, max: 100, label: 'validation.label.blur' });
    expect(blur.parse('0.5')).toBe(0.5);
    for (const bad of ['.5', '5.', '1e1', '-1', 'NaN', 'Infinity']) expect(ok(blur, bad)).toBe(false);
  });

  it('takes only JSON numbers in bodies', () => {
    const score = bodyInt({ min: 1, max: 10, label: 'validation.label.score' });
    expect(score.parse(5)).toBe(5);
    for (const bad of [true, [5], '5', '0x0A', '1e3', ' 5', 5.5, 11, null]) expect(ok(score, bad)).toBe(false);
    const itemId = bodyId('validation.label.favoriteTarget');
    expect(zh(itemId.safeParse(undefined).error?.issues[0]?.message)).toBe('缺少收藏对象');
    expect(zh(itemId.safeParse('3').error?.issues[0]?.message)).toBe('收藏对象无效：应为正整数');
  });
});
