import { DATABASE_RETRY_AFTER_S, logInfrastructureFailure } from '../../platform/infrastructure-failure.ts';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type ServerOptions, type WebSocket } from 'ws';
import type { Logger } from '../../platform/logger.ts';
import { HttpError } from '../../platform/errors.ts';
import type { SessionEvents, SessionRevokedEvent } from '../auth/auth.events.ts';
import type { ChatIdentity, SessionEnd } from './chat.sessions.ts';
import { refuseUpgrade } from '../../http/upgrade.ts';
import { requestLocale, type Locale } from '../../../shared/i18n/index.ts';
import { CHAT_CLOSE, CHAT_LIMITS, type ChatClose, type ChatLimits } from './chat.limits.ts';

export const CHAT_PATH = '/ws/chat';

/** An open socket as a frame handler sees it. */
export interface ChatSocket {
  identity: ChatIdentity;
  /** Names this socket (unique across processes when `socketKey` is given). */
  key: string;
  /** The language of the page that opened it (its locale cookie), for the texts of error frames. */
  locale: Locale;
  /** Sends a server frame to this socket (dropped when it is no longer open). */
  send: (frame: object) => void;
}

/** A parsed client frame other than `ping`: a JSON object with a string `type`. */
export type ClientFrame = { type: string } & Record<string, unknown>;

export interface ChatGatewayDeps {
  logger: Logger;
  /** Browsers must send this Origin (PUBLIC_ORIGIN); clients without an Origin header are not browsers. */
  publicOrigin: string;
  /** Checks an upgrade's token; rejects with HttpError (401/403) when it must be refused. */
  authenticate: (token: string) => Promise<ChatIdentity>;
  /** The periodic re-check: in order, why each socket must close, or null. */
  findEnded: (identities: readonly ChatIdentity[]) => Promise<(SessionEnd | null)[]>;
  events: SessionEvents;
  /** Handles a client frame other than `ping` (its errors are logged, never thrown at the socket). */
  onFrame?: (frame: ClientFrame, socket: ChatSocket) => void | Promise<void>;
  /** An account's first socket in this process opened, or its last one closed. */
  onPresence?: (identity: ChatIdentity, online: boolean) => void;
  /** A socket was accepted (after the presence of its account was told). */
  onOpen?: (socket: ChatSocket) => void;
  /** A socket closed (before the presence of its account is told, when it was the last one). */
  onClose?: (socket: ChatSocket) => void;
  /** A name for each new socket. */
  socketKey?: () => string;
  now?: () => number;
  /** Runs `tick` every `ms` until the answered stop is called (tests beat the heartbeat by hand). */
  every?: (ms: number, tick: () => void) => () => void;
  limits?: Partial<ChatLimits>;
}

export interface ChatGateway {
  handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Open sockets, for the health of the process. */
  readonly size: number;
  /**
   * Sends a frame to every open socket of an account in this process (but the one named `except`);
   * answers how many got it.
   */
  deliver: (userId: string, frame: object, except?: string) => number;
  /** Sends a frame to every open socket in this process. */
  broadcast: (frame: object) => void;
  /** Closes every open socket with 1001 (going away). */
  close: () => Promise<void>;
}

interface Connection {
  identity: ChatIdentity;
  key: string;
  locale: Locale;
  /**
   * The payload of the last ping until the pong that echoes it: only a peer that read up to that ping
   * can send it, so neither its own frames nor unasked pongs keep a socket that does not read.
   */
  awaiting: Buffer | null;
  frames: number;
  windowStart: number;
  expiry: NodeJS.Timeout | undefined;
  /** The socket's frames are handled one after another, so its messages are stored in the order sent. */
  queue: Promise<void>;
}

function sameOrigin(origin: string, expected: string): boolean {
  try {
    return new URL(origin).origin === new URL(expected).origin;
  } catch {
    return false;
  }
}

/** A text frame's JSON object with a string `type`, or null. */
function parseFrame(data: RawData): ClientFrame | null {
  try {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      'type' in value &&
      typeof value.type === 'string'
      ? (value as ClientFrame)
      : null;
  } catch {
    return null;
  }
}

