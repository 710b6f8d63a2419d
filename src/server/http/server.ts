import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { AppContext } from '../context.ts';
import { createApi } from './api.ts';
import { createStaticHandler, setStaticPageHeaders } from './static-files.ts';
import { contentSecurityPolicy, pageSecurityHeaders } from './security-headers.ts';
import { uploadOrigin } from '../platform/storage/upload-origin.ts';
import { refuseUpgrade } from './upgrade.ts';
import { incomingIp } from './client-ip.ts';
import { createPageCache, type PageCache, type PageCacheOptions } from './page-cache.ts';
import type { PathHandler } from '../modules/module.ts';

export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (() => void) | undefined,
  locals: Pick<App.Locals, 'app' | 'pageCapture' | 'clientIp'>,
) => Promise<void> | void;

/**
 * Node's limits for slow clients: the whole header block within `headersTimeout` (a header trickle is
 * answered 408), the whole request within `requestTimeout` (uploads go to storage, API bodies are at
 * most 1 MB), idle keep-alive connections closed after `keepAliveTimeout`; the timeouts are enforced
 * every `connectionsCheckingInterval`.
 */
export interface HttpLimits {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
}

export const HTTP_LIMITS: HttpLimits = {
  headersTimeout: 20_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 5_000,
};

const CLIENT_ERROR_STATUS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * A request Node could not parse (garbage, oversized headers, too slow): answer it when nothing else
 * is being written on the connection, then close the connection.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A response already under way on this keep-alive connection cannot be followed by another one.
  const busy = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy();
    return;
  }
  const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}

export interface HttpServer {
  server: Server;
  /** This process's visitor page cache. */
  pageCache: PageCache;
  /** Stops accepting, closes sockets with 1001, waits for in-flight requests (up to `graceMs`). */
  shutdown: (graceMs?: number) => Promise<void>;
}

/** The module path handler for `path`: an exact match, or the longest prefix ending in `/`. */
function findPathHandler(handlers: readonly PathHandler[], path: string): PathHandler | undefined {
  let best: PathHandler | undefined;
  for (const handler of handlers) {
    const matches = handler.path.endsWith('/') ? path.startsWith(handler.path) : path === handler.path;
    if (matches && (!best || handler.path.length > best.path.length)) best = handler;
  }
  return best;
}

/**
 * One HTTP server for everything: /api (Hono), the modules' own paths (/img, /media/…) and WebSocket
 * endpoints (/ws/chat), dist/client files, and Astro for every other path.
 */
export function createHttpServer(
  ctx: AppContext,
  options: {
    clientDir: string;
    astro: AstroHandler;
    limits?: Partial<HttpLimits>;
    /** Page cache settings (tests); the size comes from PAGE_CACHE_MB otherwise. */
    pageCache?: Partial<PageCacheOptions>;
  },
): HttpServer {
  const api = getRequestListener(createApi(ctx).fetch);
  const paths = ctx.modules.flatMap((module) => module.paths?.(ctx) ?? []);
  const sockets = ctx.modules.flatMap((module) => module.sockets?.(ctx) ?? []);
  const onFileError = (error: Error) => ctx.logger.warn({ err: error }, 'file stream failed');
  const serveStatic = createStaticHandler(options.clientDir, onFileError);
  setStaticPageHeaders({
    'Content-Security-Policy': contentSecurityPolicy({
      analyticsUrl: ctx.config.analytics?.url,
      chatUrl: ctx.config.chatUrl,
      uploadOrigin: uploadOrigin(ctx.config),
    }),
    ...pageSecurityHeaders,
  });
  const limits: HttpLimits = { ...HTTP_LIMITS, ...options.limits };
  const pageCache = createPageCache(ctx, { maxBytes: ctx.config.pageCacheBytes, ...options.pageCache });
  let inFlight = 0;

  const server = createServer(limits, (req, res) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // Aborted uploads and resets mid-response surface here; without listeners they could be thrown.
    req.on('error', (error) => ctx.logger.debug({ err: error, path }, 'request stream error'));
    res.on('error', (error) => ctx.logger.debug({ err: error, path }, 'response stream error'));
    inFlight++;
    res.once('close', () => {
      inFlight--;
      ctx.logger.info(
        {
          method: req.method,
          path,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    });
    // Nothing thrown while routing may reach the server's 'request' emitter: it would end the process.
    const fail = (error: unknown, message: string) => {
      ctx.logger.error({ err: error, path }, message);
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    };
    try {
      if (path === '/api' || path.startsWith('/api/')) {
        Promise.resolve(api(req, res)).catch((error: unknown) => fail(error, 'request failed'));
        return;
      }
      const handler = findPathHandler(paths, path);
      if (handler) {
        Promise.resolve(handler.handle(req, res)).catch((error: unknown) => fail(error, 'request failed'));
        return;
      }
      serveStatic(req, res, () => {
        // Without a `next`, Astro renders its own 404 page for paths no route matches.
        pageCache
          .serve(req, res, (locals) =>
            options.astro(req, res, undefined, { ...locals, clientIp: incomingIp(req, ctx.config.trustProxy) }),
          )
          .catch((error: unknown) => fail(error, 'page render failed'));
      });
    } catch (error) {
      fail(error, 'request failed');
    }
  });
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    // Errors on a socket nobody has taken yet (a reset mid-handshake) must not end the process.
    socket.on('error', (error) => ctx.logger.debug({ err: error }, 'upgrade socket error'));
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const endpoint = sockets.find((candidate) => candidate.path === path);
    if (!endpoint) return refuseUpgrade(socket, 404);
    endpoint.handleUpgrade(req, socket, head);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    ctx.logger.debug({ err: error }, 'client error');
    answerClientError(error, socket);
  });

  async function shutdown(graceMs = 10_000): Promise<void> {
    pageCache.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all(sockets.map((endpoint) => endpoint.close()));
    // Idle keep-alive sockets would hold close() open; busy ones are closed when their response ends.
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([closed, deadline]);
    clearInterval(sweep);
    if (inFlight > 0) ctx.logger.warn({ inFlight }, 'shutdown grace period over; closing remaining connections');
    server.closeAllConnections();
  }

  return { server, pageCache, shutdown };
}
