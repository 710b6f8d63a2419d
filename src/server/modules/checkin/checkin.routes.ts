import { checkinContract } from '../../../shared/checkin/checkin.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { checkIn, checkInRecords, checkInStatus, makeUp, userCheckInStatus } from './checkin.service.ts';

/** Daily check-in, make-up check-in and the caller's check-in status (decision 025). */
export function checkinRoutes(ctx: AppContext) {
  return contractRoutes(ctx, checkinContract, {
    checkIn: async (_c, { user }) => {
      const { points } = await checkIn(ctx.db, user.id);
      return { data: { points }, message: 'server.checkIn.done' };
    },
    makeUp: async (_c, { body, user }) => {
      const { points } = await makeUp(ctx.db, user.id, body.date, new Date(), body.cost);
      return { data: { points }, message: 'server.checkIn.madeUp' };
    },
    status: async (_c, { user }) => ({ data: await checkInStatus(ctx.db, user.id) }),
    records: async (_c, { query, user }) => ({ data: await checkInRecords(ctx.db, user.id, query.month) }),
    userStatus: async (_c, { user }) => ({ data: await userCheckInStatus(ctx.db, user.id) }),
  });
}
