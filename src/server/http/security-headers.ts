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
