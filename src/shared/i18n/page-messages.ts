import {
  createTranslator,
  PAGE_MESSAGES_ELEMENT_ID,
  type Locale,
  type PageMessages,
  type PartialCatalogue,
  type Translate,
} from './index.ts';

/**
 * Where islands and browser scripts find their messages. On the server, the whole catalogue (given
 * by `catalogues.ts` when the server loads it); in the browser, the messages the page carries in its
 * `#hikari-messages` element, which hold only the page's language. This module imports no catalogue,
 * so no catalogue reaches a client bundle through it.
 */
let serverSource: ((locale: Locale) => Translate) | null = null;

/** Called once by `catalogues.ts`: the server renders islands with the whole catalogue. */
export function provideCatalogues(source: (locale: Locale) => Translate): void {
  serverSource = source;
}

// Messages met so far per locale: a client-side navigation brings the next page's areas, and islands
// kept across navigations still need the previous ones.
const seen = new Map<Locale, Record<string, unknown>>();
const translators = new Map<Locale, Translate>();
let lastElement: Element | null = null;

function absorbPageMessages(doc: Document): void {
  const element = doc.getElementById(PAGE_MESSAGES_ELEMENT_ID);
  if (!element || element === lastElement) return;
  lastElement = element;
  let page: PageMessages;
  try {
    page = JSON.parse(element.textContent || 'null') as PageMessages;
  } catch {
    return;
  }
  if (!page?.messages) return;
  const known = seen.get(page.locale) ?? {};
  seen.set(page.locale, Object.assign(known, page.messages));
  translators.set(page.locale, createTranslator(page.locale, known as PartialCatalogue));
}

/**
 * Adds messages an island brought with its code (an area the page did not carry, such as the chat
 * window the user card opens on any page); islands rendered afterwards find them.
 */
export function addPageMessages(locale: Locale, messages: Record<string, unknown>): void {
  if (serverSource) return;
  if (typeof document !== 'undefined') absorbPageMessages(document);
  const known = seen.get(locale) ?? {};
  seen.set(locale, Object.assign(known, messages));
  translators.set(locale, createTranslator(locale, known as PartialCatalogue));
}

/** The message lookup of `locale` for an island or a browser script. */
export function pageTranslator(locale: Locale): Translate {
  if (serverSource) return serverSource(locale);
  if (typeof document === 'undefined') {
    throw new Error('No messages loaded: import src/shared/i18n/catalogues.ts on the server before rendering.');
  }
  absorbPageMessages(document);
  let t = translators.get(locale);
  if (!t) {
    t = createTranslator(locale, {});
    translators.set(locale, t);
  }
  return t;
}
