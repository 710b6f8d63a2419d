import { logInfrastructureFailure } from '../../platform/infrastructure-failure.ts';
import { presenceFrameSchema } from '../../../shared/chat/chat-frames.ts';
import type { ChatServerFrame } from '../../../shared/chat/chat-model.ts';
import { translator } from '../../../shared/i18n/catalogues.ts';
import { translateRef } from '../../../shared/i18n/index.ts';
import type { AppContext } from '../../context.ts';
import type { ChatSocket, ClientFrame } from './chat.gateway.ts';
import type { ChatIdentity } from './chat.sessions.ts';

/** One process's change: a member's first socket there opened, or the last one closed. */
export type ChatPresenceChange = { process: string; userId: number; online: boolean };
/**
 * One process's whole list, sent every PRESENCE_SYNC_MS: what keeps its members online elsewhere. A
 * bus message holds at most about 8 kB, so a long list goes in parts of one round; the list is taken
 * once all of them arrived.
 */
export type ChatPresenceSync = { process: string; users: number[]; round?: number; part?: number; parts?: number };

/** Members per part of a presence list (ids of up to 10 digits stay well under the bus's 8 kB). */
export const PRESENCE_SYNC_PART = 500;

declare module '../../context.ts' {
  interface AppTopics {
    'chat.presence': ChatPresenceChange;
    'chat.presence_sync': ChatPresenceSync;
  }
}

export const PRESENCE_SYNC_MS = 30_000;
/** A process not heard from for this long is gone (killed, cut off): its members are offline. */
export const PRESENCE_EXPIRY_MS = 75_000;
/** Contacts of one connected member whose presence they hear (the latest conversations first). */
export const PRESENCE_CONTACTS_MAX = 2000;
/** Members one socket watches beyond its member's contacts (asked with `presence`); the oldest go first. */
export const PRESENCE_WATCH_MAX = 500;

interface ProcessPresence {
  users: Set<number>;
  heardAt: number;
}

/** An open socket of a member in this process, with the members it asked about. */
interface Watcher {
  socket: ChatSocket;
  extra: Set<number>;
}

/** A member with sockets in this process: their contacts (public ids) and sockets. */
interface LocalMember {
  contacts: Set<number>;
  sockets: Map<string, Watcher>;
  /** Resolves when the contacts are loaded. */
  ready: Promise<void>;
}

/** A stored message between two members, as the bus carries it (the part presence reads). */
interface MessageEvent {
  sender: string;
  receiver: string;
  message: { senderId: number; receiverId: number };
}

/**
 * Who is online across server processes (issue 16). Each process tells the others through the bus
 * when a member's first socket there opens or last one closes, and every PRESENCE_SYNC_MS sends its
 * whole list. A member is online while any process that was heard from lately lists them; a process
 * that stops being heard from (killed, cut off) drops out after PRESENCE_EXPIRY_MS, so nobody stays
 * online for ever.
 *
 * A member hears about their contacts only (loaded when their first socket here opens, kept while one
 * is open, joined by whoever they exchange a message with meanwhile), and about the members a socket
 * asked for with a `presence` frame: `user_status` when one's state changes, and a new socket gets
 * `online_users` of its member's online contacts. Nobody hears every member.
 */
