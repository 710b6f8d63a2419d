import { afterEach, describe, expect, it } from 'vitest';
import type { ChatServerFrame } from '../../../shared/chat/chat-model.ts';
import type { AppTopics } from '../../context.ts';
import { createInProcessBus } from '../../platform/bus/in-process-bus.ts';
import { createLogger } from '../../platform/logger.ts';
import type { ChatSocket } from './chat.gateway.ts';
import { createChatPresence } from './chat.presence.ts';
import type { ChatIdentity } from './chat.sessions.ts';

const logger = createLogger('silent');
const member = (publicId: number): ChatIdentity => ({
  userId: `acct-${publicId}`,
  publicId,
  sessionId: null,
  issuedAt: 0,
  expiresAt: 0,
});

/** The contacts of each member, by account id, as the database would answer. */
const CONTACTS: Record<string, number[]> = { 'acct-1000': [3, 4, 7, 9], 'acct-2000': [1000] };

/** A socket of a member that keeps the frames it was sent. */
function socketOf(publicId: number, key: string) {
  const frames: ChatServerFrame[] = [];
  const socket: ChatSocket = {
    identity: member(publicId),
    key,
    locale: 'en',
    send: (frame: object) => frames.push(frame as ChatServerFrame),
  };
  return { socket, frames, statuses: () => frames.filter((f) => f.type === 'user_status') };
}

