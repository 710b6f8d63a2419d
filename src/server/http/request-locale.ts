import type { Context } from 'hono';
import { translator } from '../../shared/i18n/catalogues.ts';
import { requestLocale, translateRef, type Locale, type Translate } from '../../shared/i18n/index.ts';

/** The language of an API request: the same rule as the pages (`requestLocale`: cookie, else zh-CN). */
export function apiLocale(c: Context): Locale {
  return requestLocale(c.req.header('cookie'));
}

/** The message lookup in the request's language. */
export function apiTranslator(c: Context): Translate {
  return translator(apiLocale(c));
}

/** A message reference (or a text already written) in the request's language. */
export function apiText(c: Context, text: string): string {
  return translateRef(apiTranslator(c), text);
}
