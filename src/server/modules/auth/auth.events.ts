/**
 * Session events: logins that ended (logout, revocation, password change). Whatever holds state per
 * login — the chat gateway's open sockets — subscribes and lets go of it at once instead of waiting for
 * the access token to expire.
 *
 * They travel on the app's bus (topic `auth.session_revoked`), so a logout in one server process also
 * closes the sockets another process holds (LISTEN/NOTIFY on PostgreSQL, the cluster primary on SQLite).
 */
import type { AppContext } from '../../context.ts';

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

declare module '../../context.ts' {
  interface AppTopics {
    'auth.session_revoked': SessionRevokedEvent;
  }
}

/** Session events over the app's bus: publishing reaches every process, subscribing hears them all. */
export function busSessionEvents(ctx: Pick<AppContext, 'bus' | 'logger'>): SessionEvents {
  return {
    publish(event) {
      ctx.bus
        .publish('auth.session_revoked', event)
        .catch((error: unknown) => ctx.logger.error({ err: error }, 'session event not published'));
    },
    subscribe: (listener) => ctx.bus.subscribe('auth.session_revoked', listener),
  };
}

/** Session events within one caller (tests of the gateway), without a bus. */
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
