import { busSessionEvents } from '../auth/auth.events.ts';
import { defineModule, type ServerModule } from '../module.ts';
import { CHAT_PATH, createChatGateway, type ChatLimits } from './chat.gateway.ts';
import { authenticateChat, findEndedSessions } from './chat.sessions.ts';

/** The chat module with other socket limits (tests shorten the heartbeat). */
export function createChatModule(limits: Partial<ChatLimits> = {}): ServerModule {
  return defineModule({
    name: 'chat',
    sockets(ctx) {
      const gateway = createChatGateway({
        logger: ctx.logger,
        publicOrigin: ctx.config.publicOrigin,
        authenticate: (token) => authenticateChat({ db: ctx.db, secret: ctx.config.jwtSecret }, token),
        findEnded: (identities) => findEndedSessions(ctx.db, identities),
        events: busSessionEvents(ctx),
        limits,
      });
      return [{ path: CHAT_PATH, handleUpgrade: gateway.handleUpgrade, close: gateway.close }];
    },
  });
}

/** Private chat over WebSocket at /ws/chat. */
export const chatModule = createChatModule();
