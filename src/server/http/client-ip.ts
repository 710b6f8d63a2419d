import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * The caller's address for rate limits: the socket's peer, or — behind a trusted proxy — the last
 * X-Forwarded-For entry, the one that proxy appended (earlier entries are written by the client).
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket.remoteAddress ?? 'unknown';
}
