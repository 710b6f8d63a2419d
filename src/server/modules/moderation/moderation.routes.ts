import { moderationContract } from '../../../shared/moderation/moderation.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';

/** Moderation: reports, content actions, bans, the audit log, roles. */
export function moderationRoutes(ctx: AppContext) {
  return contractRoutes(ctx, moderationContract, {});
}
