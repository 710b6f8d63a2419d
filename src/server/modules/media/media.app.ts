import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import { notFoundResponse, toErrorResponse } from '../../http/api-errors.ts';
import { sameSiteJsonOnly } from '../../http/api.ts';
import { imageTransformRoutes, type MediaRouteOptions } from './media.routes.ts';

/** GET /img outside /api, still answering in the API's error format. */
export function createMediaApp(ctx: AppContext, options: MediaRouteOptions = {}) {
  const app = new Hono();
  app.use(sameSiteJsonOnly(ctx.config.publicOrigin));
  app.route('/', imageTransformRoutes(ctx, options));
  app.notFound(notFoundResponse);
  app.onError((error, c) => toErrorResponse(c, error, ctx.logger));
  return app;
}
