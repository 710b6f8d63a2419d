import { describe, expect, it } from 'vitest';
import { atom } from 'nanostores';
import type { ChatServerFrame, ContactEntry, PrivateMessage } from '../shared/chat/chat-model.ts';
import { chatContract } from '../shared/chat/chat.contract.ts';
import { createChatStore, unreadBadge, type ChatStoreDeps } from './chat.ts';

const ME = 1;
const MIO = { _id: 2, name: 'Mio', avatar: '' };
const REN = { _id: 3, name: 'Ren', avatar: '' };

const stored = (id: number, from: number, to: number, content = `m${id}`): PrivateMessage => ({
  _id: String(id),
  senderId: from,
  receiverId: to,
  content,
  sentAt: new Date(Date.UTC(2026, 10, 24, 10, 0, id)).toISOString(),
  isRead: false,
  readAt: null,
  isDelivered: false,
  clientId: null,
});

const contact = (user: typeof MIO, unreadCount = 0, lastId = 1): ContactEntry => ({
  contactUser: user,
  unreadCount,
  lastMessage: { _id: String(lastId), content: 'x', sentAt: '2026-11-24T10:00:00.000Z' },
  nickname: '',
  isPinned: false,
  pinnedOrder: 0,
  lastMessageTime: '2026-11-24T10:00:00.000Z',
  isBlocked: false,
});

/** A fake server with one conversation per partner, and what the page was told. */
function setup(options: { thread?: PrivateMessage[]; contacts?: ContactEntry[]; connected?: boolean } = {}) {
  const thread = options.thread ?? [];
  const calls: string[] = [];
  const sent: Record<string, unknown>[] = [];
  const announced: string[] = [];
  const failures: string[] = [];
  const timers: (() => void)[] = [];
  let connected = options.connected ?? true;
  let ids = 0;
  const call = (async (
    endpoint: { path: string },
    input?: { body?: Record<string, unknown>; query?: Record<string, number> },
  ) => {
    calls.push(`${endpoint.path} ${JSON.stringify(input?.body ?? {})} ${JSON.stringify(input?.query ?? {})}`);
    if (endpoint.path === chatContract.contacts.path) {
      const all = options.contacts ?? [];
      const page = input?.query?.page ?? 1;
      const limit = input?.query?.limit ?? 20;
      return {
        data: {
          contacts: all.slice((page - 1) * limit, page * limit),
          pagination: { page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) },
        },
      };
    }
    if (endpoint.path === chatContract.history.path) {
      const limit = input?.query?.limit ?? 10;
      const before = input?.query?.before;
      const older = thread.filter((message) => before === undefined || Number(message._id) < before);
      const messages = older.slice(-limit);
      return {
        data: {
          messages,
          hasMore: older.length > messages.length,
          pagination: { page: 1, limit, total: thread.length, totalPages: 1 },
        },
      };
    }
    if (endpoint.path === chatContract.clearUnread.path) return { data: { cleared: 1 } };
    throw new Error(`unexpected ${endpoint.path}`);
  }) as unknown as ChatStoreDeps['call'];
  const store = createChatStore({
    call,
    contract: async () => chatContract,
    connection: {
      $status: atom(connected ? 'connected' : 'disconnected'),
      send: (frame) => {
        if (!connected) return false;
        sent.push(frame as Record<string, unknown>);
        return true;
      },
    },
    me: () => ME,
    announce: (name) => announced.push(name),
    fail: (kind, message) => failures.push(`${kind}: ${message}`),
    visible: () => true,
    newClientId: () => `client-${++ids}`.padEnd(12, 'x'),
    setTimeout: (run) => {
      timers.push(run);
      return timers.length;
    },
    log: () => undefined,
  });
  const flush = () => {
    while (timers.length) timers.shift()!();
  };
  const frame = (value: ChatServerFrame | Record<string, unknown>) => store.onFrame(value as ChatServerFrame);
  return {
    store,
    calls,
    sent,
    announced,
    failures,
    flush,
    frame,
    thread,
    connect: (value: boolean) => (connected = value),
  };
}

