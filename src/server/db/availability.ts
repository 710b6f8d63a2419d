import type { PlatformLogger } from '../platform/bus/bus.ts';

/**
 * Whether this process can reach its database now, as its last attempt to open a connection found:
 * a refused or timed-out connection marks it away, the next connection opened marks it back. Pages the
 * page cache holds are served while it is away, and the change is logged once each way (not once per
 * failed request).
 */
export interface DatabaseAvailability {
  readonly reachable: boolean;
  /** When the database was last found away (ms since the epoch), or null while it is reachable. */
  readonly awaySince: number | null;
  /** A connection was opened. */
  reached: () => void;
  /** Opening a connection failed with an error that says the server cannot be reached. */
  failed: (error: unknown) => void;
}

export function createAvailability(
  logger: Pick<PlatformLogger, 'info' | 'error'> | undefined,
  now: () => number = Date.now,
): DatabaseAvailability {
  let awaySince: number | null = null;
  return {
    get reachable() {
      return awaySince === null;
    },
    get awaySince() {
      return awaySince;
    },
    reached() {
      if (awaySince === null) return;
      logger?.info({ awayMs: now() - awaySince }, 'database reachable again');
      awaySince = null;
    },
    failed(error) {
      if (awaySince !== null) return;
      awaySince = now();
      logger?.error({ err: error }, 'database unreachable: requests that need it answer 503 until it is back');
    },
  };
}

/** For SQLite: a file next to the process is there as long as the process is. */
export const ALWAYS_REACHABLE: DatabaseAvailability = {
  reachable: true,
  awaySince: null,
  reached: () => {},
  failed: () => {},
};
