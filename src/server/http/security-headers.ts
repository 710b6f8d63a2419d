/**
 * Content-Security-Policy for every page. Inline scripts stay allowed because Astro's client router
 * and island loader inject them (Astro's hash-based CSP does not support the client router); text
 * from users is never rendered as HTML, which is what keeps injected script out.
 */
export function contentSecurityPolicy(options: {
  analyticsUrl?: string | undefined;
  chatUrl?: string | undefined;
  /** Where browsers PUT uploads when they go straight to S3 (`uploadOrigin` of the storage config). */
  uploadOrigin?: string | null | undefined;
}): string {
  // 'self' covers same-origin fetch and WebSocket; other hosts only when configured.
  const connect = ["'self'"];
  if (options.analyticsUrl) connect.push(new URL(options.analyticsUrl).origin);
  if (options.uploadOrigin) connect.push(options.uploadOrigin);
  if (options.chatUrl) connect.push(options.chatUrl.replace(/^(wss?:\/\/[^/]+).*$/, '$1'));
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const pageSecurityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
} as const;

/**
 * The reader's policy (/lightnovel/read). Books render in frames made from blob: documents, which
 * inherit this policy: scripts run only from our own files and the page's own inline scripts (by
 * hash), so nothing a book carries can run, not even an inline script or an `onload`. Frames,
 * images, fonts and style sheets may come from blob: (foliate-js turns each part of the book into one).
 */
export function readerContentSecurityPolicy(options: {
  scriptHashes: readonly string[];
  analyticsUrl?: string | undefined;
}): string {
  const connect = ["'self'"];
  if (options.analyticsUrl) connect.push(new URL(options.analyticsUrl).origin);
  const hashes = [...new Set(options.scriptHashes)].map((hash) => `'sha256-${hash}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline' blob:",
    "img-src 'self' data: blob:",
    "font-src 'self' data: blob:",
    "media-src 'self' blob:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "frame-src 'self' blob:",
    "child-src 'self' blob:",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Executable inline scripts of a page: no `src`, and a JavaScript type (or none). */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

/** The contents of the page's own inline scripts, whose hashes the reader's policy allows. */
export function inlineScripts(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
    if (!SCRIPT_TYPES.has(type)) continue;
    found.push(match[2] ?? '');
  }
  return found;
}
