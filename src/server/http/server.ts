import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { AppContext } from '../context.ts';
import { createApi, createMediaApp } from './api.ts';
import { createMediaFileHandler, createStaticHandler, setStaticPageHeaders } from './static-files.ts';
import { contentSecurityPolicy, pageSecurityHeaders } from './security-headers.ts';
import { createChatGateway } from '../modules/chat/chat.gateway.ts';
import { authenticate } from '../modules/auth/auth.service.ts';

export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (() => void) | undefined,
  locals: Pick<App.Locals, 'app'>,
) => Promise<void> | void;

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export interface HttpServer {
  server: Server;
  /** Stops accepting, closes sockets with 1001, waits for in-flight requests (up to `graceMs`). */
  shutdown: (graceMs?: number) => Promise<void>;
}

/**
 * One HTTP server for everything: /api (Hono), /ws/chat (WebSocket upgrades), dist/client files,
 * and Astro for every other path.
 */
export function createHttpServer(ctx: AppContext, options: { clientDir: string; astro: AstroHandler }): HttpServer {
  const api = getRequestListener(createApi(ctx).fetch);
  const media = getRequestListener(createMediaApp(ctx).fetch);
  const serveStatic = createStaticHandler(options.clientDir);
  setStaticPageHeaders({
    'Content-Security-Policy': contentSecurityPolicy({
      analyticsUrl: ctx.config.analytics?.url,
      chatUrl: ctx.config.chatUrl,
    }),
    ...pageSecurityHeaders,
  });
  const serveMedia = ctx.config.storage.driver === 'local' ? createMediaFileHandler(ctx.config.storage.dir) : null;
  const chat = createChatGateway(ctx, async (token) => {
    await authenticate({ db: ctx.db, secret: ctx.config.jwtSecret }, token);
    return true;
  });
  const locals: Pick<App.Locals, 'app'> = { app: ctx };
  let inFlight = 0;

  const server = createServer((req, res) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
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
    if (path === '/api' || path.startsWith('/api/')) {
      void api(req, res);
      return;
    }
    if (path === '/img') {
      void media(req, res);
      return;
    }
    if (path.startsWith('/media/') && serveMedia) {
      // sirv's own containment check is a prefix match; no dot segments reach it at all.
      if (/(^|\/)\.\.?(\/|$)/.test(safeDecode(path))) {
        res.statusCode = 404;
        res.end('Not Found');
        return;
      }
      req.url = (req.url ?? '').slice('/media'.length);
      serveMedia(req, res, () => {
        req.url = `/media${req.url ?? ''}`;
        res.statusCode = 404;
        res.end('Not Found');
      });
      return;
    }
    serveStatic(req, res, () => {
      // Without a `next`, Astro renders its own 404 page for paths no route matches.
      Promise.resolve(options.astro(req, res, undefined, locals)).catch((error: unknown) => {
        ctx.logger.error({ err: error, path }, 'page render failed');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal Server Error');
      });
    });
  });
  server.on('upgrade', (req, socket, head) => chat.handleUpgrade(req, socket, head));

  async function shutdown(graceMs = 10_000): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await chat.close();
    // Idle keep-alive sockets would hold close() open; busy ones are closed when their response ends.
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([closed, deadline]);
    clearInterval(sweep);
    if (inFlight > 0) ctx.logger.warn({ inFlight }, 'shutdown grace period over; closing remaining connections');
    server.closeAllConnections();
  }

  return { server, shutdown };
}
