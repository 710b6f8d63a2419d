import { Hono } from 'hono';
import type { AppContext } from '../../../context.ts';

export function epubRoutes(_ctx: AppContext) {
  return new Hono();
}
