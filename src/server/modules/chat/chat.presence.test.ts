import { afterEach, describe, expect, it } from 'vitest';
import type { ChatServerFrame } from '../../../shared/chat/chat-model.ts';
import type { AppTopics } from '../../context.ts';
import { createInProcessBus } from '../../platform/bus/in-process-bus.ts';
import { createLogger } from '../../platform/logger.ts';
import type { ChatGateway, ChatSocket } from './chat.gateway.ts';
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

/** A server process: its presence keeper and the frames its sockets were sent. */
function processOn(bus: ReturnType<typeof createInProcessBus<AppTopics>>, key: string, clock: () => number) {
  const frames: ChatServerFrame[] = [];
  const gateway = { broadcast: (frame: object) => frames.push(frame as ChatServerFrame) } as unknown as ChatGateway;
  const presence = createChatPresence({ bus, logger }, () => gateway, key, { syncMs: 20, expiryMs: 100, now: clock });
  return { presence, frames, statuses: () => frames.filter((f) => f.type === 'user_status') };
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
    const [a, b] = [processOn(bus, 'A', () => now), processOn(bus, 'B', () => now)];
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
    expect(a.presence.online()).toEqual([7]);
    // The last one closes: offline everywhere.
    b.presence.onPresence(member(7), false);
    await settle();
    expect(a.statuses().at(-1)).toEqual({ type: 'user_status', userId: 7, status: 'offline' });
    expect(b.statuses().at(-1)).toEqual({ type: 'user_status', userId: 7, status: 'offline' });

    // A new socket hears the list.
    b.presence.onPresence(member(3), true);
    await settle();
    const sent: object[] = [];
    a.presence.onOpen({ send: (frame: object) => sent.push(frame) } as unknown as ChatSocket);
    expect(sent).toEqual([{ type: 'online_users', users: [3] }]);
  });

  it('takes the members of a process that went silent offline after the expiry', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    let now = 0;
    const a = processOn(bus, 'A', () => now);
    const b = processOn(bus, 'B', () => now);
    stops.push(a.presence.close);
    b.presence.onPresence(member(9), true);
    await settle();
    expect(a.presence.online()).toEqual([9]);
    // Process B dies without a word; A keeps syncing.
    b.presence.close();
    now += 150;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(a.presence.online()).toEqual([]);
    expect(a.statuses().at(-1)).toEqual({ type: 'user_status', userId: 9, status: 'offline' });
  });

  it('learns another process’s members from its periodic list (a process that started later)', async () => {
    const bus = createInProcessBus<AppTopics>({ logger });
    const now = 0;
    const b = processOn(bus, 'B', () => now);
    stops.push(b.presence.close);
    b.presence.onPresence(member(4), true);
    await settle();
    const late = processOn(bus, 'C', () => now);
    stops.push(late.presence.close);
    expect(late.presence.online()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(late.presence.online()).toEqual([4]);
    expect(late.statuses()).toEqual([{ type: 'user_status', userId: 4, status: 'online' }]);
  });
});
