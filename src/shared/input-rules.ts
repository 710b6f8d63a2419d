import { z } from 'zod';
import { messageRef, type MessageKey } from './i18n/index.ts';
import { showsNothing } from './visible-text.ts';

/**
 * Input rules shared by the forms and the API: text that cannot hide what it says, and numbers and
 * ids written only one way. Every schema that takes a name, a text, an id or a number from outside
 * is built from these. Their messages are message references (`messageRef`), which the forms and the
 * API translate into the reader's language; `label` is the key of the field's name.
 */

/** What a text is for: one-line fields (names, titles, reasons) or multi-line ones (bio, reviews). */
export type TextKind = 'line' | 'multiline';

/** C0 and C1 control characters and DEL; \t and \n are checked separately (allowed in multi-line text). */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
/** Bidi embeddings, overrides and isolates, which can show a text in another order than it is stored. */
const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;

/** A high surrogate not followed by a low one, or a low one without a high one before it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Does the string contain a UTF-16 surrogate without its partner (not valid Unicode text)? */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/**
 * Why a text is refused (the key of the message, with a `{label}` slot), or null when it is fine:
 * control characters (multi-line text may keep line breaks and tabs; \r is dropped by
 * normaliseLineBreaks first), bidi overrides and isolates, and lone surrogates.
 */
export function unsafeTextReason(value: string, kind: TextKind): MessageKey | null {
  if (hasLoneSurrogate(value)) return 'validation.text.loneSurrogate';
  if (CONTROL.test(value) || (kind === 'line' && /[\t\n\r]/.test(value))) {
    return kind === 'line' ? 'validation.text.lineControl' : 'validation.text.control';
  }
  if (BIDI.test(value)) return 'validation.text.bidi';
  return null;
}

/** Windows and old Mac line breaks become \n, so multi-line text keeps one kind of break. */
const normaliseLineBreaks = (value: string) => value.replace(/\r\n?/g, '\n');

/**
 * A text field: trimmed (unless `trim: false`), multi-line breaks normalised to \n, and refused with a
 * clear message when too long, when it holds control characters, bidi controls or lone surrogates, or
 * when it is not empty but shows nothing (visible-text.ts; `invisible: 'keep'` lets such text through,
 * for text a book or another program wrote). `label` names the field in messages
 * ('validation.label.ratingText').
 */
export function safeText(options: {
  kind?: TextKind;
  max: number;
  label: MessageKey;
  trim?: boolean;
  min?: number;
  invisible?: 'refuse' | 'keep';
}) {
  const kind = options.kind ?? 'line';
  const { label } = options;
  return z.string({ error: messageRef('validation.text.notText', { label }) }).transform((raw, ctx) => {
    const broken = kind === 'multiline' ? normaliseLineBreaks(raw) : raw;
    const value = options.trim === false ? broken : broken.trim();
    const reason = unsafeTextReason(value, kind);
    if (reason) {
      ctx.addIssue({ code: 'custom', message: messageRef(reason, { label }), input: raw });
      return z.NEVER;
    }
    if (options.invisible !== 'keep' && value !== '' && showsNothing(value)) {
      ctx.addIssue({ code: 'custom', message: messageRef('validation.text.invisible', { label }), input: raw });
      return z.NEVER;
    }
    if (value.length > options.max) {
      ctx.addIssue({
        code: 'custom',
        message: messageRef('validation.text.tooLong', { label, max: options.max }),
        input: raw,
      });
      return z.NEVER;
    }
    if (options.min !== undefined && value.length < options.min) {
      ctx.addIssue({
        code: 'custom',
        message:
          value.length === 0
            ? messageRef('validation.text.required', { label })
            : messageRef('validation.text.tooShort', { label, min: options.min }),
        input: raw,
      });
      return z.NEVER;
    }
    return value;
  });
}

/** Unicode NFKC: full-width letters and compatibility forms become their plain forms ("Ｈｉ" → "Hi"). */
export const normaliseName = (name: string) => name.normalize('NFKC');

/** Ids in paths and queries: a positive decimal integer written plainly ("12", not "012", "+12", "0x0C"). */
export const DECIMAL_ID = /^[1-9]\d{0,14}$/;
/** The 24-hex-digit `_id` of users. */
export const OBJECT_ID = /^[0-9a-f]{24}$/;

/**
 * The largest id a row can have: ids are `integer` columns, 32-bit on PostgreSQL, so a larger one names
 * nothing there and would fail the query instead of answering. Both databases refuse it alike, before
 * any query.
 */
export const ROW_ID_MAX = 2_147_483_647;

/** Is `value` a decimal id (as DECIMAL_ID writes it) that a row can have? */
export const isRowId = (value: string): boolean => DECIMAL_ID.test(value) && Number(value) <= ROW_ID_MAX;

/** A positive integer id from a path or query string: decimal digits only, at most ROW_ID_MAX. */
export function decimalId(label: MessageKey = 'validation.label.id') {
  return z
    .string({ error: messageRef('validation.id.invalid', { label }) })
    .regex(DECIMAL_ID, { error: messageRef('validation.id.digits', { label }) })
    .transform(Number)
    .refine((id) => id <= ROW_ID_MAX, {
      error: messageRef('validation.int.range', { min: 1, max: ROW_ID_MAX, label }),
    });
}

/**
 * A whole number from a query string: decimal digits only (no sign, spaces, exponent or hex), within
 * [min, max]. Code that builds a query object may pass a number directly.
 */
export function queryInt(options: { min: number; max: number; label: MessageKey }) {
  const message = messageRef('validation.int.range', options);
  return z.union([
    z
      .string({ error: message })
      .regex(/^\d{1,15}$/, { error: message })
      .transform(Number)
      .pipe(z.number().min(options.min, { error: message }).max(options.max, { error: message })),
    z.number({ error: message }).int({ error: message }).min(options.min, { error: message }).max(options.max, {
      error: message,
    }),
  ]);
}

/** A decimal number from a query string ("1", "0.5"): digits with at most one point, no sign or exponent. */
export function queryDecimal(options: { min: number; max: number; label: MessageKey }) {
  const message = messageRef('validation.decimal.range', options);
  return z
    .string({ error: message })
    .regex(/^\d{1,6}(\.\d{1,6})?$/, { error: message })
    .transform(Number)
    .pipe(z.number().min(options.min, { error: message }).max(options.max, { error: message }));
}

/** A whole number in a JSON body: a real JSON number (not a string, boolean or array), an integer in range. */
export function bodyInt(options: { min: number; max: number; label: MessageKey; required?: MessageKey }) {
  const { min, max, label } = options;
  const range: string = messageRef('validation.int.range', { min, max, label });
  const required: string = options.required ?? messageRef('validation.number.required', { label });
  return z
    .number({ error: (issue) => (issue.input === undefined ? required : range) })
    .int({ error: range })
    .min(options.min, { error: range })
    .max(options.max, { error: range });
}

/** A positive integer id in a JSON body: a real JSON number, not "12", true or [12]. */
export function bodyId(label: MessageKey) {
  const message: string = messageRef('validation.bodyId.invalid', { label });
  const missing: string = messageRef('validation.bodyId.missing', { label });
  return z
    .number({ error: (issue) => (issue.input === undefined ? missing : message) })
    .int({ error: message })
    .min(1, { error: message })
    .max(ROW_ID_MAX, { error: message });
}
