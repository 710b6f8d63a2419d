import cluster from 'node:cluster';
import { connectDatabase } from './db/connect.ts';
import { prepareDatabase, StartAborted } from './db/prepare.ts';
import { relayClusterBus } from './platform/bus/cluster-bus.ts';
import { createSupervisor } from './platform/cluster/supervisor.ts';
import { createStorage, uploadSecret } from './platform/storage/create-storage.ts';
import { S3Storage } from './platform/storage/storage.s3.ts';
import { ensurePrivateDir, type Config } from './platform/config.ts';
import type { Logger } from './platform/logger.ts';

/**
 * The primary of WEB_CONCURRENCY server processes sharing one port (node:cluster). It migrates the
 * database and loads the demo content once, then starts the workers and serves nothing itself: it
 * relays bus events between the workers (SQLite; PostgreSQL uses LISTEN/NOTIFY), replaces a worker
 * that exits, and stops them all on SIGTERM/SIGINT. See docs/decisions/012-several-processes.md.
 */
export async function runPrimary(
  config: Config,
  logger: Logger,
  options: {
    /** Set when the site is not built: the line to stop with once the database is ready, as one process does. */
    notBuilt: string | undefined;
    /** Ends the start with one line saying why. */
    fail: (error: unknown) => Promise<never>;
  },
): Promise<void> {
  // A signal while migrating ends the primary once the database is ready, before any worker starts.
  let requested: string | undefined;
  const waiting = new AbortController();
  let stop = (signal: string): void => {
    requested ??= signal;
    waiting.abort();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  try {
    const handle = connectDatabase(config.database, { poolSize: 1, logger });
    // The demo seed stores its emoji images (the media folder readable by this user only, as the app makes it).
    if (config.storage.driver === 'local') ensurePrivateDir(config.storage.dir, 'DATA_DIR');
    const storage = createStorage(config, { uploadSecret: uploadSecret(config) });
    try {
      await prepareDatabase(handle, config.database, {
        logger,
        seedDemo: config.seedDemo,
        storage,
        signal: waiting.signal,
      });
    } finally {
      if (storage instanceof S3Storage) storage.close();
      await handle.close();
    }
  } catch (error) {
    if (!(error instanceof StartAborted)) return options.fail(error);
    logger.info({ signal: requested }, 'stopped while waiting for the database');
    process.exit(0);
  }
  if (options.notBuilt) return options.fail(options.notBuilt);

  relayClusterBus(cluster, logger);
  const supervisor = createSupervisor({
    workers: config.webConcurrency,
    fork: () => cluster.fork(),
    logger,
    onReady: (address) => {
      const host = ['0.0.0.0', '127.0.0.1', '::', '::1'].includes(config.host) ? 'localhost' : config.host;
      logger.info(
        {
          banner: true,
          url: `http://${host}:${address.port}`,
          database: config.database.dialect,
          processes: config.webConcurrency,
        },
        'Hikari is ready at',
      );
    },
    onStopped: (code, failure) => {
      if (failure) process.stderr.write(`${failure}\n`);
      else if (code === 0) logger.info('bye');
      process.exit(code);
    },
  });
  if (requested) {
    logger.info({ signal: requested }, 'stopped before starting the server processes');
    process.exit(0);
  }
  stop = (signal) => supervisor.stop(signal);
  supervisor.start();
}
