import { describe, expect, it } from 'vitest';
import { catalogueOf, messagesFor, translator } from './catalogues.ts';
import { en as enAreas } from './en/index.ts';
import { zhCN as zhAreas } from './zh-CN/index.ts';
import type { Message } from './message.ts';
import {
  canonicalPathname,
  createTranslator,
  format,
  localeOfPrerenderedPath,
  pluralForm,
  prerenderedLocaleDir,
  requestLocale,
  resolveLocale,
} from './index.ts';

const en = catalogueOf('en');
const zhCN = catalogueOf('zh-CN');

const slots = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const forms = (message: Message) => (typeof message === 'string' ? [message] : Object.values(message));
// Counts written as a bare figure or a fraction, where no noun needs a plural form.
const BARE_COUNTS = new Set(['galgame.tagCount', 'galgame.rating.chars', 'user.notificationsUnread', 'uploader.count']);

describe('message catalogue', () => {
  it('has the same areas, keys and {slots} in every form of zh-CN and en', () => {
    expect(Object.keys(enAreas).sort()).toEqual(Object.keys(zhAreas).sort());
    for (const area of Object.keys(zhAreas) as (keyof typeof zhAreas)[]) {
      expect(Object.keys(enAreas[area]).sort(), area).toEqual(Object.keys(zhAreas[area]).sort());
    }
    for (const key of Object.keys(zhCN) as (keyof typeof zhCN)[]) {
      for (const form of forms(en[key])) expect(slots(form), key).toEqual(slots(forms(zhCN[key])[0] ?? ''));
    }
  });

  it('keeps each key in one area only, named after it', () => {
    const seen = new Set<string>();
    for (const messages of Object.values(zhAreas)) {
      for (const key of Object.keys(messages)) {
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
    expect(seen.size).toBe(Object.keys(zhCN).length);
  });

  it('gives a page only the areas asked for, in one language', () => {
    const messages = messagesFor('en', ['header']);
    expect(messages['dialog.title']).toBeUndefined();
    expect(messages['nav.skipToContent']).toBe('Skip to content');
    expect(Object.keys(messages).sort()).toEqual(Object.keys(enAreas.header).sort());
  });

  it('has no Chinese character in any English message', () => {
    const han = /\p{Script=Han}/u;
    for (const [key, message] of Object.entries(en)) {
      for (const form of forms(message)) expect(han.test(form), `${key}: ${form}`).toBe(false);
    }
  });

  it('gives every English count a singular and a plural form', () => {
    for (const [key, message] of Object.entries(en) as [string, Message][]) {
      if (!forms(message).some((form) => form.includes('{count}')) || BARE_COUNTS.has(key)) continue;
      expect(typeof message, key).toBe('object');
      if (typeof message === 'object') {
        expect(message.one, key).toBeTruthy();
        expect(message.other, key).not.toBe(message.one);
      }
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
    expect(requestLocale('a=1; hikari_locale=en')).toBe('en');
    expect(requestLocale('hikari_locale=fr')).toBe('zh-CN');
    expect(requestLocale(undefined)).toBe('zh-CN');
  });

  it('fills slots and leaves unknown ones visible', () => {
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(format('{a}{a}-{b}!', { a: 'x', b: 0 })).toBe('xx-0!');
    expect(format('{toString} {}', { a: 1 })).toBe('{toString} {}');
    expect(format('no slots', { a: 1 })).toBe('no slots');
    expect(translator('en')('error.pageNotFound', { path: '/nope' })).toBe('Page not found: /nope');
  });
});

describe('plural rules', () => {
  const t = translator('en');
  const zh = translator('zh-CN');

  it('picks the English singular for exactly one and the plural otherwise', () => {
    expect(t('galgame.ratingCount', { count: 1 })).toBe('1 rating');
    expect(t('galgame.ratingCount', { count: 0 })).toBe('0 ratings');
    expect(t('galgame.ratingCount', { count: 2 })).toBe('2 ratings');
    expect(t('galgame.list.total', { count: 1 })).toBe('1 game');
    expect(t('galgame.list.total', { count: 21 })).toBe('21 games');
    expect(t('galgame.favorite.count', { count: 1 })).toBe('1 favourite');
    expect(t('galgame.ratingLabel', { score: '8.0', count: 1 })).toBe('Rated 8.0 by 1 person');
    expect(t('galgame.ratingLabel', { score: '8.0', count: 3 })).toBe('Rated 8.0 by 3 people');
  });

  it('writes zh-CN with its one form for every count', () => {
    expect(zh('galgame.ratingCount', { count: 1 })).toBe('1 人评分');
    expect(zh('galgame.ratingCount', { count: 2 })).toBe('2 人评分');
  });

  it('follows the rules of the locale, with zero as an optional override', () => {
    const message = {
      zero: 'none',
      one: 'one {count}',
      few: 'few {count}',
      many: 'many {count}',
      other: 'other {count}',
    };
    const polish = new Intl.PluralRules('pl');
    expect(pluralForm(message, polish, 0)).toBe('none');
    expect(pluralForm(message, polish, 1)).toBe('one {count}');
    expect(pluralForm(message, polish, 3)).toBe('few {count}');
    expect(pluralForm(message, polish, 5)).toBe('many {count}');
    expect(pluralForm({ other: 'x' }, polish, 1)).toBe('x');
  });

  it('uses the other form when no count is given', () => {
    const custom = createTranslator('en', { ...en, 'galgame.ratingCount': { one: 'one', other: 'many' } });
    expect(custom('galgame.ratingCount')).toBe('many');
    expect(custom('galgame.ratingCount', {})).toBe('many');
  });
});

describe('numbers in messages', () => {
  it('groups large numbers the locale way and leaves years alone', () => {
    expect(translator('en')('galgame.ratingCount', { count: 12345 })).toBe('12,345 ratings');
    expect(translator('zh-CN')('galgame.ratingCount', { count: 12345 })).toBe('12,345 人评分');
    expect(translator('en')('footer.copyright', { year: 2026 })).toContain('2026');
    expect(translator('en')('galgame.ratingCount', { count: -10_000 })).toBe('-10,000 ratings');
    expect(translator('en')('galgame.ratingCount', { count: 9999 })).toBe('9999 ratings');
    expect(translator('en')('galgame.ratingCount', { count: 2.456 })).toBe('2.46 ratings');
  });

  it('leaves text parameters as they are', () => {
    expect(translator('en')('galgame.rating.points', { score: '7.50' })).toBe('7.50/10');
  });
});

describe('prerendered locale folders', () => {
  it('puts only the other locales in a hidden folder', () => {
    expect(prerenderedLocaleDir('zh-CN')).toBeNull();
    expect(prerenderedLocaleDir('en')).toBe('_en');
  });

  it('maps folder addresses back to the canonical ones', () => {
    expect(localeOfPrerenderedPath('/_en/docs/guide')).toBe('en');
    expect(localeOfPrerenderedPath('/_en')).toBe('en');
    expect(localeOfPrerenderedPath('/_enx/docs')).toBeNull();
    expect(localeOfPrerenderedPath('/docs')).toBeNull();
    expect(canonicalPathname('/_en/docs/guide/')).toBe('/docs/guide/');
    expect(canonicalPathname('/_en')).toBe('/');
    expect(canonicalPathname('/privacy-policy')).toBe('/privacy-policy');
  });
});
