import type { ChatServerFrame } from '../../../shared/chat/chat-model.ts';
import type { AppContext } from '../../context.ts';
import type { ChatGateway, ChatSocket } from './chat.gateway.ts';
import type { ChatIdentity } from './chat.sessions.ts';

/** One process's change: a member's first socket there opened, or the last one closed. */
export type ChatPresenceChange = { process: string; userId: number; online: boolean };
/** One process's whole list, sent every PRESENCE_SYNC_MS: what keeps its members online elsewhere. */
export type ChatPresenceSync = { process: string; users: number[] };

declare module '../../context.ts' {
  interface AppTopics {
    'chat.presence': ChatPresenceChange;
    'chat.presence_sync': ChatPresenceSync;
  }
}

export const PRESENCE_SYNC_MS = 30_000;
/** A process not heard from for this long is gone (killed, cut off): its members are offline. */
export const PRESENCE_EXPIRY_MS = 75_000;

interface ProcessPresence {
  users: Set<number>;
  heardAt: number;
}

/**
 * Who is online across server processes (issue 16). Each process tells the others through the bus
 * when a member's first socket there opens or last one closes, and every PRESENCE_SYNC_MS sends its
 * whole list. A member is online while any process that was heard from lately lists them; a process
 * that stops being heard from (killed, cut off) drops out after PRESENCE_EXPIRY_MS, so nobody stays
 * online for ever. Changes go to every socket as `user_status`; a new socket gets `online_users`.
 */
export function createChatPresence(
  ctx: Pick<AppContext, 'bus' | 'logger'>,
  gateway: () => ChatGateway,
  process: string,
  options: { syncMs?: number; expiryMs?: number; now?: () => number } = {},
) {
  const now = options.now ?? Date.now;
  const expiryMs = options.expiryMs ?? PRESENCE_EXPIRY_MS;
  const processes = new Map<string, ProcessPresence>([[process, { users: new Set(), heardAt: now() }]]);
  const local = processes.get(process)!;

  const isOnline = (userId: number) => {
    const at = now();
    for (const [key, entry] of processes) {
      if (key !== process && at - entry.heardAt > expiryMs) continue;
      if (entry.users.has(userId)) return true;
    }
    return false;
  };
  const online = () => {
    const at = now();
    const all = new Set<number>();
    for (const [key, entry] of processes)
      if (key === process || at - entry.heardAt <= expiryMs) for (const u of entry.users) all.add(u);
    return [...all].sort((a, b) => a - b);
  };
  // What this process's sockets were last told per member (absent: offline).
  const told = new Set<number>();
  /** Applies a change to the table and tells this process's sockets about members whose state changed. */
  const apply = (users: Iterable<number>, change: () => void) => {
    const watched = [...new Set(users)];
    change();
    for (const userId of watched) {
      const after = isOnline(userId);
      if (after === told.has(userId)) continue;
      if (after) told.add(userId);
      else told.delete(userId);
      gateway().broadcast({
        type: 'user_status',
        userId,
        status: after ? 'online' : 'offline',
      } satisfies ChatServerFrame);
    }
  };
  const remote = (key: string) => {
    let entry = processes.get(key);
    if (!entry) processes.set(key, (entry = { users: new Set(), heardAt: now() }));
    return entry;
  };

  const published = (topic: string) => (error: unknown) =>
    ctx.logger.warn({ err: error, topic }, 'chat presence not published');

  const unsubscribe = [
    ctx.bus.subscribe('chat.presence', (event) => {
      if (event.process === process) return;
      apply([event.userId], () => {
        const entry = remote(event.process);
        entry.heardAt = now();
        if (event.online) entry.users.add(event.userId);
        else entry.users.delete(event.userId);
      });
    }),
    ctx.bus.subscribe('chat.presence_sync', (event) => {
      if (event.process === process) return;
      const entry = processes.get(event.process);
      apply([...(entry?.users ?? []), ...event.users], () => {
        processes.set(event.process, { users: new Set(event.users), heardAt: now() });
      });
    }),
  ];

  const timer = setInterval(() => {
    ctx.bus.publish('chat.presence_sync', { process, users: [...local.users] }).catch(published('chat.presence_sync'));
    // Processes gone silent: their members go offline here (and the entries go).
    const at = now();
    for (const [key, entry] of processes) {
      if (key === process || at - entry.heardAt <= expiryMs) continue;
      apply(entry.users, () => processes.delete(key));
    }
  }, options.syncMs ?? PRESENCE_SYNC_MS);
  timer.unref();

  return {
    /** The gateway's presence hook: this process's first socket of a member opened, or last one closed. */
    onPresence(identity: ChatIdentity, isOn: boolean) {
      const userId = identity.publicId;
      apply([userId], () => {
        if (isOn) local.users.add(userId);
        else local.users.delete(userId);
      });
      ctx.bus.publish('chat.presence', { process, userId, online: isOn }).catch(published('chat.presence'));
    },
    /** A new socket hears who is online. */
    onOpen(socket: ChatSocket) {
      socket.send({ type: 'online_users', users: online() } satisfies ChatServerFrame);
    },
    online,
    close() {
      clearInterval(timer);
      for (const stop of unsubscribe) stop();
    },
  };
}
