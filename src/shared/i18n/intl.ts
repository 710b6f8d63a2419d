/**
 * Shared `Intl` formatters. Building one costs far more than formatting with it (it loads locale data),
 * and pages format dozens of dates and numbers, so each locale-and-options pair is built once per
 * process and kept. The options objects callers pass are small literals; their JSON is the key.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function memo<T>(cache: Map<string, T>, locale: string, options: object | undefined, build: () => T): T {
  const key = `${locale}\u0000${options ? JSON.stringify(options) : ''}`;
  let format = cache.get(key);
  if (format === undefined) {
    format = build();
    cache.set(key, format);
  }
  return format;
}

export function dateTimeFormat(locale: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return memo(dateFormats, locale, options, () => new Intl.DateTimeFormat(locale, options));
}

/** Throws RangeError like the constructor for an unknown currency; a failed build is not kept. */
export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return memo(numberFormats, locale, options, () => new Intl.NumberFormat(locale, options));
}
