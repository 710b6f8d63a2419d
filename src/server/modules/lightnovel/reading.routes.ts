import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';

export function readingRoutes(_ctx: AppContext) {
  return new Hono();
}
