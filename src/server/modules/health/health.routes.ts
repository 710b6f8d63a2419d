import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/respond.ts';
import { getHealth } from './health.service.ts';

export function healthRoutes(ctx: AppContext) {
  return new Hono().get('/health', async (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, await getHealth(ctx));
  });
}
