import { messageFrameSchema } from '../../../shared/chat/chat-frames.ts';
import { CHAT_SEND_LIMIT, CHAT_SEND_WINDOW_MS, type ChatServerFrame } from '../../../shared/chat/chat-model.ts';
import { translator } from '../../../shared/i18n/catalogues.ts';
import { translateRef } from '../../../shared/i18n/index.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import type { ChatGateway, ChatSocket, ClientFrame } from './chat.gateway.ts';
import { sendMessage } from './chat.messages.ts';

/**
 * What the bus carries for a stored message: the frames for the receiver's sockets and for the
 * sender's other sockets, in every server process. `origin` names the socket that sent it, which has
 * its `message_sent` already.
 */
export type ChatDelivery = {
  messageId: number;
  receiver: string;
  sender: string;
  origin: string;
  message: Extract<ChatServerFrame, { type: 'message' }>;
  sent: Extract<ChatServerFrame, { type: 'message_sent' }>;
};

declare module '../../context.ts' {
  interface AppTopics {
    'chat.message': ChatDelivery;
  }
}

/**
 * The message frames of /ws/chat (issue 16): a `{type:'message'}` frame is checked, stored (with both
 * contact rows) and only then answered with `message_sent`; the receiver's sockets, in this process
 * or any other, get `message` through the bus. Errors are `{type:'error', message, code, clientId}`
 * frames in the socket's language. A member sends at most CHAT_SEND_LIMIT messages per
 * CHAT_SEND_WINDOW_MS in one process.
 */
export function createChatMessaging(ctx: AppContext, gateway: () => ChatGateway, processKey: string) {
  let sockets = 0;
  const recent = new Map<string, number[]>();

  const tooFast = (userId: string, now: number): boolean => {
    const times = (recent.get(userId) ?? []).filter((at) => now - at < CHAT_SEND_WINDOW_MS);
    if (times.length >= CHAT_SEND_LIMIT) {
      recent.set(userId, times);
      return true;
    }
    times.push(now);
    recent.set(userId, times);
    return false;
  };
  // Forget members who stopped sending, so the map does not grow with every member ever seen.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [userId, times] of recent)
      if (times.every((at) => now - at >= CHAT_SEND_WINDOW_MS)) recent.delete(userId);
  }, CHAT_SEND_WINDOW_MS);
  sweep.unref();

  async function onFrame(frame: ClientFrame, socket: ChatSocket): Promise<void> {
    const t = translator(socket.locale);
    const clientId = typeof frame.clientId === 'string' ? frame.clientId : null;
    const fail = (message: string, code: string) =>
      socket.send({ type: 'error', message: translateRef(t, message), code, clientId } satisfies ChatServerFrame);
    if (frame.type !== 'message') return fail('server.chat.badFrame', 'VALIDATION_FAILED');
    const parsed = messageFrameSchema.safeParse(frame);
    if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'server.chat.badFrame', 'VALIDATION_FAILED');
    if (tooFast(socket.identity.userId, Date.now())) return fail('server.chat.tooFast', 'RATE_LIMITED');
    let sent;
    try {
      sent = await sendMessage(ctx.db, socket.identity.userId, {
        receiverId: parsed.data.receiverId,
        content: parsed.data.content,
        ...(parsed.data.clientId ? { clientId: parsed.data.clientId } : {}),
      });
    } catch (error) {
      if (error instanceof HttpError) return fail(error.message, error.code);
      ctx.logger.error({ err: error, userId: socket.identity.userId }, 'chat message not stored');
      return fail('server.chat.failed', 'INTERNAL_ERROR');
    }
    const { message } = sent;
    const sentFrame: ChatDelivery['sent'] = {
      type: 'message_sent',
      _id: message._id,
      receiverId: message.receiverId,
      content: message.content,
      sentAt: message.sentAt,
      clientId: message.clientId,
    };
    // Stored: now the sender may hear it went out.
    socket.send(sentFrame);
    const delivery: ChatDelivery = {
      messageId: Number(message._id),
      receiver: sent.receiverAccountId,
      sender: socket.identity.userId,
      origin: socket.key,
      message: {
        type: 'message',
        _id: message._id,
        senderId: message.senderId,
        receiverId: message.receiverId,
        content: message.content,
        sentAt: message.sentAt,
      },
      sent: sentFrame,
    };
    // A retry of a stored message is delivered again: the receiver keeps one per `_id`.
    await ctx.bus.publish('chat.message', delivery);
  }

  /** Delivers a stored message to the sockets of this process, and marks it delivered when one got it. */
  async function onDelivery(delivery: ChatDelivery): Promise<void> {
    const got = gateway().deliver(delivery.receiver, delivery.message);
    gateway().deliver(delivery.sender, delivery.sent, delivery.origin);
    if (got === 0) return;
    await ctx.db
      .updateTable('private_message')
      .set({ delivered_at: new Date().toISOString() })
      .where('id', '=', delivery.messageId)
      .where('delivered_at', 'is', null)
      .execute();
  }

  return {
    onFrame,
    onDelivery,
    /** A key for a new socket, unique across processes. */
    socketKey: () => `${processKey}:${++sockets}`,
    close: () => clearInterval(sweep),
  };
}
