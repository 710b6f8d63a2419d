import { pointsContract } from '../../../shared/checkin/points.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pointHistory } from './points.service.ts';

/** The caller's HikariPoint history (decision 025). */
export function pointsRoutes(ctx: AppContext) {
  return contractRoutes(ctx, pointsContract, {
    pointHistory: async (_c, { query, user }) => ({
      data: await pointHistory(ctx.db, user.id, { page: query.page, limit: query.limit }),
    }),
  });
}
