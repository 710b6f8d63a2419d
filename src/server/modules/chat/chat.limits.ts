/** The limits of /ws/chat sockets and the codes they are closed with (see README.md). */

/**
 * Largest frame a client may send. The biggest legitimate frame is `{type:'message', receiverId,
 * content}` with 500 characters of content; written with JSON escapes that is at most 500 × 12 bytes
 * (a surrogate pair as two `\uXXXX`) = 6000 bytes, plus about 100 for the rest. Larger frames close
 * the socket with 1009.
 */
export const CHAT_MAX_PAYLOAD = 8 * 1024;

/** Limits of the gateway; tests shorten the timings. */
export interface ChatLimits {
  maxPayload: number;
  /** Open sockets one account may hold (tabs and devices); one more is closed with 4008. */
  connectionsPerUser: number;
  /** Upgrades whose token is still being checked; more are refused with 503 until some finish. */
  pendingUpgrades: number;
  /**
   * The server pings (protocol ping) this often and cuts a socket whose peer has not answered the
   * previous ping by then; the client's own frames (its `{type:'ping'}`) do not count as an answer.
   */
  heartbeatMs: number;
  /**
   * Bytes the server may hold unsent for one socket. A frame that would pass it closes the socket
   * (4009) instead: a peer that does not read would otherwise make the process grow without end.
   */
  maxBufferedBytes: number;
  /** A closed socket's peer has this long to answer the close before the socket is cut. */
  closeGraceMs: number;
  /** Frames a client may send per window (it sends a ping every 25 s, and messages by hand). */
  framesPerWindow: number;
  frameWindowMs: number;
}

export const CHAT_LIMITS: ChatLimits = {
  maxPayload: CHAT_MAX_PAYLOAD,
  connectionsPerUser: 5,
  pendingUpgrades: 64,
  heartbeatMs: 30_000,
  // About 700 of the largest message frames, or thousands of usual ones: only a peer that stopped
  // reading gets there.
  maxBufferedBytes: 1024 * 1024,
  // A reading peer answers a close at once; one that does not read never will.
  closeGraceMs: 5_000,
  framesPerWindow: 40,
  frameWindowMs: 10_000,
};

/**
 * Close codes the server uses (the client reconnects after any code but 1000, spec §4). See README.md.
 */
export const CHAT_CLOSE = {
  /** The login was ended by logout: nothing to reconnect with. */
  loggedOut: { code: 1000, reason: 'logged out' },
  shutdown: { code: 1001, reason: 'server shutting down' },
  binary: { code: 1003, reason: 'only text frames are accepted' },
  flood: { code: 1008, reason: 'too many frames' },
  /** The access token expired: reconnect with a refreshed one. */
  tokenExpired: { code: 4001, reason: 'token expired' },
  /** The login was revoked (password change, token reuse): log in again. */
  sessionEnded: { code: 4002, reason: 'session ended' },
  banned: { code: 4003, reason: 'account banned' },
  /** The account already holds `connectionsPerUser` sockets; the new one is refused, older ones stay. */
  tooManyConnections: { code: 4008, reason: 'too many connections' },
  /** The socket holds `maxBufferedBytes` its peer has not read: a fresh socket starts empty. */
  slowReader: { code: 4009, reason: 'too much unread data' },
} as const;

/** One of the close codes with its reason. */
export type ChatClose = (typeof CHAT_CLOSE)[keyof typeof CHAT_CLOSE];
