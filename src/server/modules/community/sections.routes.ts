import { sectionsContract } from '../../../shared/community/sections.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';

/** Section and topic management. */
export function sectionsRoutes(ctx: AppContext) {
  return contractRoutes(ctx, sectionsContract, {});
}
