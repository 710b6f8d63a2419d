import { Hono } from 'hono';
import type { ApiFailure, HealthData } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { apiText } from '../../http/request-locale.ts';
import { ok } from '../../http/respond.ts';
import { getHealth } from './health.service.ts';

/** A failed check answers 503 with the same data, so load balancers and monitors see it by status. */
type DegradedAnswer = Omit<ApiFailure, 'data'> & { data: HealthData };

export function healthRoutes(ctx: AppContext) {
  return new Hono().get('/health', async (c) => {
    c.header('Cache-Control', 'no-store');
    const health = await getHealth(ctx);
    if (health.status === 'ok') return ok(c, health);
    const body: DegradedAnswer = {
      success: false,
      code: 'SERVICE_UNAVAILABLE',
      message: apiText(c, messageRef('server.degraded', { checks: health.failing.join(', ') })),
      data: health,
    };
    return c.json(body, 503);
  });
}
