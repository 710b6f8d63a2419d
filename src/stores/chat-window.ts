import { atom } from 'nanostores';
import type { ChatUser } from '../shared/chat/chat-model.ts';

/**
 * The chat window of spec §2.5's modal mode: a conversation opened from a user card on any page, only
 * the chat, at 70vh. Null while closed. The page's overlay host draws it (its code loads with the
 * first opening).
 */
export const $chatWindow = atom<ChatUser | null>(null);

export const openChatWindow = (partner: ChatUser) => $chatWindow.set(partner);
export const closeChatWindow = () => $chatWindow.set(null);
