import { randomBytes } from 'node:crypto';
import { busSessionEvents } from '../auth/auth.events.ts';
import { defineModule, type ServerModule } from '../module.ts';
import { createChatMessaging } from './chat.frames.ts';
import { contactUserIds } from './chat.contacts.ts';
import { createChatPresence, PRESENCE_CONTACTS_MAX } from './chat.presence.ts';
import { CHAT_PATH, createChatGateway, type ChatGateway } from './chat.gateway.ts';
import type { ChatLimits } from './chat.limits.ts';
import { chatRoutes } from './chat.routes.ts';
import { authenticateChat, findEndedSessions } from './chat.sessions.ts';

/** The chat module with other socket limits (tests shorten the heartbeat). */
export function createChatModule(limits: Partial<ChatLimits> = {}): ServerModule {
  return defineModule({
    name: 'chat',
    api: chatRoutes,
    sockets(ctx) {
      // The gateway hands message frames to the messaging, which delivers through the bus back to it.
      let gateway: ChatGateway | null = null;
      const theGateway = () => {
        if (!gateway) throw new Error('chat gateway not created');
        return gateway;
      };
      const processKey = randomBytes(6).toString('hex');
      const messaging = createChatMessaging(ctx, theGateway, processKey);
      const presence = createChatPresence(ctx, processKey, {
        loadContacts: (accountId) => contactUserIds(ctx.db, accountId, PRESENCE_CONTACTS_MAX),
      });
      const unsubscribe = [
        ctx.bus.subscribe('chat.message', (delivery) => messaging.onDelivery(delivery)),
        ctx.bus.subscribe('chat.receipt', (receipt) => messaging.onReceipt(receipt)),
      ];
      gateway = createChatGateway({
        logger: ctx.logger,
        publicOrigin: ctx.config.publicOrigin,
        authenticate: (token) => authenticateChat({ db: ctx.db, secret: ctx.config.jwtSecret }, token),
        findEnded: (identities) => findEndedSessions(ctx.db, identities),
        events: busSessionEvents(ctx),
        onFrame: (frame, socket) =>
          frame.type === 'presence' ? presence.onAsk(frame, socket) : messaging.onFrame(frame, socket),
        onPresence: presence.onPresence,
        onOpen: (socket) => {
          presence
            .onOpen(socket)
            .catch((error: unknown) =>
              ctx.logger.error({ err: error, userId: socket.identity.userId }, 'chat presence on open failed'),
            );
          messaging
            .onOpen(socket)
            .catch((error: unknown) =>
              ctx.logger.error({ err: error, userId: socket.identity.userId }, 'chat delivery on open failed'),
            );
        },
        onClose: presence.onClose,
        socketKey: messaging.socketKey,
        limits,
      });
      const open = gateway;
      const close = async () => {
        for (const stop of unsubscribe) stop();
        messaging.close();
        presence.close();
        await open.close();
      };
      return [{ path: CHAT_PATH, handleUpgrade: open.handleUpgrade, close }];
    },
  });
}

/** Private chat over WebSocket at /ws/chat. */
export const chatModule = createChatModule();
