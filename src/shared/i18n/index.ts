import { en } from './en.ts';
import type { Catalogue, Message, PluralMessage } from './message.ts';
import { zhCN, type MessageKey } from './zh-CN.ts';

export type { Catalogue, Message, MessageKey, PluralMessage };
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const LOCALE_COOKIE = 'hikari_locale';

// One module per locale, so a page can later load only its own language (see `createTranslator`).
const catalogues: Record<Locale, Catalogue> = { 'zh-CN': zhCN, en };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Locale order of precedence: the user's setting, then the cookie, then zh-CN. */
export function resolveLocale(userSetting: string | null | undefined, cookie: string | null | undefined): Locale {
  if (isLocale(userSetting)) return userSetting;
  if (isLocale(cookie)) return cookie;
  return DEFAULT_LOCALE;
}

/**
 * The folder of dist/client holding the prerendered pages of a locale other than the default
 * ("_en"): the server answers a canonical address from there when the visitor reads that language.
 * The default locale has no folder.
 */
export function prerenderedLocaleDir(locale: Locale): string | null {
  return locale === DEFAULT_LOCALE ? null : `_${locale}`;
}

/** The folders of every locale with prerendered variants ("_en"), for getStaticPaths. */
export function prerenderedLocaleDirs(): string[] {
  return LOCALES.flatMap((locale) => prerenderedLocaleDir(locale) ?? []);
}

/** The locale whose prerendered folder starts `pathname` ("/_en/docs" → en), or null. */
export function localeOfPrerenderedPath(pathname: string): Locale | null {
  for (const locale of LOCALES) {
    const dir = prerenderedLocaleDir(locale);
    if (dir && (pathname === `/${dir}` || pathname.startsWith(`/${dir}/`))) return locale;
  }
  return null;
}

/** The address people see for a prerendered page: "/_en/docs/guide" → "/docs/guide". */
export function canonicalPathname(pathname: string): string {
  const locale = localeOfPrerenderedPath(pathname);
  if (!locale) return pathname;
  return pathname.slice(`/${prerenderedLocaleDir(locale)}`.length) || '/';
}

export type Params = Record<string, string | number>;

/** Fills `{name}` slots; unknown slots stay as written so a missing parameter is visible, not blank. */
export function format(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The form of a plural message for `count` under the locale's plural rules; `other` when none fits. */
export function pluralForm(message: PluralMessage, rules: Intl.PluralRules, count: number): string {
  if (count === 0 && message.zero !== undefined) return message.zero;
  return message[rules.select(count)] ?? message.other;
}

export type Translate = (key: MessageKey, params?: Params) => string;

/**
 * The message lookup of one locale over its catalogue. Plural messages pick their form by the
 * `count` parameter; numbers are written the locale's way (grouping from five digits, so years stay
 * "2026").
 */
export function createTranslator(locale: Locale, catalogue: Catalogue): Translate {
  const rules = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale, { useGrouping: 'min2', maximumFractionDigits: 2 });
  return (key, params) => {
    const message: Message = catalogue[key];
    const template =
      typeof message === 'string' ? message : pluralForm(message, rules, Number(params?.count ?? Number.NaN));
    if (!params) return template;
    const shown: Params = {};
    for (const [name, value] of Object.entries(params))
      shown[name] = typeof value === 'number' ? numbers.format(value) : value;
    return format(template, shown);
  };
}

const translators = new Map<Locale, Translate>();

/** The message lookup of a locale (cached: pages call this once per component). */
export function translator(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) {
    t = createTranslator(locale, catalogues[locale]);
    translators.set(locale, t);
  }
  return t;
}

/** Numbers written the locale's way ("12,345" / "12,345"), for counts shown outside a message. */
export function formatNumber(locale: Locale, value: number): string {
  return new Intl.NumberFormat(locale).format(value);
}
