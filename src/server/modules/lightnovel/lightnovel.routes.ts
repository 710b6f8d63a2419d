import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';

export function lightnovelCatalogueRoutes(_ctx: AppContext) {
  return new Hono();
}
