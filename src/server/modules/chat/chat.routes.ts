import { chatContract } from '../../../shared/chat/chat.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { publishRead } from './chat.frames.ts';
import { listContacts, setNickname, setPinned } from './chat.contacts.ts';
import { chatHistory, clearUnread, setBlocked } from './chat.messages.ts';

/** Private messages over HTTP: history, contacts, unread, pin, nickname and blocking (sending is on the socket). */
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
    clearUnread: async (_c, { body, user }) => {
      const { cleared, receipt } = await clearUnread(ctx.db, user.id, body.contactUserId);
      if (receipt) await publishRead(ctx, receipt);
      return { data: { cleared } };
    },
    pin: async (_c, { body, user }) => ({
      data: await setPinned(ctx.db, user.id, body.contactUserId, body.pinned),
    }),
    nickname: async (_c, { body, user }) => ({
      data: await setNickname(ctx.db, user.id, body.contactUserId, body.nickname),
    }),
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
