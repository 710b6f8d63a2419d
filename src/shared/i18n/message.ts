import type { MessageKey } from './zh-CN.ts';

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

/** Every message of one locale, keyed like the zh-CN reference catalogue. */
export type Catalogue = Readonly<Record<MessageKey, Message>>;
