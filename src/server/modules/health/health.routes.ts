import type { ApiFailure, HealthData } from '../../../shared/api.ts';
import { healthContract } from '../../../shared/health/health.contract.ts';
import type { AppContext } from '../../context.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { apiText } from '../../http/request-locale.ts';
import { getHealth } from './health.service.ts';
import { DATABASE_RETRY_AFTER_S } from '../../platform/infrastructure-failure.ts';

/** A failed check answers 503 with the same data, so load balancers and monitors see it by status. */
type DegradedAnswer = Omit<ApiFailure, 'data'> & { data: HealthData };

export function healthRoutes(ctx: AppContext) {
  return contractRoutes(ctx, healthContract, {
    health: async (c) => {
      c.header('Cache-Control', 'no-store');
      const health = await getHealth(ctx);
      if (health.status === 'ok') return { data: health };
      // The database away: the code and wait every other answer gives meanwhile.
      const away = health.failing.includes('database');
      if (away) c.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
      const body: DegradedAnswer = {
        success: false,
        code: away ? 'DATABASE_UNAVAILABLE' : 'SERVICE_UNAVAILABLE',
        message: apiText(c, messageRef('server.degraded', { checks: health.failing.join(', ') })),
        data: health,
      };
      return c.json(body, 503);
    },
  });
}
