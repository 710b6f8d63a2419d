import { z } from 'zod';
import { bodyId, safeText } from '../input-rules.ts';
import { CHAT_CLIENT_ID, CHAT_MESSAGE_MAX } from './chat-model.ts';

/** The client's `{type:'message', receiverId, content}` frame (spec §7), with an optional clientId. */
export const messageFrameSchema = z.strictObject({
  type: z.literal('message'),
  receiverId: bodyId('validation.label.userId'),
  content: safeText({ kind: 'multiline', max: CHAT_MESSAGE_MAX, min: 1, label: 'validation.label.chatMessage' }),
  clientId: z.string().regex(CHAT_CLIENT_ID, { error: 'validation.id.invalid' }).optional(),
});
