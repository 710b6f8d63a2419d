import type { ChatUser, ContactEntry } from '../../../shared/chat/chat-model.ts';
import type { ChatMessage } from '../../../stores/chat.ts';

/** What a message of ours says under it: on its way, refused, then sent, delivered, read. */
export type MessageState = 'sending' | 'failed' | 'sent' | 'delivered' | 'read';

export function messageState(message: ChatMessage): MessageState {
  if (message.failed !== null) return 'failed';
  if (message.sending) return 'sending';
  if (message.isRead) return 'read';
  if (message.isDelivered) return 'delivered';
  return 'sent';
}

/**
 * Which of our messages show their state: the last stored one (as chat apps do), and every one still
 * sending or refused.
 */
export function statesShown(messages: readonly ChatMessage[], me: number | null): Set<string> {
  const shown = new Set<string>();
  let lastStored: ChatMessage | null = null;
  for (const message of messages) {
    if (message.senderId !== me) continue;
    const state = messageState(message);
    if (state === 'sending' || state === 'failed') shown.add(message.clientId ?? message._id);
    else lastStored = message;
  }
  if (lastStored) shown.add(lastStored.clientId ?? lastStored._id);
  return shown;
}

/** The name a contact is shown under: the nickname the member gave, else their name. */
export const contactName = (entry: Pick<ContactEntry, 'nickname' | 'contactUser'>) =>
  entry.nickname.trim() || entry.contactUser.name;

/** A contact list time: the time today, the date this year, the full date before. */
export function contactTime(iso: string | null, locale: string, now: Date = new Date()): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const sameDay = at.toDateString() === now.toDateString();
  const options: Intl.DateTimeFormatOptions = sameDay
    ? { hour: '2-digit', minute: '2-digit', hour12: false }
    : at.getFullYear() === now.getFullYear()
      ? { month: 'numeric', day: 'numeric' }
      : { year: 'numeric', month: 'numeric', day: 'numeric' };
  return new Intl.DateTimeFormat(locale, options).format(at);
}

/** A message's time beside it (hours and minutes; the full date in its title). */
export function messageTime(iso: string, locale: string): { short: string; full: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { short: '', full: '' };
  return {
    short: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hour12: false }).format(at),
    full: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at),
  };
}

/** A day separator's label when a message starts a new day (null when it continues the day before). */
export function dayLabel(message: ChatMessage, previous: ChatMessage | undefined, locale: string): string | null {
  const at = new Date(message.sentAt);
  if (Number.isNaN(at.getTime())) return null;
  if (previous && new Date(previous.sentAt).toDateString() === at.toDateString()) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(at);
}

/** The partner of a conversation opened by id: from the contact list when known. */
export function partnerFromContacts(contacts: readonly ContactEntry[], userId: number): ChatUser | null {
  return contacts.find((entry) => entry.contactUser._id === userId)?.contactUser ?? null;
}

/** A contact's last message as its preview: images as a word in brackets, emoji kept. */
export const previewText = (content: string, imageWord: string) =>
  content.replace(/\[img\][\s\S]*?\[\/img\]/g, `[${imageWord}]`);
