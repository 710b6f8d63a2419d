import { creatorItemsContract } from '../../../shared/creator/items.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';

/** Item and entity editors: documents, saves, creations, revisions. */
export function creatorItemsRoutes(ctx: AppContext) {
  return contractRoutes(ctx, creatorItemsContract, {});
}
