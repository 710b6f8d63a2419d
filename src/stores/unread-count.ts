import { atom } from 'nanostores';

/**
 * The bell's unread count as shown (kept by `stores/unread.ts`, which pages load only for a logged-in
 * member: visitors' pages carry this atom alone).
 */
export const $unreadCount = atom(0);

/** Unread private messages (the bell shows them with the notifications; /message/private keeps it current). */
export const $privateUnread = atom(0);
