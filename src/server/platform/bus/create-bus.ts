import cluster from 'node:cluster';
import type { Db } from '../../db/database.ts';
import type { DatabaseTarget } from '../config.ts';
import type { Bus, PlatformLogger } from './bus.ts';
import { createClusterBus, workerChannel } from './cluster-bus.ts';
import { createInProcessBus } from './in-process-bus.ts';
import { createPostgresBus } from './postgres-bus.ts';

/**
 * The bus that fits: LISTEN/NOTIFY on PostgreSQL; on SQLite, through the cluster primary in a server
 * process among several (WEB_CONCURRENCY > 1), in-process otherwise.
 */
export function createBus<T extends object>(
  target: DatabaseTarget,
  options: { db: Db; logger: PlatformLogger },
): Bus<T> {
  if (target.dialect === 'postgres')
    return createPostgresBus<T>({ url: target.url, db: options.db, logger: options.logger });
  if (cluster.isWorker) {
    return createClusterBus<T>({ logger: options.logger, channel: workerChannel() });
  }
  return createInProcessBus<T>({ logger: options.logger });
}
