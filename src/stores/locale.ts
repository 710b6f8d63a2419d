import { atom } from 'nanostores';
import { DEFAULT_LOCALE, isLocale, translator, type Locale, type Translate } from '../shared/i18n/index.ts';

function documentLocale(): Locale {
  if (typeof document === 'undefined') return DEFAULT_LOCALE;
  const lang = document.documentElement.lang;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/** The page's locale, read from <html lang> (set by the server from setting, cookie or default). */
export const $locale = atom<Locale>(documentLocale());

export function t(...args: Parameters<Translate>): string {
  return translator($locale.get())(...args);
}
