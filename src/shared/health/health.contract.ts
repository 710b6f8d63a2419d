import type { HealthData } from '../api.ts';
import { as, endpoint } from '../contract.ts';

/** Service health, for load balancers and monitors. */
export const healthContract = {
  health: endpoint({
    method: 'GET',
    path: '/health',
    response: as<HealthData>(),
    summary: 'Service health: checks, failing checks, version, build, database and migrations; 503 when degraded',
  }),
} as const;
