import type { Generated } from 'kysely';

/** One private message; `id` from the `private_message_id` counter orders a conversation. */
export interface PrivateMessageTable {
  id: number;
  /** The two account ids of the conversation, smaller first, joined by ':'. */
  pair_key: string;
  sender_id: string;
  receiver_id: string;
  content: string;
  client_id: string | null;
  sent_at: string;
  delivered_at: string | null;
  read_at: string | null;
}

/** A member's conversation with one partner, as their contact list shows it. */
export interface ChatContactTable {
  user_id: string;
  contact_id: string;
  unread_count: Generated<number>;
  last_message_id: number | null;
  last_message_at: string | null;
  nickname: Generated<string>;
  /** 0: not pinned; higher numbers were pinned later and come first. */
  pinned_order: Generated<number>;
  created_at: string;
}

export interface ChatBlockTable {
  user_id: string;
  blocked_id: string;
  created_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    private_message: PrivateMessageTable;
    chat_contact: ChatContactTable;
    chat_block: ChatBlockTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    private_message_id: true;
  }
}
