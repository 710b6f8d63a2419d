import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { PlatformLogger } from '../platform/bus/bus.ts';
import { createAvailability, type DatabaseAvailability } from './availability.ts';
import { isDatabaseUnavailable } from './db-errors.ts';

/** How long a request waits for a PostgreSQL connection (a new one, or a free one of the pool). */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * The server had ended the connection before the statement sent on it could run: terminated (57P01),
 * shut down (57P02), or a connection the client already knew was broken. A connection that ends with no
 * word while a statement is under way leaves open whether it ran: only a statement that changes nothing
 * (a read, or the start of a transaction) is sent again then.
 */
function endedBeforeRunning(error: unknown, text: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code === '57P01' || e?.code === '57P02') return true;
  if (typeof e?.message !== 'string') return false;
  if (/is not queryable/.test(e.message)) return true;
  return /^Connection terminated unexpectedly/.test(e.message) && /^\s*(select|begin|start transaction)\b/i.test(text);
}

/**
 * A connection taken from the pool whose first statement, if it finds that the server already ended
 * the connection while it sat idle (a terminated backend, a pooler reset, an idle timeout), is run again
 * on another connection. Node may hand out such a connection before it has read the server's goodbye,
 * and a restart ends every idle connection at once, so this goes on while the pool hands out ended ones
 * (at most its size, plus one new). Only the first statement: after it, a broken connection takes its
 * transaction with it, and the request fails (503) as it must.
 */
function replaceableClient(pool: pg.Pool, first: pg.PoolClient, attempts: number): PostgresPoolClient {
  let client = first;
  let used = false;
  const run = (text: string, parameters: readonly unknown[] | undefined) =>
    client.query(text, parameters as unknown[] | undefined);
  const replaceable = {
    // Kysely reads it to cancel a statement (`processID` is pg's, untyped).
    get processID() {
      return (client as pg.PoolClient & { processID?: number }).processID;
    },
    async query(text: string, parameters?: readonly unknown[]) {
      // Kysely's streaming form passes a cursor and no parameters: never repeated.
      if (used || parameters === undefined) return run(text, parameters);
      used = true;
      for (let attempt = 1; ; attempt++) {
        try {
          return await run(text, parameters);
        } catch (error) {
          if (attempt >= attempts || !endedBeforeRunning(error, text)) throw error;
          client.release(error as Error);
          client = await pool.connect();
        }
      }
    },
    release(destroy?: boolean) {
      client.release(destroy);
    },
  };
  // Kysely's type also lists the cursor form of `query`, which goes straight through to pg above.
  return replaceable as unknown as PostgresPoolClient;
}

export interface PostgresPoolOptions {
  poolSize: number;
  logger?: Pick<PlatformLogger, 'warn' | 'info' | 'error'>;
}

/**
 * A pg pool that outlives its server: a connection PostgreSQL ends (a restart, a failover,
 * `pg_terminate_backend`, an idle timeout, a pooler reset) is dropped and replaced instead of ending
 * the process, a connection that cannot be had fails within CONNECT_TIMEOUT_MS, and each attempt to
 * connect tells `availability` whether the server is there.
 */
export function createPostgresPool(
  url: string,
  options: PostgresPoolOptions,
): { pool: PostgresPool; availability: DatabaseAvailability } {
  const { logger } = options;
  const availability = createAvailability(logger);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection that breaks is removed by the pool, which then emits it here.
  pool.on('error', (error) => logger?.warn({ err: error }, 'an idle database connection was closed; it is replaced'));
  // One that breaks while a request holds it fails that request's statement; this listener keeps its
  // 'error' event from ending the process, and the pool drops it when it is given back.
  pool.on('connect', (client) => client.on('error', () => {}));
  const connect = async () => {
    try {
      const client = await pool.connect();
      availability.reached();
      return replaceableClient(pool, client, options.poolSize + 1);
    } catch (error) {
      if (isDatabaseUnavailable(error)) availability.failed(error);
      throw error;
    }
  };
  return { pool: { Client: pg.Client, options: pool.options, connect, end: () => pool.end() }, availability };
}
