import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { bodyInt } from '../input-rules.ts';
import { isSiteDate } from '../site-day.ts';
import type { CheckInRecord, CheckInResult, CheckInStatus, UserCheckInStatus } from './checkin-model.ts';

/** State changes carry a JSON body (the API's cross-site rule); a check-in takes nothing in it. */
const emptyBody = z.strictObject({});

const makeUpBody = z.strictObject({
  /**
   * The cost the member confirmed (the status's makeUpCost). When given and the cost changed meanwhile
   * (another tab made a day up), the make-up is refused with MAKE_UP_COST_CHANGED and charges nothing.
   */
  cost: bodyInt({ min: 1, max: 1_000_000, label: 'validation.label.makeUpCost' }).optional(),
  date: z
    .string({ error: messageRef('server.checkIn.dateInvalid') })
    .max(10, { error: messageRef('server.checkIn.dateInvalid') })
    .refine(isSiteDate, { error: messageRef('server.checkIn.dateInvalid') }),
});

const recordsQuery = z.object({
  /** `YYYY-MM`; the current site month when absent. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: messageRef('server.checkIn.monthInvalid') })
    .refine((month) => isSiteDate(`${month}-01`) && month >= '1970-01', {
      error: messageRef('server.checkIn.monthInvalid'),
    })
    .optional(),
});

/** Daily check-in and make-up check-in (decision 025). */
export const checkinContract = {
  checkIn: endpoint({
    method: 'POST',
    path: '/v2/user/check-in',
    body: emptyBody,
    response: as<CheckInResult>(),
    auth: 'required',
    summary: 'Checks the caller in for today (Asia/Shanghai), once a day; answers the points earned (1–10)',
  }),
  makeUp: endpoint({
    method: 'POST',
    path: '/v2/user/check-in/make-up',
    body: makeUpBody,
    response: as<CheckInResult>(),
    auth: 'required',
    summary: 'Makes up a missed past day of this month (at most 3 a month); answers the points charged',
  }),
  status: endpoint({
    method: 'GET',
    path: '/v2/user/check-in/status',
    response: as<CheckInStatus>(),
    auth: 'required',
    summary: 'Whether the caller checked in today, streaks, balance, and this month’s make-ups and next cost',
  }),
  records: endpoint({
    method: 'GET',
    path: '/v2/user/check-in/records',
    query: recordsQuery,
    response: as<CheckInRecord[]>(),
    auth: 'required',
    summary: 'The caller’s check-ins of a month (`month=YYYY-MM`, default this month), oldest first',
  }),
  userStatus: endpoint({
    method: 'GET',
    path: '/v2/user/status',
    response: as<UserCheckInStatus>(),
    auth: 'required',
    summary: 'The user status of spec §3: isCheckIn, checkInStreak, hikariPoint',
  }),
} as const;
