import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import type { AppContext } from '../context.ts';
import { healthRoutes } from '../modules/health/health.routes.ts';
import { siteRoutes } from '../modules/site/site.routes.ts';
import { authRoutes } from '../modules/auth/auth.routes.ts';
import { userRoutes } from '../modules/users/users.routes.ts';
import { catalogueRoutes } from '../modules/catalogue/catalogue.routes.ts';
import { imageDownloadRoutes, imageTransformRoutes } from '../modules/media/media.routes.ts';
import { notFoundResponse, toErrorResponse } from './api-errors.ts';
import { HttpError } from '../platform/errors.ts';

/** Largest JSON body any API route accepts; uploads go to storage directly, not through here. */
export const API_BODY_LIMIT = 1024 * 1024;

/** The Hono router mounted at /api. Tests call `createApi(ctx).request(...)` in-process. */
export function createApi(ctx: AppContext) {
  const api = new Hono().basePath('/api');
  api.use(secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
  api.use(
    bodyLimit({
      maxSize: API_BODY_LIMIT,
      onError: () => {
        throw new HttpError(413, 'PAYLOAD_TOO_LARGE', '请求内容过大（上限 1 MB）');
      },
    }),
  );
  api.use(async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  api.route('/', healthRoutes(ctx));
  api.route('/', siteRoutes(ctx));
  api.route('/', authRoutes(ctx));
  api.route('/', userRoutes(ctx));
  api.route('/', catalogueRoutes(ctx));
  api.route('/', imageDownloadRoutes(ctx));
  api.notFound(notFoundResponse);
  api.onError((error, c) => toErrorResponse(c, error, ctx.logger));
  return api;
}

export type Api = ReturnType<typeof createApi>;

/** Routes outside /api that still answer in the API's error format: the image transformation endpoint. */
export function createMediaApp(ctx: AppContext) {
  const app = new Hono();
  app.route('/', imageTransformRoutes(ctx));
  app.notFound(notFoundResponse);
  app.onError((error, c) => toErrorResponse(c, error, ctx.logger));
  return app;
}
