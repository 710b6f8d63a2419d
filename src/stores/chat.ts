import { atom } from 'nanostores';
import { showsNothing } from '../shared/visible-text.ts';
import {
  CHAT_CONTACTS_PAGE_MAX,
  CHAT_HISTORY_PAGE,
  CHAT_MESSAGE_MAX,
  type ChatServerFrame,
  type ChatUser,
  type ContactEntry,
  type PrivateMessage,
} from '../shared/chat/chat-model.ts';
import type { chatContract } from '../shared/chat/chat.contract.ts';
import type { ApiClient } from './api-client.ts';
import type { ChatConnection } from './chat-connection.ts';

/** Spec §4: a confirmed message stops showing as sending 300 ms after `message_sent`. */
export const CHAT_DELIVERED_DELAY_MS = 300;
/** Spec §4, §9: older pages load within 100 px of the top; a new message scrolls down within 10 px of the bottom. */
export const CHAT_LOAD_MORE_PX = 100;
export const CHAT_NEAR_BOTTOM_PX = 10;
/** Spec §9: unread badges show at most 99. */
export const UNREAD_BADGE_CAP = 99;

export const unreadBadge = (count: number) => (count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(count));

/** A message as the thread shows it: a stored one, or one of ours on its way (spec §3 "sending"). */
export interface ChatMessage extends PrivateMessage {
  sending: boolean;
  /** Why the server refused it (it is not sent again by itself). */
  failed: string | null;
}

export interface ChatThread {
  partner: ChatUser;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  /** Oldest first. */
  messages: ChatMessage[];
  /** Older messages are on the server (false: spec's 'no more messages'). */
  hasMore: boolean;
  loadingOlder: boolean;
  olderError: string | null;
  /** How many messages older pages put before the first one loaded (a list's first item index). */
  prepended: number;
}

/** Why a send was refused before it left (spec §5). */
export type SendProblem = 'noPartner' | 'empty' | 'tooLong';

export interface ChatStoreDeps {
  call: ApiClient['call'];
  contract: () => Promise<typeof chatContract>;
  connection: Pick<ChatConnection, 'send' | '$status'>;
  /** The logged-in member's public id. */
  me: () => number | null;
  /** A message arrived in a conversation that is not on screen (spec §4: a toast names the sender). */
  announce: (sender: string, senderId: number) => void;
  /** A server error frame (spec §8 'error: {message}') or a failed call, for a toast. */
  fail: (kind: 'frame' | 'processing' | 'contacts' | 'history' | 'older' | 'send' | 'clear', message: string) => void;
  /** Whether the person can see the page (a hidden tab does not read what arrives). */
  visible: () => boolean;
  newClientId: () => string;
  setTimeout: (run: () => void, ms: number) => unknown;
  log: (message: string, detail?: unknown) => void;
}

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));
const byId = (a: { _id: string }, b: { _id: string }) => Number(a._id) - Number(b._id);
const isStored = (message: ChatMessage) => !message.sending && message.failed === null && /^\d+$/.test(message._id);

/**
 * Private messages in the browser (spec §2.5, §4, §5; issue 16): the contact list, the open thread,
 * who is online, and what this tab is still sending. Frames from the socket and answers of the API are
 * folded in here; the page renders the atoms. Messages are kept once per `_id`; ours carry a clientId
 * so a retry after a lost connection is stored once by the server.
 */