export function createChatPresence(
  ctx: Pick<AppContext, 'bus' | 'logger'>,
  process: string,
  options: {
    /** A member's contacts (public ids), at most PRESENCE_CONTACTS_MAX. */
    loadContacts: (accountId: string) => Promise<number[]>;
    syncMs?: number;
    expiryMs?: number;
    now?: () => number;
  },
) {
  const now = options.now ?? Date.now;
  const expiryMs = options.expiryMs ?? PRESENCE_EXPIRY_MS;
  const processes = new Map<string, ProcessPresence>([[process, { users: new Set(), heardAt: now() }]]);
  /** Parts of a long presence list by process, until the whole round arrived. */
  const rounds = new Map<string, { round: number; parts: Map<number, number[]> }>();
  const local = processes.get(process)!;
  const members = new Map<string, LocalMember>();
  // Who hears about a member: the local members with them as a contact, and the sockets that asked.
  const byContact = new Map<number, Set<LocalMember>>();
  const byAsk = new Map<number, Set<Watcher>>();

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
  const statusOf = (userId: number): ChatServerFrame => ({
    type: 'user_status',
    userId,
    status: isOnline(userId) ? 'online' : 'offline',
  });

  /** Sends a member's status to every socket here that watches them. */
  const tell = (userId: number) => {
    const frame = statusOf(userId);
    const told = new Set<Watcher>();
    for (const member of byContact.get(userId) ?? [])
      for (const watcher of member.sockets.values()) {
        watcher.socket.send(frame);
        told.add(watcher);
      }
    for (const watcher of byAsk.get(userId) ?? []) if (!told.has(watcher)) watcher.socket.send(frame);
  };

  const index = <T>(map: Map<number, Set<T>>, userId: number, item: T) => {
    const set = map.get(userId) ?? new Set<T>();
    map.set(userId, set.add(item));
  };
  const unindex = <T>(map: Map<number, Set<T>>, userId: number, item: T) => {
    const set = map.get(userId);
    set?.delete(item);
    if (set?.size === 0) map.delete(userId);
  };

  /** Adds a contact to a connected member; answers whether it is new. */
  const addContact = (member: LocalMember, userId: number): boolean => {
    if (member.contacts.has(userId) || member.contacts.size >= PRESENCE_CONTACTS_MAX) return false;
    member.contacts.add(userId);
    index(byContact, userId, member);
    return true;
  };

  // What this process's sockets were last told per member (absent: offline).
  const told = new Set<number>();
  /** Applies a change to the table and tells the watching sockets about members whose state changed. */
  const apply = (users: Iterable<number>, change: () => void) => {
    const watched = [...new Set(users)];
    change();
    for (const userId of watched) {
      const after = isOnline(userId);
      if (after === told.has(userId)) continue;
      if (after) told.add(userId);
      else told.delete(userId);
      tell(userId);
    }
  };
  const remote = (key: string) => {
    let entry = processes.get(key);
    if (!entry) processes.set(key, (entry = { users: new Set(), heardAt: now() }));
    return entry;
  };

  const published = (topic: string) => (error: unknown) =>
    logInfrastructureFailure(ctx.logger, error) ||
    ctx.logger.warn({ err: error, topic }, 'chat presence not published');

  const connected = (accountId: string): LocalMember => {
    let member = members.get(accountId);
    if (member) return member;
    const entry: LocalMember = { contacts: new Set(), sockets: new Map(), ready: Promise.resolve() };
    members.set(accountId, entry);
    entry.ready = options
      .loadContacts(accountId)
      .then((ids) => {
        // The member's last socket may have closed meanwhile.
        if (members.get(accountId) === entry) for (const id of ids) addContact(entry, id);
      })
      .catch((error: unknown) => ctx.logger.warn({ err: error, userId: accountId }, 'chat contacts not loaded'));
    member = entry;
    return member;
  };

  const disconnected = (accountId: string) => {
    const member = members.get(accountId);
    if (!member) return;
    members.delete(accountId);
    for (const userId of member.contacts) unindex(byContact, userId, member);
    for (const watcher of member.sockets.values()) for (const userId of watcher.extra) unindex(byAsk, userId, watcher);
  };

  /** A message between two members: each becomes the other's contact in this process (when connected here). */
  const onMessage = (event: MessageEvent) => {
    const pairs: [string, number][] = [
      [event.sender, event.message.receiverId],
      [event.receiver, event.message.senderId],
    ];
    for (const [accountId, other] of pairs) {
      const member = members.get(accountId);
      if (!member || !addContact(member, other)) continue;
      const frame = statusOf(other);
      for (const watcher of member.sockets.values()) watcher.socket.send(frame);
    }
  };

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
      if (entry) entry.heardAt = now();
      const parts = event.parts ?? 1;
      let users = event.users;
      if (parts > 1) {
        const round = rounds.get(event.process);
        const current =
          round && round.round === event.round
            ? round
            : { round: event.round ?? 0, parts: new Map<number, number[]>() };
        current.parts.set(event.part ?? 0, event.users);
        rounds.set(event.process, current);
        if (current.parts.size < parts) return;
        rounds.delete(event.process);
        users = [...current.parts.values()].flat();
      }
      apply([...(entry?.users ?? []), ...users], () => {
        processes.set(event.process, { users: new Set(users), heardAt: now() });
      });
    }),
    ctx.bus.subscribe('chat.message', onMessage),
  ];

  let round = 0;
  let leaving = false;
  const timer = setInterval(() => {
    const users = [...local.users];
    const parts = Math.max(1, Math.ceil(users.length / PRESENCE_SYNC_PART));
    round += 1;
    for (let part = 0; part < parts; part++) {
      const slice = users.slice(part * PRESENCE_SYNC_PART, (part + 1) * PRESENCE_SYNC_PART);
      ctx.bus
        .publish(
          'chat.presence_sync',
          parts > 1 ? { process, users: slice, round, part, parts } : { process, users: slice },
        )
        .catch(published('chat.presence_sync'));
    }
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
      // Sockets closing during shutdown: the other processes heard this process leave already.
      if (leaving) return;
      const userId = identity.publicId;
      if (isOn) connected(identity.userId);
      else disconnected(identity.userId);
      apply([userId], () => {
        if (isOn) local.users.add(userId);
        else local.users.delete(userId);
      });
      ctx.bus.publish('chat.presence', { process, userId, online: isOn }).catch(published('chat.presence'));
    },
    /** A new socket hears which of its member's contacts are online (once the contacts are loaded). */
    async onOpen(socket: ChatSocket): Promise<void> {
      const member = connected(socket.identity.userId);
      const watcher: Watcher = { socket, extra: new Set() };
      member.sockets.set(socket.key, watcher);
      await member.ready;
      if (member.sockets.get(socket.key) !== watcher) return;
      const users = [...member.contacts].filter(isOnline).sort((a, b) => a - b);
      socket.send({ type: 'online_users', users } satisfies ChatServerFrame);
    },
    /** A socket closed: the members it asked about are no longer watched for it. */
    onClose(socket: ChatSocket) {
      const member = members.get(socket.identity.userId);
      const watcher = member?.sockets.get(socket.key);
      if (!member || !watcher) return;
      member.sockets.delete(socket.key);
      for (const userId of watcher.extra) unindex(byAsk, userId, watcher);
    },
    /**
     * The client's `{type:'presence', userIds}`: which of these members (not contacts yet, such as one
     * whose card opened a conversation) are online; the socket hears their changes until it closes.
     */
    onAsk(frame: ClientFrame, socket: ChatSocket) {
      const parsed = presenceFrameSchema.safeParse(frame);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'server.chat.badFrame';
        return socket.send({
          type: 'error',
          message: translateRef(translator(socket.locale), message),
          code: 'VALIDATION_FAILED',
        } satisfies ChatServerFrame);
      }
      const ids = [...new Set(parsed.data.userIds)];
      const watcher = members.get(socket.identity.userId)?.sockets.get(socket.key);
      if (watcher)
        for (const userId of ids) {
          // Asked again: it becomes the newest.
          watcher.extra.delete(userId);
          watcher.extra.add(userId);
          index(byAsk, userId, watcher);
          if (watcher.extra.size > PRESENCE_WATCH_MAX) {
            const oldest = watcher.extra.values().next().value!;
            watcher.extra.delete(oldest);
            unindex(byAsk, oldest, watcher);
          }
        }
      socket.send({ type: 'presence', users: ids.filter(isOnline).sort((a, b) => a - b) } satisfies ChatServerFrame);
    },
    online,
    close() {
      clearInterval(timer);
      for (const stop of unsubscribe) stop();
      if (leaving) return;
      leaving = true;
      // Shutting down: an empty list takes this process's members offline elsewhere at once, instead of
      // after the expiry.
      ctx.bus.publish('chat.presence_sync', { process, users: [] }).catch(published('chat.presence_sync'));
    },
  };
}
