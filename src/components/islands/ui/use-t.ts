import { useStore } from '@nanostores/react';
import { useMemo } from 'react';
import { translator, type Translate } from '../../../shared/i18n/index.ts';
import { $locale } from '../../../stores/locale.ts';

/** The message lookup for the page's locale, for use inside islands. */
export function useT(): Translate {
  const locale = useStore($locale);
  return useMemo(() => translator(locale), [locale]);
}
