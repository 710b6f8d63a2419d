import { creatorManageContract } from '../../../shared/creator/manage.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';

/** The manage pages' lists, the pickers' look-ups, publishing and deleting. */
export function creatorManageRoutes(ctx: AppContext) {
  return contractRoutes(ctx, creatorManageContract, {});
}
