import type { Pagination } from '../catalogue-model.ts';

/**
 * Private messages (spec §2.5, §3, §4, §7 Private messages, §9; issue 16). A message is stored before
 * its sender hears `message_sent`; the contact list holds each member's conversations with their
 * unread counts, last message, pin and nickname.
 */
export const CHAT_MESSAGE_MAX = 500;
export const CHAT_HISTORY_PAGE = 10;
export const CHAT_HISTORY_PAGE_MAX = 50;
export const CHAT_CONTACTS_PAGE = 20;
export const CHAT_CONTACTS_PAGE_MAX = 50;
/** Per member: at most this many messages in CHAT_SEND_WINDOW_MS. */
export const CHAT_SEND_LIMIT = 20;
export const CHAT_SEND_WINDOW_MS = 10_000;
/** A client's id for a message it sends, so a retried send is stored once. */
export const CHAT_CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** Members one `presence` frame may ask about. */
export const CHAT_PRESENCE_ASK_MAX = 50;
/** Pinned conversations one member may hold. */
export const CHAT_PIN_LIMIT = 20;
/** A contact's nickname (the viewer's own name for them), in characters; empty clears it. */
export const CHAT_NICKNAME_MAX = 20;

/** Spec §3 "Private message". `_id` is the message's number, as a string. */
export interface PrivateMessage {
  _id: string;
  senderId: number;
  receiverId: number;
  content: string;
  sentAt: string;
  isRead: boolean;
  readAt: string | null;
  isDelivered: boolean;
  /** The sender's own id for it, when it gave one. */
  clientId: string | null;
}

export interface ChatUser {
  _id: number;
  name: string;
  avatar: string;
}

/** Spec §3 "Contact entry". */
export interface ContactEntry {
  contactUser: ChatUser;
  unreadCount: number;
  lastMessage: { _id: string; content: string; sentAt: string } | null;
  nickname: string;
  isPinned: boolean;
  pinnedOrder: number;
  lastMessageTime: string | null;
  /** The caller blocked this member: their messages are refused. */
  isBlocked: boolean;
}

export interface ChatHistory {
  /** Oldest first: the page of a conversation that ends before the cursor (or at the newest). */
  messages: PrivateMessage[];
  pagination: Pagination;
  /** Older messages exist before the first one here. */
  hasMore: boolean;
}

export interface ContactList {
  contacts: ContactEntry[];
  pagination: Pagination;
}

/** Server frames of /ws/chat (spec §7), with the ids the client needs to match them. */
export type ChatServerFrame =
  | { type: 'message'; _id: string; senderId: number; receiverId: number; content: string; sentAt: string }
  | {
      type: 'message_sent';
      _id: string;
      receiverId: number;
      content: string;
      sentAt: string;
      clientId: string | null;
    }
  /** To the sender: messages they wrote reached an open socket of `receiverId` for the first time. */
  | { type: 'delivered'; receiverId: number; ids: string[]; deliveredAt: string }
  /**
   * To both members: `readerId` read `senderId`'s messages up to the `_id` `upTo`. The sender's
   * messages show read; the reader's other tabs clear that conversation's unread count.
   */
  | { type: 'read'; readerId: number; senderId: number; upTo: string; readAt: string }
  | { type: 'user_status'; userId: number; status: 'online' | 'offline' }
  /** To a new socket: which of its member's contacts are online. */
  | { type: 'online_users'; users: number[] }
  /** The answer to the client's `{type:'presence', userIds}`: which of them are online. */
  | { type: 'presence'; users: number[] }
  | { type: 'error'; message: string; code?: string; clientId?: string | null }
  | { type: 'text'; content: string };
