import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { queryInt } from '../input-rules.ts';
import { POINT_HISTORY_PAGE_DEFAULT, POINT_HISTORY_PAGE_MAX, type PointHistoryPage } from './checkin-model.ts';

const historyQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: POINT_HISTORY_PAGE_MAX, label: 'validation.label.pageSize' }).default(
    POINT_HISTORY_PAGE_DEFAULT,
  ),
});

/** The caller's HikariPoint ledger (decision 025). */
export const pointsContract = {
  pointHistory: endpoint({
    method: 'GET',
    path: '/v2/user/points/history',
    query: historyQuery,
    response: as<PointHistoryPage>(),
    auth: 'required',
    summary: 'The caller’s HikariPoint ledger, newest first: change, reason and balance after each',
  }),
} as const;
