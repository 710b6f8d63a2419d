import { atom } from 'nanostores';
import type { ChatServerFrame } from '../shared/chat/chat-model.ts';

/** Spec §4, §9: five reconnect attempts, the delay before attempt n is min(1000 × 1.5^n, 30 000) ms. */
export const CHAT_RECONNECT_ATTEMPTS = 5;
export const CHAT_PING_MS = 25_000;
export const reconnectDelay = (attempt: number) => Math.min(1000 * 1.5 ** attempt, 30_000);

/** The close code of a planned close (logout): nothing to reconnect to (spec §4). */
export const NORMAL_CLOSE = 1000;
/** The server closed the socket because its access token expired: reconnect at once with a new one. */
export const TOKEN_EXPIRED_CLOSE = 4001;
/** Our own close when the browser reports the network gone; any code but 1000 reconnects. */
export const OFFLINE_CLOSE = 4000;

/** What the connection tells the person (spec §4, §6, §8), shown beside the connection status. */
export type ChatNotice =
  | { kind: 'reconnecting'; attempt: number }
  | { kind: 'failed' }
  | { kind: 'noToken' }
  | { kind: 'createFailed'; message: string };

export type ChatStatus = 'disconnected' | 'connected';

/** The parts of a browser WebSocket the connection uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

const OPEN = 1;

export interface ChatConnectionDeps {
  /** The socket address with `?token=`, or null when the member has no access token. */
  address(): Promise<string | null>;
  create(address: string): SocketLike;
  onFrame(frame: ChatServerFrame): void;
  /** The socket opened (first time or after a reconnect): resend what is pending, reload what changed. */
  onOpen(reconnected: boolean): void;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(timer: unknown): void;
  /** The socket failed before it ever opened (spec §8 'chat service connection failed'). */
  onFirstError?(): void;
  /** Unknown frames and handling failures are logged (spec §7, §8). */
  log(message: string, detail?: unknown): void;
}

/**
 * The chat socket of spec §4: disconnected until it opens, disconnected again on close or error; any
 * close but a normal one (1000) reconnects, at most five times with the spec's backoff, then gives up
 * with a notice. A `{type:'ping'}` every 25 s keeps it alive. The page renders the state; this decides.
 */
export function createChatConnection(deps: ChatConnectionDeps) {
  const $status = atom<ChatStatus>('disconnected');
  const $notice = atom<ChatNotice | null>(null);
  let socket: SocketLike | null = null;
  let attempt = 0;
  let retryTimer: unknown = null;
  let pingTimer: unknown = null;
  let stopped = true;
  let opening = false;
  let everOpened = false;

  const stopPing = () => {
    if (pingTimer !== null) deps.clearInterval(pingTimer);
    pingTimer = null;
  };

  function scheduleRetry(): void {
    if (stopped || retryTimer !== null) return;
    if (attempt >= CHAT_RECONNECT_ATTEMPTS) {
      $notice.set({ kind: 'failed' });
      return;
    }
    attempt += 1;
    const shown = attempt;
    $notice.set({ kind: 'reconnecting', attempt: shown });
    retryTimer = deps.setTimeout(() => {
      retryTimer = null;
      void open();
    }, reconnectDelay(shown));
  }

  async function open(): Promise<void> {
    if (stopped || opening || (socket && socket.readyState <= OPEN)) return;
    opening = true;
    let address: string | null;
    try {
      address = await deps.address();
    } catch (error) {
      opening = false;
      deps.log('chat address failed', error);
      scheduleRetry();
      return;
    }
    opening = false;
    if (stopped) return;
    if (!address) {
      $notice.set({ kind: 'noToken' });
      return;
    }
    let made: SocketLike;
    try {
      made = deps.create(address);
    } catch (error) {
      $notice.set({ kind: 'createFailed', message: (error as Error).message || String(error) });
      scheduleRetry();
      return;
    }
    socket = made;
    made.onopen = () => {
      if (socket !== made) return;
      const reconnected = everOpened;
      everOpened = true;
      attempt = 0;
      $status.set('connected');
      $notice.set(null);
      stopPing();
      pingTimer = deps.setInterval(() => {
        if (socket === made && made.readyState === OPEN) made.send(JSON.stringify({ type: 'ping' }));
      }, CHAT_PING_MS);
      deps.onOpen(reconnected);
    };
    made.onmessage = (event) => {
      if (socket !== made || typeof event.data !== 'string') return;
      let frame: ChatServerFrame;
      try {
        frame = JSON.parse(event.data) as ChatServerFrame;
      } catch (error) {
        deps.log('chat frame is not JSON', error);
        return;
      }
      deps.onFrame(frame);
    };
    made.onerror = () => {
      if (socket !== made) return;
      $status.set('disconnected');
      if (!everOpened && attempt === 0) deps.onFirstError?.();
    };
    made.onclose = (event) => {
      if (socket !== made) return;
      socket = null;
      stopPing();
      $status.set('disconnected');
      if (event.code === NORMAL_CLOSE) return;
      if (event.code === TOKEN_EXPIRED_CLOSE && attempt === 0) {
        // A planned renewal: the server ends sockets whose token expired; open one with a fresh token.
        void open();
        return;
      }
      scheduleRetry();
    };
  }

  return {
    $status,
    $notice,
    /** Opens the socket (once; later calls while it is open or opening do nothing). */
    start(): void {
      stopped = false;
      void open();
    },
    /** Closes it for good (the page is left). */
    stop(): void {
      stopped = true;
      if (retryTimer !== null) deps.clearTimeout(retryTimer);
      retryTimer = null;
      stopPing();
      const current = socket;
      socket = null;
      current?.close(NORMAL_CLOSE, 'left');
      $status.set('disconnected');
    },
    /** Starts over after the reconnects gave up or the network came back (a fresh set of five attempts). */
    retry(): void {
      if (stopped) return;
      if (retryTimer !== null) deps.clearTimeout(retryTimer);
      retryTimer = null;
      attempt = 0;
      if (!socket) $notice.set(null);
      void open();
    },
    /** The browser says the network is gone: the socket is dead even if it has not noticed. */
    dropped(): void {
      const current = socket;
      if (!current) return;
      socket = null;
      stopPing();
      $status.set('disconnected');
      current.onclose = null;
      current.close(OFFLINE_CLOSE, 'offline');
      scheduleRetry();
    },
    /**
     * Sends a frame; false when there is no open socket (spec §5: the caller shows an error, and a
     * reconnect is tried here).
     */
    send(frame: object): boolean {
      if (!socket || socket.readyState !== OPEN) {
        if (!stopped && !socket && retryTimer === null) {
          attempt = 0;
          void open();
        }
        return false;
      }
      socket.send(JSON.stringify(frame));
      return true;
    },
  };
}

export type ChatConnection = ReturnType<typeof createChatConnection>;
