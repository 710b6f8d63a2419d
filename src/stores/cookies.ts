/**
 * Reading and writing `document.cookie` behind a small interface, so the session logic runs (and is
 * tested) without a browser. Values are URI-encoded; every cookie is `path=/`, and `secure;
 * samesite=none` as spec §9 asks.
 */

/** The one part of `Document` the jar needs. */
export interface CookieDocument {
  cookie: string;
}

export interface CookieJar {
  get(name: string): string | null;
  /** Writes a cookie that lives `maxAgeSeconds`; zero or less removes it. */
  set(name: string, value: string, maxAgeSeconds: number): void;
  remove(name: string): void;
}

export interface CookieJarOptions {
  /**
   * Spec §9 attributes `secure; samesite=none` (the default). Browsers drop such a cookie on a page
   * that is not a secure context (plain http on a host other than localhost), so the browser jar
   * falls back to `samesite=lax` there rather than losing the login altogether.
   */
  secure?: boolean;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Parses a `Cookie` request header (or `document.cookie`); the first cookie of a name wins. */
export function parseCookieHeader(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || Object.hasOwn(cookies, name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies[name] = decode(value);
  }
  return cookies;
}

/** One `Set-Cookie`-style assignment for `document.cookie`. */
export function serializeCookie(name: string, value: string, maxAgeSeconds: number, secure = true): string {
  const maxAge = Math.max(0, Math.floor(maxAgeSeconds));
  const attributes = secure ? 'secure; samesite=none' : 'samesite=lax';
  return `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAge}; ${attributes}`;
}

export function createCookieJar(doc: CookieDocument, options: CookieJarOptions = {}): CookieJar {
  const secure = options.secure ?? true;
  return {
    get: (name) => parseCookieHeader(doc.cookie)[name] ?? null,
    set: (name, value, maxAgeSeconds) => {
      doc.cookie = serializeCookie(name, maxAgeSeconds > 0 ? value : '', maxAgeSeconds, secure);
    },
    remove: (name) => {
      doc.cookie = serializeCookie(name, '', 0, secure);
    },
  };
}

/** A jar that holds nothing: on the server no module-level state may carry one request's cookies to another. */
const emptyJar: CookieJar = { get: () => null, set: () => {}, remove: () => {} };

let override: CookieJar | null = null;
let browserJar: CookieJar | null = null;

/** The jar every store uses: the page's cookies in a browser, nothing on the server, or the one a test set. */
export function cookieJar(): CookieJar {
  if (override) return override;
  if (typeof document === 'undefined') return emptyJar;
  browserJar ??= createCookieJar(document, { secure: globalThis.isSecureContext !== false });
  return browserJar;
}

/** Replaces the jar (tests); `null` goes back to the page's cookies. */
export function setCookieJar(jar: CookieJar | null): void {
  override = jar;
}

/**
 * A `document.cookie` look-alike kept in memory, with the browser's rules for `max-age` (expiry read
 * from `now`). `writes` records every assignment, attributes included.
 */
export function memoryCookieDocument(now: () => number = Date.now): CookieDocument & { writes: string[] } {
  const store = new Map<string, { value: string; expiresAt: number }>();
  const writes: string[] = [];
  return {
    writes,
    get cookie() {
      const at = now();
      return [...store]
        .filter(([, c]) => c.expiresAt > at)
        .map(([name, c]) => `${name}=${c.value}`)
        .join('; ');
    },
    set cookie(assignment: string) {
      writes.push(assignment);
      const [pair = '', ...attributes] = assignment.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) return;
      const name = pair.slice(0, eq).trim();
      const maxAge = attributes
        .map((a) => a.trim().toLowerCase())
        .find((a) => a.startsWith('max-age='))
        ?.slice('max-age='.length);
      const seconds = maxAge === undefined ? Number.POSITIVE_INFINITY : Number(maxAge);
      if (!(seconds > 0)) {
        store.delete(name);
        return;
      }
      store.set(name, { value: pair.slice(eq + 1).trim(), expiresAt: now() + seconds * 1000 });
    },
  };
}