/** A server process: its presence keeper, and a socket of member 1000 (a contact of 3, 4, 7 and 9) there. */
async function processOn(bus: ReturnType<typeof createInProcessBus<AppTopics>>, key: string, clock: () => number) {
  const presence = createChatPresence({ bus, logger }, key, {
    syncMs: 20,
    expiryMs: 100,
    now: clock,
    loadContacts: async (accountId) => CONTACTS[accountId] ?? [],
  });
  const watcher = socketOf(1000, `${key}:1`);
  presence.onPresence(watcher.socket.identity, true);
  await presence.onOpen(watcher.socket);
  return { presence, frames: watcher.frames, statuses: watcher.statuses };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

// Presence across server processes (issue 16): a member is online while any live process holds a
// socket of theirs; a process that goes silent takes its members offline after the expiry.
describe('chat presence', () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  it('is online while any process holds a socket, and tells every process’s sockets when that changes', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    const now = 0;
    const [a, b] = [await processOn(bus, 'A', () => now), await processOn(bus, 'B', () => now)];
    stops.push(a.presence.close, b.presence.close);

    a.presence.onPresence(member(7), true);
    await settle();
    expect(a.statuses()).toEqual([{ type: 'user_status', userId: 7, status: 'online' }]);
    expect(b.statuses()).toEqual([{ type: 'user_status', userId: 7, status: 'online' }]);
    // A second process gets a socket of the same member: nothing changes for anyone.
    b.presence.onPresence(member(7), true);
    await settle();
    expect(a.statuses()).toHaveLength(1);
    expect(b.statuses()).toHaveLength(1);
    // The first process's socket closes: still online (process B).
    a.presence.onPresence(member(7), false);
    await settle();
    expect(a.statuses()).toHaveLength(1);
    expect(a.presence.online()).toEqual([7, 1000]);
    // The last one closes: offline everywhere.
    b.presence.onPresence(member(7), false);
    await settle();
    expect(a.statuses().at(-1)).toEqual({ type: 'user_status', userId: 7, status: 'offline' });
    expect(b.statuses().at(-1)).toEqual({ type: 'user_status', userId: 7, status: 'offline' });

    // A new socket hears which contacts are online.
    b.presence.onPresence(member(3), true);
    await settle();
    const another = socketOf(1000, 'A:2');
    await a.presence.onOpen(another.socket);
    expect(another.frames).toEqual([{ type: 'online_users', users: [3] }]);
  });

  it('takes the members of a process that went silent offline after the expiry', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    let now = 0;
    const a = await processOn(bus, 'A', () => now);
    // Process B's messages stop when it dies (a killed process says nothing, not even goodbye).
    let dead = false;
    const cut = {
      ...bus,
      publish: ((topic, event) => (dead ? Promise.resolve() : bus.publish(topic, event))) as typeof bus.publish,
    };
    const b = await processOn(cut, 'B', () => now);
    stops.push(a.presence.close);
    b.presence.onPresence(member(9), true);
    await settle();
    expect(a.presence.online()).toEqual([9, 1000]);
    dead = true;
    b.presence.close();
    await settle();
    expect(a.presence.online()).toEqual([9, 1000]);
    now += 150;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(a.presence.online()).toEqual([1000]);
    expect(a.statuses().at(-1)).toEqual({ type: 'user_status', userId: 9, status: 'offline' });
  });

  it('takes the members of a process that shuts down offline at once', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    const now = 0;
    const a = await processOn(bus, 'A', () => now);
    const b = await processOn(bus, 'B', () => now);
    stops.push(a.presence.close);
    b.presence.onPresence(member(9), true);
    await settle();
    expect(a.presence.online()).toEqual([9, 1000]);
    b.presence.close();
    b.presence.onPresence(member(9), false);
    await settle();
    expect(a.presence.online()).toEqual([1000]);
  });

  it('learns another process’s members from its periodic list (a process that started later)', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    const now = 0;
    const b = await processOn(bus, 'B', () => now);
    stops.push(b.presence.close);
    b.presence.onPresence(member(4), true);
    await settle();
    const late = await processOn(bus, 'C', () => now);
    stops.push(late.presence.close);
    expect(late.presence.online()).toEqual([1000]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(late.presence.online()).toEqual([4, 1000]);
    expect(late.statuses()).toEqual([{ type: 'user_status', userId: 4, status: 'online' }]);
  });

  it('sends a long list in parts that fit the bus, and takes it once all of them arrived', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    const sizes: number[] = [];
    bus.subscribe('chat.presence_sync', (event) => void sizes.push(JSON.stringify(event).length));
    const now = 0;
    const b = await processOn(bus, 'B', () => now);
    stops.push(b.presence.close);
    for (let id = 1_000_000_001; id <= 1_000_001_200; id++) b.presence.onPresence(member(id), true);
    const late = await processOn(bus, 'C', () => now);
    stops.push(late.presence.close);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(late.presence.online()).toHaveLength(1201);
    expect(Math.max(...sizes)).toBeLessThan(7900);
  });

  it('tells a member about contacts only, and about whoever they exchange a message with meanwhile', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    const now = 0;
    const a = await processOn(bus, 'A', () => now);
    const b = await processOn(bus, 'B', () => now);
    stops.push(a.presence.close, b.presence.close);
    b.presence.onPresence(member(55), true);
    await settle();
    expect(a.statuses()).toEqual([]);
    // Member 2000 has 1000 as a contact: it hears 1000, who was online before it connected.
    const other = socketOf(2000, 'B:9');
    b.presence.onPresence(other.socket.identity, true);
    await b.presence.onOpen(other.socket);
    expect(other.frames).toEqual([{ type: 'online_users', users: [1000] }]);
    // A message between 1000 and 55: each learns the other's state at once, and hears it from then on.
    await bus.publish('chat.message', {
      messageId: 1,
      sender: 'acct-1000',
      receiver: 'acct-55',
      origin: 'A:1',
      message: { type: 'message', _id: '1', senderId: 1000, receiverId: 55, content: 'hi', sentAt: '' },
      sent: { type: 'message_sent', _id: '1', receiverId: 55, content: 'hi', sentAt: '', clientId: null },
    });
    await settle();
    expect(a.statuses()).toEqual([{ type: 'user_status', userId: 55, status: 'online' }]);
    b.presence.onPresence(member(55), false);
    await settle();
    expect(a.statuses().at(-1)).toEqual({ type: 'user_status', userId: 55, status: 'offline' });
    expect(other.statuses()).toEqual([]);
  });

  it('answers a presence frame and tells that socket about those members until it closes', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    const now = 0;
    const a = await processOn(bus, 'A', () => now);
    stops.push(a.presence.close);
    a.presence.onPresence(member(61), true);
    await settle();
    const asking = socketOf(1000, 'A:2');
    await a.presence.onOpen(asking.socket);
    a.presence.onAsk({ type: 'presence', userIds: [62, 61, 61] }, asking.socket);
    expect(asking.frames.at(-1)).toEqual({ type: 'presence', users: [61] });
    a.presence.onPresence(member(62), true);
    await settle();
    expect(asking.statuses()).toEqual([{ type: 'user_status', userId: 62, status: 'online' }]);
    // The member's other socket did not ask.
    expect(a.statuses()).toEqual([]);
    a.presence.onClose(asking.socket);
    a.presence.onPresence(member(62), false);
    await settle();
    expect(asking.statuses()).toHaveLength(1);

    for (const bad of [
      { type: 'presence', userIds: Array.from({ length: 51 }, (_, i) => i + 1) },
      { type: 'presence', userIds: ['5'] },
      { type: 'presence', userIds: [0] },
      { type: 'presence', userIds: 5 },
      { type: 'presence' },
      { type: 'presence', userIds: [5], extra: true },
    ])
      a.presence.onAsk(bad, asking.socket);
    const errors = asking.frames.filter((f) => f.type === 'error');
    expect(errors).toHaveLength(6);
    expect(errors[0]).toEqual({
      type: 'error',
      code: 'VALIDATION_FAILED',
      message: 'Ask about at most 50 members at a time',
    });
  });
});
