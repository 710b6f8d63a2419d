import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { Readable } from 'node:stream';
import sirv from 'sirv';
import { routeToLocaleVariant, scanLocaleVariants } from './locale-variants.ts';

/**
 * Cache policy for files in dist/client: hashed build assets never change, build manifests must
 * always be fresh, prerendered HTML is revalidated, other public files are cached for an hour.
 */
export function cacheControlFor(pathname: string): string {
  if (pathname.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (pathname.startsWith('/builds/')) return 'no-cache';
  if (pathname.endsWith('.html') || !/\.[a-z0-9]+$/i.test(pathname)) return 'public, max-age=0, must-revalidate';
  if (pathname.startsWith('/pagefind/')) return 'public, max-age=300';
  return 'public, max-age=3600';
}

/** Headers for prerendered pages, which do not pass through the Astro middleware. */
let htmlHeaders: Record<string, string> = {};
export function setStaticPageHeaders(headers: Record<string, string>): void {
  htmlHeaders = headers;
}

export type StaticHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Adds the page headers to an answer that turns out to be HTML. sirv names the requested path, not the
 * file it found (`/docs/x` may be `/docs/x/index.html` or `/docs/x.html`, perhaps pre-compressed), so
 * the decision is taken on the Content-Type it is about to send.
 */
function addPageHeadersToHtml(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const headers = args.find((a): a is Record<string, unknown> => typeof a === 'object' && a !== null);
    const type = String(headers?.['Content-Type'] ?? res.getHeader('content-type') ?? '');
    if (/^text\/html\b/i.test(type))
      for (const [name, value] of Object.entries(htmlHeaders)) res.setHeader(name, value);
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
}

/** One `bytes=start-end` range with start <= end, small enough to be exact as a number. */
const SERVABLE_RANGE = /^bytes=(\d{1,15})-(\d{0,15})$/;

/**
 * Makes sirv's file sending safe: it pipes a file stream into the response without an error handler,
 * and passes the Range header's numbers to the stream unchecked. So a Range it cannot serve (start
 * after end, suffix or several ranges) is dropped, which answers the whole file as HTTP allows; a
 * read error (file removed or unreadable) ends the response instead of the process; and the file is
 * closed when the client goes away mid-download.
 */
export function guardFileResponse(req: IncomingMessage, res: ServerResponse, onError: (error: Error) => void): void {
  const range = req.headers.range;
  if (range !== undefined) {
    const match = SERVABLE_RANGE.exec(range.trim());
    if (!match || (match[2] !== '' && Number(match[1]) > Number(match[2]))) delete req.headers.range;
  }
  res.once('pipe', (source: Readable) => {
    source.once('error', (error) => {
      onError(error);
      res.destroy();
    });
    res.once('close', () => source.destroy());
  });
}

/** Serves dist/client (the adapter does not in middleware mode); calls next() when no file matches. */
export function createStaticHandler(clientDir: string, onError: (error: Error) => void = () => {}): StaticHandler {
  const serve = sirv(clientDir, {
    etag: true,
    gzip: true,
    brotli: true,
    dotfiles: false,
    extensions: ['html'],
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControlFor(pathname));
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  const variants = scanLocaleVariants(clientDir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Prerendered pages answer in the visitor's language at their one address; hidden folders are not addresses.
    if (!routeToLocaleVariant(variants, req, res)) return next();
    guardFileResponse(req, res, onError);
    addPageHeadersToHtml(res);
    serve(req, res, next);
  };
}

const MEDIA_EXTENSIONS = /\.(avif|gif|jpe?g|png|webp)$/i;

/** Serves uploaded media from local storage (images only; never HTML or scripts). */
export function createMediaFileHandler(mediaDir: string, onError: (error: Error) => void = () => {}): StaticHandler {
  mkdirSync(mediaDir, { recursive: true });
  // dev mode looks files up per request: uploads arrive while the server runs.
  const serve = sirv(mediaDir, {
    dev: true,
    etag: true,
    dotfiles: false,
    setHeaders(res) {
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'");
    },
  });
  return (req, res, next) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !MEDIA_EXTENSIONS.test(path)) return next();
    guardFileResponse(req, res, onError);
    serve(req, res, next);
  };
}
