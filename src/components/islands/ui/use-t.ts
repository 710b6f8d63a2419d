import { useContext, useMemo } from 'react';
import type { Locale, Translate } from '../../../shared/i18n/index.ts';
import { pageTranslator } from '../../../shared/i18n/page-messages.ts';
import { LocaleContext } from './locale-context.tsx';

/** The page's locale inside an island (given by the server through `withLocale`). */
export function useLocale(): Locale {
  return useContext(LocaleContext);
}

/**
 * The message lookup for the page's locale, for use inside islands: the whole catalogue on the server,
 * the messages the page carries in the browser (`page-messages.ts`).
 */
export function useT(): Translate {
  const locale = useLocale();
  return useMemo(() => pageTranslator(locale), [locale]);
}
