/**
 * Session events: logins that ended (logout, revocation, password change). Whatever holds state per
 * login — the chat gateway's open sockets — subscribes and lets go of it at once instead of waiting for
 * the access token to expire.
 *
 * Payloads are plain JSON, so the same publish/subscribe can later be carried between processes (a bus
 * subscribes here, sends each event to the other instances, and they publish it to their own listeners).
 */
export type SessionRevokedEvent =
  /** One login (refresh-token family) ended. */
  | { type: 'session_revoked'; scope: 'family'; familyId: string; reason: string }
  /** Every login of an account ended. */
  | { type: 'session_revoked'; scope: 'user'; userId: string; reason: string };

export type SessionEventListener = (event: SessionRevokedEvent) => void;

export interface SessionEvents {
  publish: (event: SessionRevokedEvent) => void;
  /** Returns the unsubscribe function. */
  subscribe: (listener: SessionEventListener) => () => void;
}

export function createSessionEvents(onListenerError?: (error: unknown) => void): SessionEvents {
  const listeners = new Set<SessionEventListener>();
  return {
    publish(event) {
      for (const listener of listeners) {
        // A failing subscriber must not undo or interrupt the revocation that published the event.
        try {
          listener(event);
        } catch (error) {
          onListenerError?.(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The process-wide event source, used by the auth services and the chat gateway. */
export const sessionEvents: SessionEvents = createSessionEvents();
