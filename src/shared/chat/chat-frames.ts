import { z } from 'zod';
import { messageRef } from '../i18n/index.ts';
import { bodyId, safeText } from '../input-rules.ts';
import { CHAT_CLIENT_ID, CHAT_MESSAGE_MAX, CHAT_PRESENCE_ASK_MAX } from './chat-model.ts';

/** The client's `{type:'message', receiverId, content}` frame (spec §7), with an optional clientId. */
export const messageFrameSchema = z.strictObject({
  type: z.literal('message'),
  receiverId: bodyId('validation.label.userId'),
  content: safeText({ kind: 'multiline', max: CHAT_MESSAGE_MAX, min: 1, label: 'validation.label.chatMessage' }),
  clientId: z.string().regex(CHAT_CLIENT_ID, { error: 'validation.id.invalid' }).optional(),
});

/**
 * The client's `{type:'presence', userIds}` frame: asks which of these members (not contacts yet) are
 * online, and to hear their changes on this socket until it closes.
 */
export const presenceFrameSchema = z.strictObject({
  type: z.literal('presence'),
  userIds: z
    .array(bodyId('validation.label.userId'), { error: 'server.chat.badFrame' })
    .max(CHAT_PRESENCE_ASK_MAX, { error: messageRef('server.chat.presenceTooMany', { max: CHAT_PRESENCE_ASK_MAX }) }),
});
