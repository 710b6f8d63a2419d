import { numberFormat } from './intl.ts';
import type { Catalogue, Message, PartialCatalogue, PluralMessage } from './message.ts';
import type { Area, MessageKey } from './zh-CN/index.ts';

export type { Area, Catalogue, Message, MessageKey, PartialCatalogue, PluralMessage };
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const LOCALE_COOKIE = 'hikari_locale';
/** The id of the JSON element that carries a page's messages to its islands and scripts. */
export const PAGE_MESSAGES_ELEMENT_ID = 'hikari-messages';

/** What a page sends to the browser: its locale and the messages of the areas its islands use. */
export interface PageMessages {
  locale: Locale;
  messages: PartialCatalogue;
}

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
 * The locale of a request, for pages and the API alike: the `hikari_locale` cookie, else zh-CN.
 * (The account's own setting is applied in the browser, which writes the cookie; the language of the
 * browser is not used, so a page and the API calls it makes always speak the same language.)
 */
export function requestLocale(cookieHeader: string | null | undefined): Locale {
  return resolveLocale(null, cookieValue(cookieHeader ?? '', LOCALE_COOKIE));
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
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

/** A template split at its slots: text at even indexes, slot names at odd ones. */
const compiled = new Map<string, string[]>();
const SLOT = /\{(\w+)\}/;

function partsOf(template: string): string[] {
  let parts = compiled.get(template);
  if (parts === undefined) {
    parts = template.split(SLOT);
    // Messages come from the catalogues, so this stays small; a flood of ad-hoc templates only resets it.
    if (compiled.size >= 5000) compiled.clear();
    compiled.set(template, parts);
  }
  return parts;
}

/**
 * Fills `{name}` slots; unknown slots stay as written so a missing parameter is visible, not blank.
 * `show` writes a value (the translator writes numbers the locale's way).
 */
export function format(template: string, params?: Params, show: (value: string | number) => string = String): string {
  if (!params) return template;
  const parts = partsOf(template);
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    out += (Object.hasOwn(params, name) ? show(params[name]!) : `{${name}}`) + (parts[i + 1] ?? '');
  }
  return out;
}

/** The form of a plural message for `count` under the locale's plural rules; `other` when none fits. */
export function pluralForm(message: PluralMessage, rules: Intl.PluralRules, count: number): string {
  if (count === 0 && message.zero !== undefined) return message.zero;
  return message[rules.select(count)] ?? message.other;
}

export type Translate = (key: MessageKey, params?: Params) => string;

/**
 * The message lookup of one locale over its catalogue (or the part of it a page carries). Plural
 * messages pick their form by the `count` parameter; numbers are written the locale's way (grouping
 * from five digits, so years stay "2026"). A key the catalogue lacks comes back as the key itself.
 */
export function createTranslator(locale: Locale, catalogue: Catalogue | PartialCatalogue): Translate {
  const rules = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale, { useGrouping: 'min2', maximumFractionDigits: 2 });
  // Whole numbers under 10 000 have no grouping: in the site's locales (Latin digits) they read as written.
  const show = (value: string | number) =>
    typeof value !== 'number'
      ? value
      : Number.isInteger(value) && Math.abs(value) < 10_000
        ? String(value)
        : numbers.format(value);
  return (key, params) => {
    const message: Message | undefined = catalogue[key];
    if (message === undefined) return key;
    const template =
      typeof message === 'string' ? message : pluralForm(message, rules, Number(params?.count ?? Number.NaN));
    return params ? format(template, params, show) : template;
  };
}

/**
 * A message named by its key and parameters, as one string ("validation.text.tooLong?label=…&max=20"),
 * so it can travel where only a string fits: zod issue messages, `HttpError` messages. Whoever shows it
 * translates it in the reader's language with `translateRef`. A `label` parameter is itself a key.
 */
export type MessageRef = MessageKey | (string & { readonly messageRef: true });

export function messageRef(key: MessageKey, params?: Record<string, string | number>): MessageRef {
  if (!params) return key;
  const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]));
  return `${key}?${query.toString()}` as MessageRef;
}

const REF = /^([a-zA-Z][\w-]*(?:\.[\w-]+)+)(?:\?(.*))?$/s;

/**
 * The text of a message reference in the translator's language. Text that is not a reference (a
 * sentence the server already translated, a library's own message) is returned as it is.
 */
export function translateRef(t: Translate, text: string): string {
  const match = REF.exec(text);
  if (!match) return text;
  const key = match[1] as MessageKey;
  const params: Params = {};
  for (const [name, value] of new URLSearchParams(match[2] ?? '')) params[name] = value;
  if (typeof params.label === 'string') params.label = t(params.label as MessageKey);
  const shown = t(key, match[2] === undefined ? undefined : params);
  return shown === key ? text : shown;
}

/** Numbers written the locale's way ("12,345" / "12,345"), for counts shown outside a message. */
export function formatNumber(locale: Locale, value: number): string {
  return numberFormat(locale).format(value);
}
