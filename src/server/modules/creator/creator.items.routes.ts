import { creatorItemsContract } from '../../../shared/creator/items.contract.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import { contractRoutes } from '../../http/contract-route.ts';

const notYet = () => {
  throw new HttpError(503, 'SERVICE_UNAVAILABLE', 'server.apiNotFound');
};

/** Item and entity editors: documents, saves, creations, revisions. */
export function creatorItemsRoutes(ctx: AppContext) {
  return contractRoutes(ctx, creatorItemsContract, {
    document: notYet,
    save: notYet,
    create: notYet,
    revisions: notYet,
    revision: notYet,
    restore: notYet,
  });
}
