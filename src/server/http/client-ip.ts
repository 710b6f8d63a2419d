import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * The caller's address for rate limits: the socket's peer, or the first X-Forwarded-For entry when
 * the server is configured to trust the proxy in front of it.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket.remoteAddress ?? 'unknown';
}
