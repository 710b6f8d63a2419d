import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import type { AppContext } from '../context.ts';
import { notFoundResponse, toErrorResponse } from './api-errors.ts';
import { HttpError } from '../platform/errors.ts';
import { messageRef, type MessageKey } from '../../shared/i18n/index.ts';
import { EPUB_UPLOAD_ROUTE } from '../../shared/lightnovel/epub.contract.ts';

/** Largest JSON body any API route accepts; uploads go to storage directly, not through here. */
export const API_BODY_LIMIT = 1024 * 1024;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?[\w-]+"?\s*)?$/i;

/**
 * Routes whose body is a file, not JSON (an EPUB): sent with their one content type, the JSON-only rule
 * and the 1 MB limit step aside (the handler streams the body to disk with its own cap); the origin
 * check stays, and any other type is refused here as for every route.
 */
const RAW_BODY_ROUTES: readonly { method: string; path: RegExp; contentType: string }[] = [EPUB_UPLOAD_ROUTE];
const isRawBody = (c: Context) => {
  const type = (c.req.header('content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase();
  return RAW_BODY_ROUTES.some(
    (route) => route.method === c.req.method && route.path.test(c.req.path) && route.contentType === type,
  );
};

/**
 * Paths shaped like a raw-body route (any id, a trailing slash) sent with a type that is neither JSON nor
 * the route's: told the type that route takes rather than "must be JSON"; with that type they go on (to
 * the route or a 404).
 */
const RAW_BODY_LOOKALIKES: readonly { method: string; path: RegExp; contentType: string; message: MessageKey }[] = [
  {
    method: EPUB_UPLOAD_ROUTE.method,
    path: /^\/api\/lightnovel\/volumes\/[^/]*\/epub\/?$/i,
    contentType: EPUB_UPLOAD_ROUTE.contentType,
    message: 'epub.contentType',
  },
];

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * A site on this machine (the default PUBLIC_ORIGIN is http://localhost:PORT) is also opened as
 * 127.0.0.1 or [::1]; those spellings name the same server, and no other site can have them.
 */
function loopbackAliases(origin: string): string[] {
  const url = new URL(origin);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [];
  return LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
}

/**
 * Guards every state-changing request (POST, PUT, PATCH, DELETE) against cross-site use: a request
 * from a page of another site (a foreign `Origin`, or `Sec-Fetch-Site: cross-site`) is refused, and
 * the body must be JSON, which a cross-site form or a "simple" fetch cannot send without a preflight.
 * Requests without either header (curl, other servers) pass; a DELETE may come without a body.
 */
export function sameSiteJsonOnly(publicOrigin: string): MiddlewareHandler {
  const allowed = new URL(publicOrigin).origin;
  const origins = new Set([allowed, ...loopbackAliases(allowed)]);
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if ((origin !== undefined && !origins.has(origin)) || c.req.header('sec-fetch-site') === 'cross-site') {
      throw new HttpError(403, 'CROSS_SITE_REQUEST', messageRef('server.crossSite', { origin: allowed }));
    }
    const type = c.req.header('content-type');
    const hasBody =
      type !== undefined ||
      Number(c.req.header('content-length') ?? 0) > 0 ||
      c.req.header('transfer-encoding') !== undefined;
    if ((c.req.method === 'DELETE' && !hasBody) || isRawBody(c)) return next();
    const lookalike = RAW_BODY_LOOKALIKES.find((route) => route.method === c.req.method && route.path.test(c.req.path));
    // JSON goes on to the route as everywhere (which answers for its own type after checking the caller).
    if (lookalike && !(type && JSON_TYPE.test(type.trim()))) {
      if ((type ?? '').split(';', 1)[0]?.trim().toLowerCase() === lookalike.contentType) return next();
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', lookalike.message);
    }
    if (!type || !JSON_TYPE.test(type.trim())) {
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'server.jsonOnly');
    }
    return next();
  };
}

/** The Hono router mounted at /api: every module's routes. Tests call `createApi(ctx).request(...)` in-process. */
export function createApi(ctx: AppContext) {
  const api = new Hono().basePath('/api');
  api.use(secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
  api.use(sameSiteJsonOnly(ctx.config.publicOrigin));
  const jsonBodyLimit = bodyLimit({
    maxSize: API_BODY_LIMIT,
    onError: () => {
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'server.bodyTooLarge');
    },
  });
  api.use((c, next) => (isRawBody(c) ? next() : jsonBodyLimit(c, next)));
  api.use(async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  for (const module of ctx.modules) if (module.api) api.route('/', module.api(ctx));
  api.notFound(notFoundResponse);
  api.onError((error, c) => toErrorResponse(c, error, ctx.logger));
  return api;
}

export type Api = ReturnType<typeof createApi>;
