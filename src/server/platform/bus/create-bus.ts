import type { Db } from '../../db/database.ts';
import type { DatabaseTarget } from '../config.ts';
import type { Bus, PlatformLogger } from './bus.ts';
import { createInProcessBus } from './in-process-bus.ts';
import { createPostgresBus } from './postgres-bus.ts';

/** The bus that fits the database: in-process on SQLite (one process), LISTEN/NOTIFY on PostgreSQL. */
export function createBus<T extends object>(
  target: DatabaseTarget,
  options: { db: Db; logger: PlatformLogger },
): Bus<T> {
  if (target.dialect === 'postgres') return createPostgresBus<T>({ url: target.url, ...options });
  return createInProcessBus<T>({ logger: options.logger });
}
