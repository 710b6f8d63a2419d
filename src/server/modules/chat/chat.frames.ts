import { infrastructureError, logInfrastructureFailure } from '../../platform/infrastructure-failure.ts';
import { messageFrameSchema } from '../../../shared/chat/chat-frames.ts';
import { CHAT_SEND_LIMIT, CHAT_SEND_WINDOW_MS, type ChatServerFrame } from '../../../shared/chat/chat-model.ts';
import { translator } from '../../../shared/i18n/catalogues.ts';
import { translateRef } from '../../../shared/i18n/index.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import type { ChatGateway, ChatSocket, ClientFrame } from './chat.gateway.ts';
import { markDelivered, markDeliveredTo, type ReadReceipt } from './chat.messages.ts';
import { sendMessage } from './chat.send.ts';

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

/** A receipt for the sockets of some accounts, in every server process: `delivered` or `read`. */
export type ChatReceipt = {
  to: string[];
  frame: Extract<ChatServerFrame, { type: 'delivered' } | { type: 'read' }>;
};

declare module '../../context.ts' {
  interface AppTopics {
    'chat.message': ChatDelivery;
    'chat.receipt': ChatReceipt;
  }
}

/** Ids per `delivered` event: a bus payload stays far below its size limit. */
const RECEIPT_IDS_MAX = 200;

/**
 * The fault point of the crash test: with NODE_ENV=test and HIKARI_TEST_CHAT_CRASH=after-store, the
 * process kills itself right after a new message is stored, before `message_sent` is written. Read
 * once; nothing else sets it, so outside tests it is inert.
 */
const crashAfterStore = process.env.NODE_ENV === 'test' && process.env.HIKARI_TEST_CHAT_CRASH === 'after-store';

/**
 * Tells the reader's and the sender's sockets in every process that a conversation was read. A
 * failure is logged: the messages are marked read all the same.
 */
export async function publishRead(ctx: Pick<AppContext, 'bus' | 'logger'>, receipt: ReadReceipt): Promise<void> {
  try {
    await ctx.bus.publish('chat.receipt', {
      to: [receipt.senderAccountId, receipt.readerAccountId],
      frame: receipt.frame,
    });
  } catch (error) {
    ctx.logger.warn({ err: error, topic: 'chat.receipt' }, 'chat read receipt not published');
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
      // The database away or its disk full: said to the sender (who may retry), the socket stays open.
      const infrastructure = infrastructureError(error);
      if (infrastructure && logInfrastructureFailure(ctx.logger, error)) {
        return fail(infrastructure.message, infrastructure.code);
      }
      ctx.logger.error({ err: error, userId: socket.identity.userId }, 'chat message not stored');
      return fail('server.chat.failed', 'INTERNAL_ERROR');
    }
    if (crashAfterStore && !sent.duplicate) process.kill(process.pid, 'SIGKILL');
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

  const publishDelivered = async (senderAccountId: string, frame: Extract<ChatServerFrame, { type: 'delivered' }>) => {
    for (let i = 0; i < frame.ids.length; i += RECEIPT_IDS_MAX) {
      await ctx.bus
        .publish('chat.receipt', {
          to: [senderAccountId],
          frame: { ...frame, ids: frame.ids.slice(i, i + RECEIPT_IDS_MAX) },
        })
        .catch((error: unknown) =>
          ctx.logger.warn({ err: error, topic: 'chat.receipt' }, 'chat delivery receipt not published'),
        );
    }
  };

  /**
   * Delivers a stored message to the sockets of this process. The first time one of the receiver's
   * sockets got it, it is marked delivered and the sender hears `delivered`.
   */
  async function onDelivery(delivery: ChatDelivery): Promise<void> {
    const got = gateway().deliver(delivery.receiver, delivery.message);
    gateway().deliver(delivery.sender, delivery.sent, delivery.origin);
    if (got === 0) return;
    const deliveredAt = new Date().toISOString();
    if (!(await markDelivered(ctx.db, delivery.messageId, deliveredAt))) return;
    await publishDelivered(delivery.sender, {
      type: 'delivered',
      receiverId: delivery.message.receiverId,
      ids: [delivery.message._id],
      deliveredAt,
    });
  }

  /** A member's socket opened: what was sent to them while no socket of theirs was open is delivered now. */
  async function onOpen(socket: ChatSocket): Promise<void> {
    const deliveredAt = new Date().toISOString();
    const batches = await markDeliveredTo(ctx.db, socket.identity.userId, deliveredAt);
    for (const batch of batches)
      await publishDelivered(batch.senderAccountId, {
        type: 'delivered',
        receiverId: socket.identity.publicId,
        ids: batch.ids,
        deliveredAt,
      });
  }

  /** A receipt: to the named accounts' sockets in this process. */
  function onReceipt(receipt: ChatReceipt): void {
    for (const account of new Set(receipt.to)) gateway().deliver(account, receipt.frame);
  }

  return {
    onFrame,
    onDelivery,
    onOpen,
    onReceipt,
    /** A key for a new socket, unique across processes. */
    socketKey: () => `${processKey}:${++sockets}`,
    close: () => clearInterval(sweep),
  };
}