const every = (ms: number, tick: () => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** A server frame as the bytes written, made once for all the sockets it goes to. */
const encode = (frame: object): Buffer => Buffer.from(JSON.stringify(frame));

/**
 * The WebSocket entry for private chat (spec §7). An upgrade is accepted only on CHAT_PATH, from our
 * own origin (or a non-browser client), with a valid access token (`?token=`); anything else is
 * refused before the handshake. Open sockets are dropped when they stop answering pings, when the
 * token expires, and when their login ends (logout, revocation, ban).
 */
export function createChatGateway(deps: ChatGatewayDeps): ChatGateway {
  const limits: ChatLimits = { ...CHAT_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const log = deps.logger;
  // No compression: a small compressed frame could inflate far past maxPayload's intent. closeTimeout
  // (ws 8.23; its types lack it) cuts a closed socket whose peer does not answer the close.
  const options: ServerOptions & { closeTimeout: number } = {
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: limits.maxPayload,
    closeTimeout: limits.closeGraceMs,
  };
  const wss = new WebSocketServer(options);
  const connections = new Map<WebSocket, Connection>();
  const byUser = new Map<string, Set<WebSocket>>();
  let pending = 0;
  let socketCount = 0;
  let closing = false;
  let checking = false;

  function end(ws: WebSocket, close: ChatClose): void {
    if (ws.readyState === ws.CLOSING || ws.readyState === ws.CLOSED) return;
    ws.close(close.code, close.reason);
  }

  /**
   * Writes a frame to an open socket, unless its peer left `maxBufferedBytes` unread: that socket is
   * closed instead (4009), and the account's other sockets go on. Answers whether it was written.
   */
  function write(ws: WebSocket, data: Buffer): boolean {
    if (ws.readyState !== ws.OPEN) return false;
    if (ws.bufferedAmount + data.length > limits.maxBufferedBytes) {
      log.info(
        { userId: connections.get(ws)?.identity.userId, buffered: ws.bufferedAmount },
        'chat socket closed: its frames are not read',
      );
      end(ws, CHAT_CLOSE.slowReader);
      return false;
    }
    ws.send(data, { binary: false });
    return true;
  }

  function forget(ws: WebSocket): void {
    const conn = connections.get(ws);
    if (!conn) return;
    clearTimeout(conn.expiry);
    connections.delete(ws);
    deps.onClose?.(socketOf(ws, conn));
    const mine = byUser.get(conn.identity.userId);
    mine?.delete(ws);
    if (mine?.size === 0) {
      byUser.delete(conn.identity.userId);
      deps.onPresence?.(conn.identity, false);
    }
  }

  const socketOf = (ws: WebSocket, conn: Connection): ChatSocket => ({
    identity: conn.identity,
    key: conn.key,
    locale: conn.locale,
    send: (out) => void write(ws, encode(out)),
  });

  function onMessage(ws: WebSocket, conn: Connection, data: RawData, isBinary: boolean): void {
    const at = now();
    if (at - conn.windowStart >= limits.frameWindowMs) {
      conn.windowStart = at;
      conn.frames = 0;
    }
    if (++conn.frames > limits.framesPerWindow) return end(ws, CHAT_CLOSE.flood);
    if (isBinary) return end(ws, CHAT_CLOSE.binary);
    const frame = parseFrame(data);
    if (frame?.type === 'ping') return;
    if (!frame || !deps.onFrame) {
      log.debug({ userId: conn.identity.userId, type: frame?.type ?? null }, 'chat frame not handled');
      return;
    }
    const socket = socketOf(ws, conn);
    conn.queue = conn.queue
      .then(() => deps.onFrame?.(frame, socket))
      .catch((error: unknown) => log.error({ err: error, userId: conn.identity.userId }, 'chat frame failed'));
  }

  function accept(ws: WebSocket, identity: ChatIdentity, locale: Locale): void {
    // Receiver errors (oversized frame, invalid UTF-8, bad opcode) close the socket with 1009/1007/1002
    // on their own; without a listener they would be thrown and end the process.
    ws.on('error', (error) => log.info({ err: error, userId: identity.userId }, 'chat socket error'));
    if (closing) return end(ws, CHAT_CLOSE.shutdown);
    const mine = byUser.get(identity.userId) ?? new Set<WebSocket>();
    if (mine.size >= limits.connectionsPerUser) {
      log.info({ userId: identity.userId, open: mine.size }, 'chat connection refused: too many');
      return end(ws, CHAT_CLOSE.tooManyConnections);
    }
    const first = mine.size === 0;
    byUser.set(identity.userId, mine.add(ws));
    // setTimeout holds at most ~24.8 days; tokens live an hour.
    const untilExpiry = Math.min(Math.max(0, identity.expiresAt - now()), 2 ** 31 - 1);
    const conn: Connection = {
      identity,
      key: deps.socketKey?.() ?? String(++socketCount),
      locale,
      awaiting: null,
      frames: 0,
      windowStart: now(),
      expiry: setTimeout(() => end(ws, CHAT_CLOSE.tokenExpired), untilExpiry),
      queue: Promise.resolve(),
    };
    connections.set(ws, conn);
    ws.on('close', () => forget(ws));
    ws.on('pong', (data) => {
      if (conn.awaiting?.equals(data)) conn.awaiting = null;
    });
    ws.on('message', (data, isBinary) => onMessage(ws, conn, data, isBinary));
    if (first) deps.onPresence?.(identity, true);
    deps.onOpen?.(socketOf(ws, conn));
  }

  function onRevoked(event: SessionRevokedEvent): void {
    const close =
      event.reason === 'logout'
        ? CHAT_CLOSE.loggedOut
        : event.reason === 'banned'
          ? CHAT_CLOSE.banned
          : CHAT_CLOSE.sessionEnded;
    const targets =
      event.scope === 'user'
        ? [...(byUser.get(event.userId) ?? [])]
        : [...connections].filter(([, c]) => c.identity.sessionId === event.familyId).map(([ws]) => ws);
    for (const ws of targets) end(ws, close);
    if (targets.length > 0)
      log.info(
        { scope: event.scope, reason: event.reason, sockets: targets.length },
        'chat sockets closed: session ended',
      );
  }
  const unsubscribe = deps.events.subscribe(onRevoked);

  async function recheck(): Promise<void> {
    if (checking || connections.size === 0) return;
    checking = true;
    try {
      const open = [...connections];
      const verdicts = await deps.findEnded(open.map(([, c]) => c.identity));
      open.forEach(([ws], i) => {
        const verdict = verdicts[i];
        if (verdict) end(ws, verdict === 'banned' ? CHAT_CLOSE.banned : CHAT_CLOSE.sessionEnded);
      });
    } catch (error) {
      log.warn({ err: error }, 'chat session re-check failed');
    } finally {
      checking = false;
    }
  }

  const stopHeartbeat = (deps.every ?? every)(limits.heartbeatMs, () => {
    for (const [ws, conn] of connections) {
      if (conn.awaiting) {
        log.debug({ userId: conn.identity.userId }, 'chat socket dropped: no answer to ping');
        ws.terminate();
      } else if (ws.readyState === ws.OPEN) {
        conn.awaiting = randomBytes(8);
        ws.ping(conn.awaiting);
      }
    }
    void recheck();
  });

  return {
    handleUpgrade(req, socket, head) {
      // Before anything else: a reset on this raw socket would otherwise be an uncaught error.
      socket.on('error', (error) => log.debug({ err: error }, 'upgrade socket error'));
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://localhost');
      } catch {
        return refuseUpgrade(socket, 400);
      }
      if (url.pathname !== CHAT_PATH) return refuseUpgrade(socket, 404);
      if (closing) return refuseUpgrade(socket, 503);
      if (req.headers.upgrade?.toLowerCase() !== 'websocket') return refuseUpgrade(socket, 400);
      const origin = req.headers.origin;
      if (origin !== undefined && !sameOrigin(origin, deps.publicOrigin)) {
        log.info({ path: CHAT_PATH, status: 403, origin }, 'websocket upgrade refused: foreign origin');
        return refuseUpgrade(socket, 403);
      }
      const token = url.searchParams.get('token');
      if (!token) {
        log.info({ path: CHAT_PATH, status: 401 }, 'websocket upgrade refused');
        return refuseUpgrade(socket, 401);
      }
      if (pending >= limits.pendingUpgrades) {
        log.warn({ pending }, 'websocket upgrade refused: too many pending');
        return refuseUpgrade(socket, 503, { 'Retry-After': '5' });
      }
      pending++;
      deps
        .authenticate(token)
        .then(
          (identity) => {
            if (socket.destroyed) return;
            if (closing) return refuseUpgrade(socket, 503);
            const locale = requestLocale(req.headers.cookie);
            wss.handleUpgrade(req, socket, head, (ws) => accept(ws, identity, locale));
          },
          (error: unknown) => {
            const status =
              error instanceof HttpError && (error.status === 401 || error.status === 403) ? error.status : 503;
            // The database away: said once a minute, and the client told when to come back.
            const away = status === 503 && logInfrastructureFailure(log, error);
            if (status === 503 && !away) log.error({ err: error }, 'websocket token check failed');
            else if (status !== 503) log.info({ path: CHAT_PATH, status }, 'websocket upgrade refused');
            refuseUpgrade(socket, status, away ? { 'Retry-After': String(DATABASE_RETRY_AFTER_S) } : {});
          },
        )
        .catch((error: unknown) => {
          log.error({ err: error }, 'websocket upgrade failed');
          socket.destroy();
        })
        .finally(() => pending--);
    },
    get size() {
      return connections.size;
    },
    deliver(userId, frame, except) {
      // Every process hears every message on the bus: most have no socket of the account to encode for.
      const mine = byUser.get(userId);
      if (!mine) return 0;
      const data = encode(frame);
      let got = 0;
      for (const ws of [...mine])
        if ((except === undefined || connections.get(ws)?.key !== except) && write(ws, data)) got++;
      return got;
    },
    broadcast(frame) {
      const data = encode(frame);
      for (const ws of [...connections.keys()]) write(ws, data);
    },
    async close() {
      closing = true;
      stopHeartbeat();
      unsubscribe();
      for (const ws of connections.keys()) end(ws, CHAT_CLOSE.shutdown);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
