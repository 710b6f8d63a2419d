import { useContext, useMemo } from 'react';
import { translator, type Locale, type Translate } from '../../../shared/i18n/index.ts';
import { LocaleContext } from './locale-context.tsx';

/** The page's locale inside an island (given by the server through `withLocale`). */
export function useLocale(): Locale {
  return useContext(LocaleContext);
}

/** The message lookup for the page's locale, for use inside islands. */
export function useT(): Translate {
  const locale = useLocale();
  return useMemo(() => translator(locale), [locale]);
}