export function createChatStore(deps: ChatStoreDeps) {
  const $contacts = atom<ContactEntry[]>([]);
  const $contactsState = atom<{
    status: 'loading' | 'ready' | 'error';
    error: string | null;
    /** Older conversations are on the server beyond the pages loaded. */
    hasMore: boolean;
    loadingMore: boolean;
  }>({ status: 'loading', error: null, hasMore: false, loadingMore: false });
  const $thread = atom<ChatThread | null>(null);
  const $online = atom<ReadonlySet<number>>(new Set());
  /** Ours not yet confirmed, by clientId, across conversations (sent again after a reconnect). */
  const pending = new Map<string, ChatMessage>();
  /**
   * Receipts may overtake the 300 ms before a confirmed message takes its place: per partner, the
   * greatest of our messages they read, and the ids delivered lately.
   */
  const readUpTo = new Map<number, { upTo: number; readAt: string }>();
  const deliveredIds = new Set<string>();
  /** Senders of messages that arrived before their contact entry: announced by name once it is loaded. */
  const unannounced = new Set<number>();
  let opens = 0;
  let contactLoads = 0;
  let contactReload: unknown = null;
  let contactsComplete = false;
  /** Pages of the contact list loaded so far (a reload reads the first again and keeps the rest). */
  let contactPages = 1;
  const patchContactsState = (change: Partial<ReturnType<typeof $contactsState.get>>) =>
    $contactsState.set({ ...$contactsState.get(), ...change });

  const patchThread = (partnerId: number, change: (thread: ChatThread) => Partial<ChatThread>) => {
    const thread = $thread.get();
    if (!thread || thread.partner._id !== partnerId) return;
    $thread.set({ ...thread, ...change(thread) });
  };

  const sortContacts = (list: ContactEntry[]) =>
    [...list].sort(
      (a, b) =>
        b.pinnedOrder - a.pinnedOrder ||
        Number(b.lastMessage?._id ?? 0) - Number(a.lastMessage?._id ?? 0) ||
        a.contactUser._id - b.contactUser._id,
    );

  const patchContact = (userId: number, change: (entry: ContactEntry) => Partial<ContactEntry>): boolean => {
    const list = $contacts.get();
    const index = list.findIndex((entry) => entry.contactUser._id === userId);
    if (index < 0) return false;
    const next = [...list];
    next[index] = { ...list[index]!, ...change(list[index]!) };
    $contacts.set(sortContacts(next));
    return true;
  };

  async function loadContacts(): Promise<void> {
    const ask = ++contactLoads;
    if ($contactsState.get().status !== 'ready') patchContactsState({ status: 'loading', error: null });
    try {
      const { data } = await deps.call((await deps.contract()).contacts, {
        query: { page: 1, limit: CHAT_CONTACTS_PAGE_MAX },
      });
      if (ask !== contactLoads) return;
      const open = $thread.get()?.partner._id;
      const local = new Map($contacts.get().map((entry) => [entry.contactUser._id, entry]));
      const fresh = new Set(data.contacts.map((entry) => entry.contactUser._id));
      // Older conversations loaded with later pages stay.
      const kept = contactPages > 1 ? [...local.values()].filter((entry) => !fresh.has(entry.contactUser._id)) : [];
      contactsComplete = data.pagination.total <= data.contacts.length + kept.length;
      $contacts.set(
        sortContacts([
          ...kept,
          ...data.contacts.map((entry) => {
            // A frame that arrived while the list was on its way is newer than the list.
            const mine = local.get(entry.contactUser._id);
            const newer =
              mine?.lastMessage && Number(mine.lastMessage._id) > Number(entry.lastMessage?._id ?? 0) ? mine : null;
            const merged = newer
              ? {
                  ...entry,
                  lastMessage: newer.lastMessage,
                  lastMessageTime: newer.lastMessageTime,
                  unreadCount: newer.unreadCount,
                }
              : entry;
            // The open conversation was read here: the server's count may predate this tab's clear.
            return entry.contactUser._id === open ? { ...merged, unreadCount: 0 } : merged;
          }),
        ]),
      );
      patchContactsState({ status: 'ready', error: null, hasMore: !contactsComplete });
      announceWaiting();
    } catch (error) {
      if (ask !== contactLoads) return;
      announceWaiting();
      patchContactsState({ status: 'error', error: errorText(error) });
      deps.fail('contacts', errorText(error));
    }
  }

  /** The next page of older conversations (spec §7: the contacts call takes a page). */
  async function loadMoreContacts(): Promise<void> {
    const state = $contactsState.get();
    if (state.status !== 'ready' || !state.hasMore || state.loadingMore) return;
    patchContactsState({ loadingMore: true });
    const page = contactPages + 1;
    try {
      const { data } = await deps.call((await deps.contract()).contacts, {
        query: { page, limit: CHAT_CONTACTS_PAGE_MAX },
      });
      const have = new Set($contacts.get().map((entry) => entry.contactUser._id));
      const added = data.contacts.filter((entry) => !have.has(entry.contactUser._id));
      contactPages = page;
      const list = sortContacts([...$contacts.get(), ...added]);
      contactsComplete = data.contacts.length < CHAT_CONTACTS_PAGE_MAX || data.pagination.total <= list.length;
      $contacts.set(list);
      patchContactsState({ loadingMore: false, hasMore: !contactsComplete });
    } catch (error) {
      patchContactsState({ loadingMore: false });
      deps.fail('contacts', errorText(error));
    }
  }

  const announceNamed = (senderId: number) => {
    const entry = $contacts.get().find((contact) => contact.contactUser._id === senderId);
    deps.announce(entry?.nickname || entry?.contactUser.name || '', senderId);
  };

  function announceWaiting(): void {
    for (const senderId of unannounced) announceNamed(senderId);
    unannounced.clear();
  }

  /** Someone new wrote: their entry (name, avatar) comes from the server, once for a burst. */
  const reloadContactsSoon = () => {
    if (contactReload !== null) return;
    contactReload = deps.setTimeout(() => {
      contactReload = null;
      void loadContacts();
    }, 200);
  };

  async function clearUnread(partnerId: number): Promise<void> {
    patchContact(partnerId, () => ({ unreadCount: 0 }));
    try {
      await deps.call((await deps.contract()).clearUnread, { body: { contactUserId: partnerId } });
    } catch (error) {
      deps.fail('clear', errorText(error));
    }
  }

  const withPending = (partnerId: number, messages: ChatMessage[]): ChatMessage[] => {
    const known = new Set(messages.map((message) => message.clientId).filter(Boolean));
    const ours = [...pending.values()].filter(
      (message) => message.receiverId === partnerId && !known.has(message.clientId),
    );
    return [...messages, ...ours];
  };

  const stored = (message: PrivateMessage): ChatMessage => ({ ...message, sending: false, failed: null });

  async function open(partner: ChatUser): Promise<void> {
    const ask = ++opens;
    $thread.set({
      partner,
      status: 'loading',
      error: null,
      messages: withPending(partner._id, []),
      hasMore: false,
      loadingOlder: false,
      olderError: null,
      prepended: 0,
    });
    try {
      const { data } = await deps.call((await deps.contract()).history, {
        body: { receiverId: partner._id },
        query: { page: 1, limit: CHAT_HISTORY_PAGE },
      });
      if (ask !== opens) return;
      patchThread(partner._id, (current) => {
        // Messages that arrived (or of ours that were confirmed) while the page was on its way stay.
        const fetched = data.messages.map(stored);
        const have = new Set(fetched.map((message) => message._id));
        const meanwhile = current.messages.filter((message) => isStored(message) && !have.has(message._id));
        return {
          status: 'ready',
          messages: withPending(partner._id, [...fetched, ...meanwhile].sort(byId)),
          hasMore: data.hasMore && data.messages.length >= CHAT_HISTORY_PAGE,
        };
      });
      const entry = $contacts.get().find((contact) => contact.contactUser._id === partner._id);
      const unreadHere = data.messages.some((message) => message.senderId === partner._id && !message.isRead);
      if ((entry?.unreadCount ?? 0) > 0 || unreadHere) void clearUnread(partner._id);
    } catch (error) {
      if (ask !== opens) return;
      patchThread(partner._id, () => ({ status: 'error', error: errorText(error) }));
      deps.fail('history', errorText(error));
    }
  }

  async function loadOlder(): Promise<void> {
    const thread = $thread.get();
    if (!thread || thread.status !== 'ready' || !thread.hasMore || thread.loadingOlder) return;
    const first = thread.messages.find(isStored);
    if (!first) return;
    const partnerId = thread.partner._id;
    const ask = opens;
    patchThread(partnerId, () => ({ loadingOlder: true, olderError: null }));
    try {
      const { data } = await deps.call((await deps.contract()).history, {
        body: { receiverId: partnerId },
        query: { limit: CHAT_HISTORY_PAGE, before: Number(first._id) },
      });
      // The conversation was opened afresh meanwhile: this page no longer joins onto it.
      if (ask !== opens) return;
      patchThread(partnerId, (current) => {
        const have = new Set(current.messages.map((message) => message._id));
        const older = data.messages.filter((message) => !have.has(message._id)).map(stored);
        return {
          loadingOlder: false,
          messages: [...older, ...current.messages],
          prepended: current.prepended + older.length,
          hasMore: data.hasMore && data.messages.length >= CHAT_HISTORY_PAGE,
        };
      });
    } catch (error) {
      if (ask === opens) patchThread(partnerId, () => ({ loadingOlder: false, olderError: errorText(error) }));
      deps.fail('older', errorText(error));
    }
  }

  /** After a reconnect: what arrived meanwhile joins the open thread (or the thread is read afresh). */
  async function catchUp(): Promise<void> {
    void loadContacts();
    const thread = $thread.get();
    if (!thread || thread.status !== 'ready') return;
    const partnerId = thread.partner._id;
    try {
      const { data } = await deps.call((await deps.contract()).history, {
        body: { receiverId: partnerId },
        query: { page: 1, limit: CHAT_HISTORY_PAGE },
      });
      patchThread(partnerId, (current) => {
        const storedNow = current.messages.filter(isStored);
        const newest = storedNow.at(-1);
        const oldestFetched = data.messages[0];
        // A gap between what is shown and the newest page: start from the newest page.
        if (newest && oldestFetched && Number(oldestFetched._id) > Number(newest._id) && data.hasMore) {
          return {
            messages: withPending(partnerId, data.messages.map(stored)),
            prepended: current.prepended,
            hasMore: true,
          };
        }
        const fetched = new Map(data.messages.map((message) => [message._id, stored(message)]));
        const merged = storedNow.map((message) => fetched.get(message._id) ?? message);
        const have = new Set(merged.map((message) => message._id));
        const added = data.messages.filter((message) => !have.has(message._id)).map(stored);
        return { messages: withPending(partnerId, [...merged, ...added].sort(byId)) };
      });
    } catch (error) {
      deps.log('chat catch-up failed', error);
    }
  }

  const frameOf = (message: ChatMessage) => ({
    type: 'message',
    receiverId: message.receiverId,
    content: message.content,
    clientId: message.clientId,
  });

  /**
   * Sends a message to the open conversation (spec §4, §5). It shows at once as sending; when the
   * socket is down it stays pending and goes out after the reconnect (`resend`). Returns what the
   * person must fix, or null.
   */
  function send(text: string): SendProblem | null {
    const thread = $thread.get();
    const me = deps.me();
    if (!thread || me === null) return 'noPartner';
    if (showsNothing(text)) return 'empty';
    if ([...text].length > CHAT_MESSAGE_MAX) return 'tooLong';
    const clientId = deps.newClientId();
    const message: ChatMessage = {
      _id: `local-${clientId}`,
      senderId: me,
      receiverId: thread.partner._id,
      content: text,
      sentAt: new Date().toISOString(),
      isRead: false,
      readAt: null,
      isDelivered: false,
      clientId,
      sending: true,
      failed: null,
    };
    pending.set(clientId, message);
    patchThread(thread.partner._id, (current) => ({ messages: [...current.messages, message] }));
    if (!deps.connection.send(frameOf(message))) deps.fail('send', 'notConnected');
    return null;
  }

  /** Sends again what is still pending (after the socket opened again); the server stores each once. */
  function resend(): void {
    for (const message of pending.values())
      if (message.failed === null && !deps.connection.send(frameOf(message))) return;
  }

  /** Sends a refused message again (the person pressed retry). */
  function retry(clientId: string): void {
    const message = pending.get(clientId);
    if (!message) return;
    const again = { ...message, failed: null, sending: true };
    pending.set(clientId, again);
    patchThread(message.receiverId, (current) => ({
      messages: current.messages.map((item) => (item.clientId === clientId ? again : item)),
    }));
    if (!deps.connection.send(frameOf(again))) deps.fail('send', 'notConnected');
  }

  /** Gives up on a refused message. */
  function discard(clientId: string): void {
    const message = pending.get(clientId);
    if (!message) return;
    pending.delete(clientId);
    patchThread(message.receiverId, (current) => ({
      messages: current.messages.filter((item) => item.clientId !== clientId),
    }));
  }

  const lastOf = (message: { _id: string; content: string; sentAt: string }) => ({
    lastMessage: { _id: message._id, content: message.content, sentAt: message.sentAt },
    lastMessageTime: message.sentAt,
  });

  function confirmed(frame: Extract<ChatServerFrame, { type: 'message_sent' }>): void {
    const local = frame.clientId ? pending.get(frame.clientId) : undefined;
    // Spec §4 matches by content; a frame with a clientId is ours only when that clientId is (another
    // tab of ours may send the same words).
    const mine =
      local ??
      (frame.clientId === null
        ? [...pending.values()].find(
            (message) => message.receiverId === frame.receiverId && message.content === frame.content,
          )
        : undefined);
    const me = deps.me();
    /** The stored message, with the receipts known when it takes its place. */
    const finalMessage = (): ChatMessage => {
      const read = readUpTo.get(frame.receiverId);
      const isRead = read !== undefined && Number(frame._id) <= read.upTo;
      return {
        _id: frame._id,
        senderId: me ?? 0,
        receiverId: frame.receiverId,
        content: frame.content,
        sentAt: frame.sentAt,
        isRead,
        readAt: isRead ? read.readAt : null,
        isDelivered: isRead || deliveredIds.has(frame._id),
        clientId: frame.clientId,
        sending: false,
        failed: null,
      };
    };
    if (mine?.clientId) pending.delete(mine.clientId);
    const place = () =>
      patchThread(frame.receiverId, (current) => {
        const final = finalMessage();
        if (current.messages.some((message) => message._id === frame._id)) {
          return { messages: current.messages.filter((message) => message !== mine || message._id === frame._id) };
        }
        const index = mine ? current.messages.findIndex((message) => message.clientId === mine.clientId) : -1;
        if (index < 0) return { messages: [...current.messages, final] };
        const messages = [...current.messages];
        messages[index] = final;
        return { messages };
      });
    // Spec §4: the sending flag clears 300 ms after the confirmation (a message sent from another tab
    // of ours shows at once).
    if (mine) deps.setTimeout(place, CHAT_DELIVERED_DELAY_MS);
    else place();
    if (!patchContact(frame.receiverId, () => lastOf(frame))) {
      const thread = $thread.get();
      if (thread?.partner._id === frame.receiverId) {
        $contacts.set(
          sortContacts([
            ...$contacts.get(),
            {
              contactUser: thread.partner,
              unreadCount: 0,
              nickname: '',
              isPinned: false,
              pinnedOrder: 0,
              isBlocked: false,
              ...lastOf(frame),
            },
          ]),
        );
      } else reloadContactsSoon();
    }
  }

  function received(frame: Extract<ChatServerFrame, { type: 'message' }>): void {
    const thread = $thread.get();
    // The conversation on screen (also while its page loads: the open clears its unread count).
    const onScreen = thread?.partner._id === frame.senderId && thread.status !== 'error' && deps.visible();
    if (thread?.partner._id === frame.senderId) {
      patchThread(frame.senderId, (current) =>
        current.messages.some((message) => message._id === frame._id)
          ? {}
          : {
              messages: [
                ...current.messages,
                stored({
                  _id: frame._id,
                  senderId: frame.senderId,
                  receiverId: frame.receiverId,
                  content: frame.content,
                  sentAt: frame.sentAt,
                  isRead: false,
                  readAt: null,
                  isDelivered: true,
                  clientId: null,
                }),
              ].sort(byId),
            },
      );
    }
    const known = patchContact(frame.senderId, (entry) => ({
      ...lastOf(frame),
      unreadCount: onScreen ? 0 : entry.unreadCount + 1,
    }));
    if (!known) reloadContactsSoon();
    if (onScreen) {
      if (thread.status === 'ready') void clearUnread(frame.senderId);
      return;
    }
    // A first message from someone: the toast names them once their entry (with the name) has loaded.
    if (known) announceNamed(frame.senderId);
    else unannounced.add(frame.senderId);
  }

  function onFrame(frame: ChatServerFrame): void {
    try {
      switch (frame.type) {
        case 'message':
          received(frame);
          return;
        case 'message_sent':
          confirmed(frame);
          return;
        case 'user_status': {
          const next = new Set($online.get());
          if (frame.status === 'online') next.add(frame.userId);
          else next.delete(frame.userId);
          $online.set(next);
          return;
        }
        case 'online_users':
          $online.set(new Set(frame.users));
          return;
        case 'error': {
          const refused = frame.clientId ? pending.get(frame.clientId) : undefined;
          if (refused?.clientId) {
            const failed = { ...refused, sending: false, failed: frame.message };
            pending.set(refused.clientId, failed);
            patchThread(refused.receiverId, (current) => ({
              messages: current.messages.map((item) => (item.clientId === refused.clientId ? failed : item)),
            }));
          }
          deps.fail('frame', frame.message);
          return;
        }
        case 'text':
          deps.fail('frame', frame.content);
          return;
        default:
          receivedExtra(frame);
      }
    } catch (error) {
      deps.log('chat message processing error', error);
      deps.fail('processing', errorText(error));
    }
  }

  /** Receipts and presence answers (issue 16) beyond the spec's frames; anything else is logged. */
  function receivedExtra(frame: unknown): void {
    const value = frame as { type?: unknown } & Record<string, unknown>;
    const me = deps.me();
    if (value.type === 'delivered' && Array.isArray(value.ids)) {
      const ids = new Set(value.ids.map(String));
      if (deliveredIds.size > 1000) deliveredIds.clear();
      for (const id of ids) deliveredIds.add(id);
      patchThread(Number(value.receiverId), (current) => ({
        messages: current.messages.map((message) =>
          ids.has(message._id) ? { ...message, isDelivered: true } : message,
        ),
      }));
    } else if (value.type === 'read' && typeof value.upTo === 'string') {
      const upTo = Number(value.upTo);
      if (Number(value.readerId) === me) {
        patchContact(Number(value.senderId), () => ({ unreadCount: 0 }));
      } else {
        const readAt = String(value.readAt ?? '');
        const before = readUpTo.get(Number(value.readerId));
        if (!before || before.upTo < upTo) readUpTo.set(Number(value.readerId), { upTo, readAt });
        patchThread(Number(value.readerId), (current) => ({
          messages: current.messages.map((message) =>
            message.senderId === me && isStored(message) && Number(message._id) <= upTo && !message.isRead
              ? { ...message, isRead: true, isDelivered: true, readAt }
              : message,
          ),
        }));
      }
    } else if (value.type === 'presence' && Array.isArray(value.users)) {
      const next = new Set($online.get());
      for (const id of value.users) next.add(Number(id));
      $online.set(next);
    } else {
      deps.log('unknown chat frame', frame);
    }
  }

  /** Asks which of these members (strangers the page shows) are online. */
  function watch(userIds: number[]): void {
    if (userIds.length) deps.connection.send({ type: 'presence', userIds: userIds.slice(0, 50) });
  }

  async function setBlocked(userId: number, blocked: boolean): Promise<string | null> {
    try {
      const contract = await deps.contract();
      if (blocked) await deps.call(contract.block, { body: { userId } });
      else await deps.call(contract.unblock, { params: { userId: String(userId) } });
      patchContact(userId, () => ({ isBlocked: blocked }));
      return null;
    } catch (error) {
      return errorText(error);
    }
  }

  /** Replaces a contact's entry with the server's answer (pin, nickname). */
  const replaceContact = (entry: ContactEntry) =>
    $contacts.set(
      sortContacts($contacts.get().map((item) => (item.contactUser._id === entry.contactUser._id ? entry : item))),
    );

  async function setPinned(userId: number, pinned: boolean): Promise<string | null> {
    try {
      const { data } = await deps.call((await deps.contract()).pin, { body: { contactUserId: userId, pinned } });
      replaceContact(data);
      return null;
    } catch (error) {
      return errorText(error);
    }
  }

  async function setNickname(userId: number, nickname: string): Promise<string | null> {
    try {
      const { data } = await deps.call((await deps.contract()).nickname, {
        body: { contactUserId: userId, nickname: nickname.trim() },
      });
      replaceContact(data);
      return null;
    } catch (error) {
      return errorText(error);
    }
  }

  return {
    $contacts,
    $contactsState,
    setPinned,
    setNickname,
    $thread,
    $online,
    loadContacts,
    loadMoreContacts,
    open,
    /** Closes the open conversation (only `partnerId`'s when given: another holder may show another). */
    close: (partnerId?: number) => {
      if (partnerId !== undefined && $thread.get()?.partner._id !== partnerId) return;
      opens += 1;
      $thread.set(null);
    },
    /** The tab came back into view: what arrived in the open conversation meanwhile is read now. */
    readOpen: () => {
      const thread = $thread.get();
      if (!thread || thread.status !== 'ready') return;
      const entry = $contacts.get().find((contact) => contact.contactUser._id === thread.partner._id);
      if ((entry?.unreadCount ?? 0) > 0) void clearUnread(thread.partner._id);
    },
    /** Whether the contact list holds every conversation (its unread total is then the member's). */
    complete: () => contactsComplete,
    loadOlder,
    send,
    resend,
    retry,
    discard,
    catchUp,
    onFrame,
    watch,
    setBlocked,
    clearUnread,
    /** Total unread across conversations (the private tab's badge). */
    unreadTotal: () => $contacts.get().reduce((sum, entry) => sum + entry.unreadCount, 0),
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
