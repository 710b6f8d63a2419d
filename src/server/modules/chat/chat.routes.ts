import { chatContract } from '../../../shared/chat/chat.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { chatHistory, clearUnread, listContacts, setBlocked } from './chat.messages.ts';

/** Private messages over HTTP: history, contacts, unread and blocking (sending is on the socket). */
export function chatRoutes(ctx: AppContext) {
  return contractRoutes(ctx, chatContract, {
    history: async (_c, { body, query, user }) => ({
      data: await chatHistory(ctx.db, user.id, body.receiverId, {
        page: query.page,
        limit: query.limit,
        ...(query.before === undefined ? {} : { before: query.before }),
      }),
    }),
    contacts: async (_c, { query, user }) => ({
      data: await listContacts(ctx.db, user.id, { page: query.page, limit: query.limit }),
    }),
    clearUnread: async (_c, { body, user }) => ({ data: await clearUnread(ctx.db, user.id, body.contactUserId) }),
    block: async (_c, { body, user }) => ({
      data: await setBlocked(ctx.db, user.id, body.userId, true),
      message: 'server.chat.blockedDone',
    }),
    unblock: async (_c, { params, user }) => ({
      data: await setBlocked(ctx.db, user.id, params.userId, false),
      message: 'server.chat.unblocked',
    }),
  });
}
