import { updateRequestsContract } from '../../../shared/creator/requests.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pagesChanged } from '../../http/page-cache-policy.ts';
import {
  approveRequest,
  closeWithReason,
  myRequests,
  requestDetail,
  requestQueue,
  resubmitRequest,
  withdrawRequest,
} from './update-requests.service.ts';

/** Update requests: a member's own and the review queue. */
export function updateRequestsRoutes(ctx: AppContext) {
  const deps = { db: ctx.db, jobs: ctx.jobs };
  return contractRoutes(ctx, updateRequestsContract, {
    mine: async (_c, { query, user }) => ({ data: await myRequests(ctx.db, user, query) }),
    queue: async (_c, { query, user }) => ({ data: await requestQueue(ctx.db, user, query) }),
    detail: async (_c, { params, user }) => ({ data: await requestDetail(ctx.db, user, params.id) }),
    approve: async (_c, { params, body, user }) => {
      const { outcome, tags } = await approveRequest(deps, user, params.id, body.overwrite);
      await pagesChanged(ctx, tags);
      return { data: outcome, message: 'revision.approved' };
    },
    reject: async (_c, { params, body, user }) => ({
      data: await closeWithReason(deps, user, params.id, 'rejected', body.reason),
      message: 'revision.rejected',
    }),
    requestChanges: async (_c, { params, body, user }) => ({
      data: await closeWithReason(deps, user, params.id, 'changes_requested', body.reason),
      message: 'revision.changesRequested',
    }),
    resubmit: async (_c, { params, body, user }) => ({
      data: await resubmitRequest(ctx.db, user, params.id, body),
      message: 'revision.resubmitted',
    }),
    withdraw: async (_c, { params, user }) => ({
      data: await withdrawRequest(ctx.db, user, params.id),
      message: 'revision.withdrawn',
    }),
  });
}
