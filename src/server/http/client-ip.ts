import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * The caller's address for rate limits: the socket's peer, or — behind a trusted proxy — the last
 * X-Forwarded-For entry, the one that proxy appended (earlier entries are written by the client).
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return addressOf(c.req.header('x-forwarded-for'), incoming?.socket.remoteAddress, trustProxy);
}

/** The same for a request outside the API (a page, an answer from the page cache). */
export function incomingIp(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  return addressOf(Array.isArray(forwarded) ? forwarded.join(',') : forwarded, req.socket.remoteAddress, trustProxy);
}

function addressOf(forwardedFor: string | undefined, peer: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = forwardedFor?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return peer ?? 'unknown';
}
