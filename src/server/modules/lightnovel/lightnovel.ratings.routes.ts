import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';

export function lightnovelRatingRoutes(_ctx: AppContext) {
  return new Hono();
}
