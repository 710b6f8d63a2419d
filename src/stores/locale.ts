import { atom } from 'nanostores';
import { DEFAULT_LOCALE, isLocale, type Locale, type Translate } from '../shared/i18n/index.ts';
import { pageTranslator } from '../shared/i18n/page-messages.ts';

/** The locale of a document: its <html lang>, which the server sets from the user's setting, cookie or default. */
export function documentLocale(doc: Pick<Document, 'documentElement'> | undefined = globalThis.document): Locale {
  const lang = doc?.documentElement.lang;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/**
 * The page's locale for browser-only code: messages made by stores and scripts (toasts, dialogs, API
 * client errors). Islands never read it while rendering: the server has no page, so they take the
 * locale from the server as a prop (`useT()`), which keeps server HTML and hydration identical.
 */
export const $locale = atom<Locale>(documentLocale());

if (typeof document !== 'undefined') {
  // A client-side navigation can land on a page of another language (a prerendered page, a new setting).
  document.addEventListener('astro:after-swap', () => $locale.set(documentLocale()));
}

/** A message in the page's locale (browser-only code; see `$locale`). */
export function t(...args: Parameters<Translate>): string {
  return pageTranslator($locale.get())(...args);
}
