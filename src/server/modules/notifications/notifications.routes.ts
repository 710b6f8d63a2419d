import { notificationsContract } from '../../../shared/notifications/notifications.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { chatUnreadTotal } from '../chat/chat.messages.ts';
import { listNotifications, markAllRead, markRead, unreadCount } from './notifications.service.ts';

/** The caller's notifications: count, list, mark read (decision 021). */
export function notificationsRoutes(ctx: AppContext) {
  const deps = { db: ctx.db, targets: ctx.targets };
  return contractRoutes(ctx, notificationsContract, {
    unread: async (_c, { user }) => ({
      data: { unreadCount: await unreadCount(ctx.db, user.id), privateUnread: await chatUnreadTotal(ctx.db, user.id) },
    }),

    list: async (_c, { query, user }) => ({
      data: await listNotifications(deps, user.id, {
        page: query.page,
        limit: query.limit,
        unread: query.filter === 'unread',
      }),
    }),

    read: async (_c, { params, user }) => ({ data: await markRead(ctx.db, user.id, params.id) }),

    readAll: async (_c, { user }) => ({
      data: await markAllRead(ctx.db, user.id),
      message: 'server.notifications.allRead',
    }),
  });
}
