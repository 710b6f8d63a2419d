import type { IncomingMessage, ServerResponse } from 'node:http';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  LOCALE_COOKIE,
  LOCALES,
  localeOfPrerenderedPath,
  prerenderedLocaleDir,
  resolveLocale,
  type Locale,
} from '../../shared/i18n/index.ts';

/**
 * Prerendered pages exist once per locale: the default at its address in dist/client, each other
 * locale in a hidden folder ("_en/docs/guide/index.html"). A visitor whose locale cookie asks for
 * another language gets that build at the same, canonical address.
 */

/** The page a request path names: "/docs/guide/", "/docs/guide/index.html" and "/docs/guide.html" are "/docs/guide". */
export function pagePathOf(pathname: string): string {
  const page = pathname
    .replace(/\/index\.html$/, '')
    .replace(/\.html$/, '')
    .replace(/\/+$/, '');
  return page || '/';
}

/** One cookie's value from a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

function htmlFilesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

export type VariantAnswer =
  /** An address inside a hidden locale folder: not served as such (the canonical address is). */
  | { kind: 'hidden' }
  /** A page built per locale: serve `url` (the variant of the visitor's locale, or the request as it is). */
  | { kind: 'page'; url: string }
  /** Anything else: serve the request as it is. */
  | { kind: 'other' };

export interface LocaleVariants {
  /** What to serve for a request URL and Cookie header. */
  resolve(url: string, cookieHeader: string | undefined): VariantAnswer;
}

/** Reads the hidden locale folders of a built client directory once (the build does not change while serving). */
export function scanLocaleVariants(clientDir: string): LocaleVariants {
  const variants = new Map<Locale, Map<string, string>>();
  const pages = new Set<string>();
  for (const locale of LOCALES) {
    const dir = prerenderedLocaleDir(locale);
    if (!dir) continue;
    const files = new Map<string, string>();
    for (const file of htmlFilesUnder(path.join(clientDir, dir))) {
      const page = pagePathOf(`/${file}`);
      files.set(page, `/${dir}/${file}`);
      pages.add(page);
    }
    variants.set(locale, files);
  }

  return {
    resolve(url, cookieHeader) {
      const queryAt = url.indexOf('?');
      const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
      let pathname = rawPath;
      try {
        pathname = decodeURI(rawPath);
      } catch {
        return { kind: 'other' };
      }
      if (localeOfPrerenderedPath(pathname)) return { kind: 'hidden' };
      const page = pagePathOf(pathname);
      if (!pages.has(page)) return { kind: 'other' };
      const locale = resolveLocale(null, cookieValue(cookieHeader, LOCALE_COOKIE));
      const file = variants.get(locale)?.get(page);
      return { kind: 'page', url: file ? `${file}${queryAt === -1 ? '' : url.slice(queryAt)}` : url };
    },
  };
}

/** Marks an answer as depending on the Cookie header, keeping any other Vary (sirv sets Accept-Encoding late). */
export function varyOnCookie(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const current = String(res.getHeader('vary') ?? '');
    const names = current
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (!names.some((name) => name.toLowerCase() === 'cookie')) res.setHeader('Vary', [...names, 'Cookie'].join(', '));
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
}

/** Points the request at the visitor's locale build of a prerendered page; false when it must not be served. */
export function routeToLocaleVariant(variants: LocaleVariants, req: IncomingMessage, res: ServerResponse): boolean {
  const answer = variants.resolve(req.url ?? '/', req.headers.cookie);
  if (answer.kind === 'hidden') return false;
  if (answer.kind === 'page') {
    req.url = answer.url;
    varyOnCookie(res);
  }
  return true;
}
