import { en } from './en.ts';
import { zhCN, type MessageKey } from './zh-CN.ts';

export type { MessageKey };
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const LOCALE_COOKIE = 'hikari_locale';

const catalogues: Record<Locale, Record<MessageKey, string>> = { 'zh-CN': zhCN, en };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Locale order of precedence: the user's setting, then the cookie, then zh-CN. */
export function resolveLocale(userSetting: string | null | undefined, cookie: string | null | undefined): Locale {
  if (isLocale(userSetting)) return userSetting;
  if (isLocale(cookie)) return cookie;
  return DEFAULT_LOCALE;
}

export type Params = Record<string, string | number>;

/** Fills `{name}` slots; unknown slots stay as written so a missing parameter is visible, not blank. */
export function format(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export type Translate = (key: MessageKey, params?: Params) => string;

export function translator(locale: Locale): Translate {
  const catalogue = catalogues[locale];
  return (key, params) => format(catalogue[key], params);
}
