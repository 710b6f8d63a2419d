import { creatorApplicationContract } from '../../../shared/creator/application.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import {
  applicationStatus,
  assertApplicationReviewer,
  decideApplication,
  listApplications,
  submitApplication,
  withdrawApplication,
} from './application.service.ts';
import { creatorOverview } from './overview.service.ts';

/** Creator applications and their review, and the creator centre's overview. */
export function creatorApplicationRoutes(ctx: AppContext) {
  const db = ctx.db;
  return contractRoutes(ctx, creatorApplicationContract, {
    submit: async (_c, { body, user }) => ({
      data: await submitApplication({ db, storage: ctx.storage }, user, body),
      message: 'application.submitted',
      status: 201,
    }),

    status: async (_c, { user }) => ({ data: await applicationStatus(db, user.id) }),

    withdraw: async (_c, { params, user }) => ({
      data: await withdrawApplication(db, user.id, params.id),
      message: 'application.withdrawn',
    }),

    list: async (_c, { query, user }) => {
      assertApplicationReviewer(user);
      return { data: await listApplications(db, query.status, { page: query.page, limit: query.limit }) };
    },

    approve: async (_c, { params, user }) => ({
      data: await decideApplication({ db, jobs: ctx.jobs }, user, params.id, { approve: true }),
      message: 'application.approved',
    }),

    reject: async (_c, { params, body, user }) => ({
      data: await decideApplication({ db, jobs: ctx.jobs }, user, params.id, { approve: false, reason: body.reason }),
      message: 'application.rejected',
    }),

    overview: async (_c, { user }) => ({ data: await creatorOverview(db, user.id) }),
  });
}
