import { en } from './en/index.ts';
import { createTranslator, type Locale, type Translate } from './index.ts';
import type { Catalogue, Message, PartialCatalogue } from './message.ts';
import { provideCatalogues } from './page-messages.ts';
import { zhCN, type Area } from './zh-CN/index.ts';

/**
 * Every message of every locale. Only the server (API, pages, islands rendered on the server) imports
 * this module; the browser gets the messages of its page's language from the page (`messagesFor`).
 */
const byArea = { 'zh-CN': zhCN, en } as const satisfies Record<Locale, Record<Area, unknown>>;

export const AREAS = Object.keys(zhCN) as Area[];

/**
 * The areas every page sends to its islands and scripts: the header, toasts, dialogs, the image preview,
 * the user card (any page may show a member's name) and the API client's messages. A page adds the areas of its own islands (`messageAreas`: the forms,
 * the game pages' islands, docs search); texts only the server renders stay on the server.
 */
export const PAGE_AREAS: readonly Area[] = ['common', 'header', 'userCard'];

const flat = new Map<Locale, Catalogue>();

/** The whole catalogue of a locale, all areas in one lookup. */
export function catalogueOf(locale: Locale): Catalogue {
  let catalogue = flat.get(locale);
  if (!catalogue) {
    catalogue = Object.assign({}, ...AREAS.map((area) => byArea[locale][area])) as Catalogue;
    flat.set(locale, catalogue);
  }
  return catalogue;
}

/** The messages of some areas of a locale, as a page sends them to the browser. */
export function messagesFor(locale: Locale, areas: Iterable<Area>): PartialCatalogue {
  const messages: Record<string, Message> = {};
  for (const area of new Set(areas)) Object.assign(messages, byArea[locale][area]);
  return messages;
}

const translators = new Map<Locale, Translate>();

/** The message lookup of a locale over its whole catalogue (cached). */
export function translator(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) {
    t = createTranslator(locale, catalogueOf(locale));
    translators.set(locale, t);
  }
  return t;
}

// Islands rendered on the server look their messages up here; in the browser, in the page's messages.
provideCatalogues(translator);
