import { updateRequestsContract } from '../../../shared/creator/requests.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';

/** Update requests: a member's own and the review queue. */
export function updateRequestsRoutes(ctx: AppContext) {
  return contractRoutes(ctx, updateRequestsContract, {});
}
