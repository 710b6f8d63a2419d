import { createContext, type ComponentType } from 'react';
import { DEFAULT_LOCALE, type Locale } from '../../../shared/i18n/index.ts';

/**
 * The page's locale inside an island. Each island is its own React root, so each receives the locale
 * as a prop from the server (`locale={Astro.locals.locale}`) and provides it here: the server render
 * and the hydration in the browser then read the same value.
 */
export const LocaleContext = createContext<Locale>(DEFAULT_LOCALE);

export interface LocaleProps {
  /** The request's locale, as the server resolved it (Astro.locals.locale). */
  locale: Locale;
}

/** Wraps an island's root so it renders in the locale given by the server. */
export function withLocale<P extends object>(Island: ComponentType<P>): ComponentType<P & LocaleProps> {
  function Localized({ locale, ...props }: P & LocaleProps) {
    return (
      <LocaleContext.Provider value={locale}>
        <Island {...(props as P)} />
      </LocaleContext.Provider>
    );
  }
  Localized.displayName = `WithLocale(${Island.displayName ?? Island.name ?? 'Island'})`;
  return Localized;
}
