import type { MessageKey } from './zh-CN/index.ts';

/**
 * A catalogue entry: one template, or one template per plural category of `Intl.PluralRules`
 * (`other` is required; `zero` is an optional override for a count of 0). zh-CN needs no plural
 * forms; en writes `one` and `other` wherever a count is shown.
 */
export interface PluralMessage {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}

export type Message = string | PluralMessage;

/** The messages of one area in another locale: exactly the keys of the zh-CN reference area. */
export type AreaMessages<Reference> = Readonly<Record<keyof Reference, Message>>;

/** Every message of one locale, keyed like the zh-CN reference catalogue. */
export type Catalogue = Readonly<Record<MessageKey, Message>>;

/** Some messages of one locale (the areas a page's islands need, sent with the page). */
export type PartialCatalogue = Readonly<Partial<Record<MessageKey, Message>>>;
