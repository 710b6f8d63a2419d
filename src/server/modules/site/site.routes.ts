import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/respond.ts';
import { publicConfigFrom } from './site.service.ts';

export function siteRoutes(ctx: AppContext) {
  return new Hono().get('/site/config', (c) => {
    c.header('Cache-Control', 'public, max-age=60');
    return ok(c, publicConfigFrom(ctx.config));
  });
}
