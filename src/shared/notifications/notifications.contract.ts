import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { OBJECT_ID, queryInt } from '../input-rules.ts';
import {
  NOTIFICATION_PAGE_DEFAULT,
  NOTIFICATION_PAGE_MAX,
  type NotificationPage,
  type BellCounts,
  type UnreadSummary,
} from './notifications.ts';

const listQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: NOTIFICATION_PAGE_MAX, label: 'validation.label.pageSize' }).default(
    NOTIFICATION_PAGE_DEFAULT,
  ),
  filter: z.enum(['all', 'unread'], { error: messageRef('notifications.validation.filter') }).default('all'),
});

const idParams = z.object({
  id: z.string().regex(OBJECT_ID, { error: messageRef('notifications.validation.id') }),
});

/** State changes carry a JSON body (the API's cross-site rule); these take nothing in it. */
const emptyBody = z.strictObject({});

/** The caller's own notifications (decision 021): nobody else's can be read, counted or marked. */
export const notificationsContract = {
  unread: endpoint({
    method: 'GET',
    path: '/v2/user/unread',
    response: as<BellCounts>(),
    auth: 'required',
    summary: 'How many of the caller’s notifications and private messages are unread (spec §7, the bell’s badge)',
  }),
  list: endpoint({
    method: 'GET',
    path: '/v2/user/notifications',
    query: listQuery,
    response: as<NotificationPage>(),
    auth: 'required',
    summary: 'The caller’s notifications, newest first, grouped likes and follows (`filter=unread` for unread ones)',
  }),
  read: endpoint({
    method: 'POST',
    path: '/v2/user/notifications/:id/read',
    params: idParams,
    body: emptyBody,
    response: as<UnreadSummary>(),
    auth: 'required',
    summary: 'Marks one of the caller’s notifications read; answers the unread count after it',
  }),
  readAll: endpoint({
    method: 'POST',
    path: '/v2/user/notifications/read-all',
    body: emptyBody,
    response: as<UnreadSummary>(),
    auth: 'required',
    summary: 'Marks all of the caller’s notifications read',
  }),
} as const;
