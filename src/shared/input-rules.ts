import { z } from 'zod';

/**
 * Input rules shared by the forms and the API: text that cannot hide what it says, and numbers and
 * ids written only one way. Every schema that takes a name, a text, an id or a number from outside
 * is built from these.
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
 * Why a text is refused, or null when it is fine: control characters (multi-line text may keep line
 * breaks and tabs; \r is dropped by normaliseLineBreaks first), bidi overrides and isolates, and lone
 * surrogates.
 */
export function unsafeTextReason(value: string, kind: TextKind): string | null {
  if (hasLoneSurrogate(value)) return '包含无效的字符编码';
  if (CONTROL.test(value) || (kind === 'line' && /[\t\n\r]/.test(value))) {
    return kind === 'line' ? '不能包含换行、制表符或其他控制字符' : '不能包含控制字符';
  }
  if (BIDI.test(value)) return '不能包含改变文字方向的控制字符';
  return null;
}

/** Windows and old Mac line breaks become \n, so multi-line text keeps one kind of break. */
const normaliseLineBreaks = (value: string) => value.replace(/\r\n?/g, '\n');

/**
 * A text field: trimmed (unless `trim: false`), multi-line breaks normalised to \n, and refused with a
 * clear message when too long or when it holds control characters, bidi controls or lone surrogates.
 * `label` names the field in messages ("短评").
 */
export function safeText(options: { kind?: TextKind; max: number; label: string; trim?: boolean; min?: number }) {
  const kind = options.kind ?? 'line';
  return z.string({ error: `${options.label}必须是文字` }).transform((raw, ctx) => {
    const broken = kind === 'multiline' ? normaliseLineBreaks(raw) : raw;
    const value = options.trim === false ? broken : broken.trim();
    const reason = unsafeTextReason(value, kind);
    if (reason) {
      ctx.addIssue({ code: 'custom', message: `${options.label}${reason}`, input: raw });
      return z.NEVER;
    }
    if (value.length > options.max) {
      ctx.addIssue({ code: 'custom', message: `${options.label}最多 ${options.max} 个字符`, input: raw });
      return z.NEVER;
    }
    if (options.min !== undefined && value.length < options.min) {
      ctx.addIssue({
        code: 'custom',
        message: value.length === 0 ? `请输入${options.label}` : `${options.label}至少 ${options.min} 个字符`,
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

/** A positive integer id from a path or query string: decimal digits only, within the safe integers. */
export function decimalId(label = 'id') {
  return z
    .string({ error: `${label} 无效` })
    .regex(DECIMAL_ID, { error: `${label} 必须是正整数（只用数字 0–9）` })
    .transform(Number);
}

/**
 * A whole number from a query string: decimal digits only (no sign, spaces, exponent or hex), within
 * [min, max]. Code that builds a query object may pass a number directly.
 */
export function queryInt(options: { min: number; max: number; label: string }) {
  const message = `${options.label}必须是 ${options.min}–${options.max} 的整数`;
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
export function queryDecimal(options: { min: number; max: number; label: string }) {
  const message = `${options.label}必须是 ${options.min}–${options.max} 的数字`;
  return z
    .string({ error: message })
    .regex(/^\d{1,6}(\.\d{1,6})?$/, { error: message })
    .transform(Number)
    .pipe(z.number().min(options.min, { error: message }).max(options.max, { error: message }));
}

/** A whole number in a JSON body: a real JSON number (not a string, boolean or array), an integer in range. */
export function bodyInt(options: { min: number; max: number; label: string; required?: string }) {
  const range = `${options.label}必须是 ${options.min}–${options.max} 的整数`;
  return z
    .number({ error: (issue) => (issue.input === undefined ? (options.required ?? `请填写${options.label}`) : range) })
    .int({ error: range })
    .min(options.min, { error: range })
    .max(options.max, { error: range });
}

/** A positive integer id in a JSON body: a real JSON number, not "12", true or [12]. */
export function bodyId(label: string) {
  const message = `${label}无效：应为正整数`;
  return z
    .number({ error: (issue) => (issue.input === undefined ? `缺少${label}` : message) })
    .int({ error: message })
    .min(1, { error: message })
    .max(Number.MAX_SAFE_INTEGER, { error: message });
}
