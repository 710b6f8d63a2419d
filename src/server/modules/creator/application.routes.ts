import { creatorApplicationContract } from '../../../shared/creator/application.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';

/** Creator applications and their review. */
export function creatorApplicationRoutes(ctx: AppContext) {
  return contractRoutes(ctx, creatorApplicationContract, {});
}
