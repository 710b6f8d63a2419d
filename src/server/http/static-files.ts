import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import sirv from 'sirv';

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

/** Serves dist/client (the adapter does not in middleware mode); calls next() when no file matches. */
export function createStaticHandler(clientDir: string): StaticHandler {
  const serve = sirv(clientDir, {
    etag: true,
    gzip: true,
    brotli: true,
    dotfiles: false,
    extensions: ['html'],
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControlFor(pathname));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (pathname.endsWith('.html'))
        for (const [name, value] of Object.entries(htmlHeaders)) res.setHeader(name, value);
    },
  });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    serve(req, res, next);
  };
}

const MEDIA_EXTENSIONS = /\.(avif|gif|jpe?g|png|webp)$/i;

/** Serves uploaded media from local storage (images only; never HTML or scripts). */
export function createMediaFileHandler(mediaDir: string): StaticHandler {
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
    serve(req, res, next);
  };
}
