import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { zhCN } from './zh-CN.ts';
import { format, resolveLocale, translator } from './index.ts';

const slots = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogue', () => {
  it('has the same keys and the same {slots} in zh-CN and en', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zhCN).sort());
    for (const key of Object.keys(zhCN) as (keyof typeof zhCN)[]) {
      expect(slots(en[key]), key).toEqual(slots(zhCN[key]));
    }
  });

  it('keeps the spec strings verbatim', () => {
    expect(zhCN['dialog.title']).toBe('提示');
    expect(zhCN['dialog.confirm']).toBe('确定');
    expect(zhCN['dialog.cancel']).toBe('取消');
    expect(en['error.heading']).toBe('something went wrong');
    expect(en['error.backPrevious']).toBe('back to previous page');
    expect(en['error.backHome']).toBe('back to home');
    expect(en['error.backReading']).toBe('back to reading page');
    expect(zhCN['link.copied']).toBe('已复制: {text}');
  });

  it('resolves the locale from setting, then cookie, then zh-CN', () => {
    expect(resolveLocale('en', 'zh-CN')).toBe('en');
    expect(resolveLocale(null, 'en')).toBe('en');
    expect(resolveLocale('fr', 'de')).toBe('zh-CN');
  });

  it('fills slots and leaves unknown ones visible', () => {
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(translator('en')('error.pageNotFound', { path: '/nope' })).toBe('Page not found: /nope');
  });
});
