import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { bodyId, decimalId, queryInt, safeText } from '../input-rules.ts';
import {
  CHAT_CONTACTS_PAGE,
  CHAT_CONTACTS_PAGE_MAX,
  CHAT_HISTORY_PAGE,
  CHAT_HISTORY_PAGE_MAX,
  CHAT_NICKNAME_MAX,
  type ChatHistory,
  type ContactEntry,
  type ContactList,
} from './chat-model.ts';

const historyQuery = z.object({
  page: queryInt({ min: 1, max: 100_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: CHAT_HISTORY_PAGE_MAX, label: 'validation.label.pageSize' }).default(
    CHAT_HISTORY_PAGE,
  ),
  /** A message `_id`: the page of messages before it (older pages that do not drift). */
  before: queryInt({ min: 1, max: 2_147_483_647, label: 'validation.label.id' }).optional(),
});

const contactsQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: CHAT_CONTACTS_PAGE_MAX, label: 'validation.label.pageSize' }).default(
    CHAT_CONTACTS_PAGE,
  ),
});

/** Private messages over HTTP (spec §7): history, contacts, unread, pin, nickname, blocking. Sending is on /ws/chat. */
export const chatContract = {
  history: endpoint({
    method: 'POST',
    path: '/private-message/history',
    body: z.strictObject({ receiverId: bodyId('validation.label.userId') }),
    query: historyQuery,
    response: as<ChatHistory>(),
    auth: 'required',
    summary: 'A page of the caller’s conversation with `receiverId`, oldest first (`before` an `_id` for older pages)',
  }),
  contacts: endpoint({
    method: 'GET',
    path: '/private-message/contacts',
    query: contactsQuery,
    response: as<ContactList>(),
    auth: 'required',
    summary: 'The caller’s conversations: pinned first, then the latest message first, with unread counts',
  }),
  clearUnread: endpoint({
    method: 'POST',
    path: '/private-message/contacts/unread/clear',
    body: z.strictObject({ contactUserId: bodyId('validation.label.userId') }),
    response: as<{ cleared: number }>(),
    auth: 'required',
    summary: 'Marks a conversation’s messages to the caller read and clears its unread count',
  }),
  pin: endpoint({
    method: 'POST',
    path: '/private-message/contacts/pin',
    body: z.strictObject({
      contactUserId: bodyId('validation.label.userId'),
      pinned: z.boolean({ error: 'server.chat.pinnedNotBoolean' }),
    }),
    response: as<ContactEntry>(),
    auth: 'required',
    summary: 'Pins a conversation (the latest pinned comes first) or unpins it; at most 20 pinned',
  }),
  nickname: endpoint({
    method: 'POST',
    path: '/private-message/contacts/nickname',
    body: z.strictObject({
      contactUserId: bodyId('validation.label.userId'),
      nickname: safeText({ max: CHAT_NICKNAME_MAX, label: 'server.chat.nicknameLabel' }),
    }),
    response: as<ContactEntry>(),
    auth: 'required',
    summary: 'Sets the caller’s own name for a conversation partner (up to 20 characters; empty clears it)',
  }),
  block: endpoint({
    method: 'POST',
    path: '/private-message/block',
    body: z.strictObject({ userId: bodyId('validation.label.userId') }),
    response: as<{ isBlocked: boolean }>(),
    auth: 'required',
    summary: 'Blocks a member: their messages to the caller are refused',
  }),
  unblock: endpoint({
    method: 'DELETE',
    path: '/private-message/block/:userId',
    params: z.object({ userId: decimalId('validation.label.userId') }),
    response: as<{ isBlocked: boolean }>(),
    auth: 'required',
    summary: 'Unblocks a member',
  }),
} as const;