describe('chat store (spec §4)', () => {
  it('opens a conversation with its newest page, then clears its unread count', async () => {
    const thread = Array.from({ length: 25 }, (_, i) => stored(i + 1, i % 2 ? ME : MIO._id, i % 2 ? MIO._id : ME));
    const { store, calls } = setup({ thread, contacts: [contact(MIO, 3, 25)] });
    await store.loadContacts();
    await store.open(MIO);
    const view = store.$thread.get()!;
    expect(view.messages.map((m) => m._id)).toEqual(['16', '17', '18', '19', '20', '21', '22', '23', '24', '25']);
    expect(view.hasMore).toBe(true);
    expect(store.$contacts.get()[0]!.unreadCount).toBe(0);
    expect(calls.at(-1)).toContain('"contactUserId":2');
  });

  it('puts older pages before the first message by cursor and says when there are no more', async () => {
    const thread = Array.from({ length: 25 }, (_, i) => stored(i + 1, MIO._id, ME));
    const { store, calls } = setup({ thread });
    await store.open(MIO);
    await store.loadOlder();
    expect(calls.at(-1)).toContain('"before":16');
    expect(store.$thread.get()!.prepended).toBe(10);
    await store.loadOlder();
    const view = store.$thread.get()!;
    expect(view.messages).toHaveLength(25);
    expect(view.prepended).toBe(15);
    expect(view.hasMore).toBe(false);
    const before = calls.length;
    await store.loadOlder();
    expect(calls).toHaveLength(before);
  });

  it('shows ours at once as sending, and as sent 300 ms after the confirmation, in the same place', async () => {
    const { store, sent, frame, flush } = setup();
    await store.open(MIO);
    expect(store.send('hello')).toBeNull();
    const local = store.$thread.get()!.messages[0]!;
    expect(local).toMatchObject({ sending: true, content: 'hello', receiverId: 2 });
    expect(sent).toEqual([{ type: 'message', receiverId: 2, content: 'hello', clientId: local.clientId }]);
    frame({
      type: 'message_sent',
      _id: '41',
      receiverId: 2,
      content: 'hello',
      sentAt: '2026-11-24T11:00:00.000Z',
      clientId: local.clientId,
    });
    // A read receipt may arrive before the 300 ms are over.
    frame({ type: 'read', readerId: 2, senderId: ME, upTo: '41', readAt: '2026-11-24T11:00:01.000Z' });
    expect(store.$thread.get()!.messages[0]!.sending).toBe(true);
    flush();
    expect(store.$thread.get()!.messages).toEqual([
      expect.objectContaining({ _id: '41', sending: false, isRead: true, sentAt: '2026-11-24T11:00:00.000Z' }),
    ]);
    expect(store.$contacts.get()[0]!.lastMessage?._id).toBe('41');
  });

  it('keeps a message typed while disconnected and sends it with the same clientId after the reconnect', async () => {
    const { store, sent, failures, connect } = setup({ connected: false });
    await store.open(MIO);
    store.send('while offline');
    expect(failures).toEqual(['send: notConnected']);
    expect(sent).toEqual([]);
    connect(true);
    store.resend();
    store.resend();
    expect(sent).toHaveLength(2);
    expect(sent[0]!.clientId).toBe(sent[1]!.clientId);
  });

  it('marks a refused message failed, sends it again on retry, and drops it on discard', async () => {
    const { store, sent, frame, failures } = setup();
    await store.open(MIO);
    store.send('too fast');
    const clientId = store.$thread.get()!.messages[0]!.clientId!;
    frame({ type: 'error', message: 'slow down', code: 'RATE_LIMITED', clientId });
    expect(store.$thread.get()!.messages[0]).toMatchObject({ failed: 'slow down', sending: false });
    expect(failures).toEqual(['frame: slow down']);
    store.resend();
    expect(sent).toHaveLength(1);
    store.retry(clientId);
    expect(sent).toHaveLength(2);
    expect(store.$thread.get()!.messages[0]).toMatchObject({ failed: null, sending: true });
    store.discard(clientId);
    expect(store.$thread.get()!.messages).toEqual([]);
  });

  it('refuses empty, over-long and partner-less messages before they leave', async () => {
    const { store, sent } = setup();
    expect(store.send('hi')).toBe('noPartner');
    await store.open(MIO);
    expect(store.send('   \n ')).toBe('empty');
    expect(store.send('\u2800\u200B\u0301')).toBe('empty');
    expect(store.send('字'.repeat(501))).toBe('tooLong');
    expect(store.send('字'.repeat(500))).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('adds a message in the open thread and clears it read; another sender raises their unread count and a toast', async () => {
    const { store, frame, announced, calls } = setup({ contacts: [contact(MIO), contact(REN)] });
    await store.loadContacts();
    await store.open(MIO);
    const message = (id: number, from: number) => ({
      type: 'message' as const,
      _id: String(id),
      senderId: from,
      receiverId: ME,
      content: 'yo',
      sentAt: '2026-11-24T12:00:00.000Z',
    });
    frame(message(50, MIO._id));
    frame(message(50, MIO._id));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.$thread.get()!.messages.map((m) => m._id)).toEqual(['50']);
    expect(calls.filter((line) => line.startsWith(chatContract.clearUnread.path))).not.toHaveLength(0);
    frame(message(51, REN._id));
    frame(message(52, REN._id));
    const ren = store.$contacts.get().find((entry) => entry.contactUser._id === REN._id)!;
    expect(ren.unreadCount).toBe(2);
    expect(store.$contacts.get()[0]!.contactUser._id).toBe(REN._id);
    expect(announced).toEqual(['Ren', 'Ren']);
    // The reader's other tab read Ren's messages.
    frame({ type: 'read', readerId: ME, senderId: REN._id, upTo: '52', readAt: '2026-11-24T12:01:00.000Z' });
    expect(store.$contacts.get().find((entry) => entry.contactUser._id === REN._id)!.unreadCount).toBe(0);
    expect(store.unreadTotal()).toBe(0);
  });

  it('names a first-time sender in the toast once their contact entry has loaded', async () => {
    const options = { contacts: [] as ContactEntry[] };
    const { store, frame, announced, flush } = setup(options);
    await store.loadContacts();
    options.contacts = [contact(REN, 1, 60)];
    frame({
      type: 'message',
      _id: '60',
      senderId: REN._id,
      receiverId: ME,
      content: 'hi',
      sentAt: '2026-11-24T12:00:00.000Z',
    });
    expect(announced).toEqual([]);
    flush();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(announced).toEqual(['Ren']);
    expect(store.$contacts.get()[0]!.contactUser._id).toBe(REN._id);
  });

  it('keeps a message that arrives while the conversation loads, without a toast', async () => {
    const { store, frame, announced } = setup({ thread: [stored(1, MIO._id, ME)], contacts: [contact(MIO, 1, 1)] });
    await store.loadContacts();
    const opening = store.open(MIO);
    frame({
      type: 'message',
      _id: '2',
      senderId: MIO._id,
      receiverId: ME,
      content: 'during the load',
      sentAt: '2026-11-24T12:00:00.000Z',
    });
    await opening;
    expect(store.$thread.get()!.messages.map((m) => m._id)).toEqual(['1', '2']);
    expect(announced).toEqual([]);
    expect(store.$contacts.get()[0]!.unreadCount).toBe(0);
  });

  it('takes a confirmation with another clientId for another tab’s, even with the same words', async () => {
    const { store, frame, flush } = setup();
    await store.open(MIO);
    store.send('ok');
    const ours = store.$thread.get()!.messages[0]!;
    frame({
      type: 'message_sent',
      _id: '10',
      receiverId: 2,
      content: 'ok',
      sentAt: '2026-11-24T12:00:00.000Z',
      clientId: 'othertab-1',
    });
    flush();
    const messages = store.$thread.get()!.messages;
    expect(messages.map((m) => [m._id, m.sending])).toEqual([
      [ours._id, true],
      ['10', false],
    ]);
    // The server refuses ours later: it is still there to be marked.
    frame({ type: 'error', message: 'slow down', code: 'RATE_LIMITED', clientId: ours.clientId });
    expect(store.$thread.get()!.messages[0]).toMatchObject({ failed: 'slow down' });
  });

  it('keeps what a frame changed while the contact list was on its way', async () => {
    const { store, frame } = setup({ contacts: [contact(REN, 0, 5)] });
    await store.loadContacts();
    const reload = store.loadContacts();
    frame({
      type: 'message',
      _id: '9',
      senderId: REN._id,
      receiverId: ME,
      content: 'new',
      sentAt: '2026-11-24T12:00:00.000Z',
    });
    await reload;
    expect(store.$contacts.get()[0]).toMatchObject({ unreadCount: 1, lastMessage: { _id: '9' } });
  });

  it('pages through older conversations, and a reload keeps the pages loaded', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      contact({ _id: 100 + i, name: `m${i}`, avatar: '' }, 0, 1000 - i),
    );
    const { store } = setup({ contacts: many });
    await store.loadContacts();
    expect(store.$contacts.get()).toHaveLength(50);
    expect(store.$contactsState.get().hasMore).toBe(true);
    expect(store.complete()).toBe(false);
    await store.loadMoreContacts();
    expect(store.$contacts.get()).toHaveLength(60);
    expect(store.$contactsState.get().hasMore).toBe(false);
    expect(store.complete()).toBe(true);
    await store.loadContacts();
    expect(store.$contacts.get()).toHaveLength(60);
    expect(store.$contacts.get().at(-1)!.contactUser.name).toBe('m59');
  });

  it('follows presence: the list, changes, and answers about strangers', () => {
    const { store, frame } = setup();
    frame({ type: 'online_users', users: [2, 3] });
    frame({ type: 'user_status', userId: 3, status: 'offline' });
    frame({ type: 'presence', users: [9] });
    expect([...store.$online.get()].sort()).toEqual([2, 9]);
  });

  it('caps unread badges at 99', () => {
    expect(unreadBadge(99)).toBe('99');
    expect(unreadBadge(100)).toBe('99+');
  });
});
