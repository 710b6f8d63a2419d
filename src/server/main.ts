import './production-env.ts';
import cluster from 'node:cluster';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, StartupError, loadConfig, type Config } from './platform/config.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import type { AstroHandler } from './http/server.ts';
import { settleWithPrimary, type StartFailedMessage } from './platform/cluster/supervisor.ts';

const root = path.resolve(import.meta.dirname, '../..');
const clientDir = path.join(root, 'dist/client');
const serverEntry = path.join(root, 'dist/server/entry.mjs');

function readBuildId(): string {
  const file = path.join(clientDir, 'builds/latest.json');
  if (!existsSync(file)) return 'dev';
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return data && typeof data === 'object' && 'buildId' in data ? String(data.buildId) : 'dev';
}

const NOT_BUILT = 'The site is not built yet: run `npm run build` (or `npm start`, which builds first).';

/**
 * A start that cannot go on: one line saying what is wrong (a stack only when debugging), exit code 1.
 * A worker of several hands the line to the primary, which retries and says it once when it gives up.
 */
async function failStart(error: unknown, logLevel = 'info'): Promise<never> {
  const known = error instanceof ConfigError || error instanceof StartupError;
  if (!known && (logLevel === 'debug' || logLevel === 'trace') && error instanceof Error) {
    process.stderr.write(`${error.stack ?? ''}\n`);
  }
  const message = error instanceof Error ? error.message : String(error);
  const line = known || typeof error === 'string' ? message : `Cannot start: ${message.split('\n')[0]}`;
  if (cluster.isWorker && process.send) {
    const failed: StartFailedMessage = { hikariCluster: 'start-failed', reason: line };
    await new Promise((resolve) => process.send?.(failed, undefined, {}, resolve));
  } else {
    process.stderr.write(`${line}\n`);
  }
  process.exit(1);
}

/** Why `listen` failed, in one line naming the setting to change. */
function listenFailure(error: NodeJS.ErrnoException, config: Config): StartupError | Error {
  const where = `${config.host}:${config.port}`;
  const problems: Record<string, string> = {
    EADDRINUSE: `port ${config.port} on ${config.host} is already in use; stop the server that holds it or set PORT to another port.`,
    EACCES: `this user may not listen on port ${config.port}; set PORT to 1024 or above, or run behind a proxy.`,
    EADDRNOTAVAIL: `${config.host} is not an address of this machine; set HOST to one of its addresses (or 0.0.0.0).`,
  };
  const problem = problems[error.code ?? ''];
  return problem ? new StartupError(error.code === 'EADDRNOTAVAIL' ? 'HOST' : 'PORT', where, problem) : error;
}

/**
 * Serves the site from this process: the whole server when it is the only one, or one worker among
 * WEB_CONCURRENCY, whose primary has already migrated the database (see primary.ts).
 */
async function serve(config: Config, baseLogger: Logger): Promise<void> {
  const worker = cluster.isWorker ? cluster.worker : undefined;
  const logger = worker ? baseLogger.child({ worker: worker.id }) : baseLogger;
  // A signal during the start (migrations, loading the site) is answered once the server exists; one
  // while the start still waits for the database to come up ends the wait and the process at once.
  let requested: string | undefined;
  const waiting = new AbortController();
  let stop = (signal: string): void => {
    requested ??= signal;
    waiting.abort();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Loaded here, not at the top: the primary of several processes never needs the app itself.
  const [{ createAppContext }, { poolSizePerProcess }, { createHttpServer }, { StartAborted }] = await Promise.all([
    import('./app-context.ts'),
    import('./db/connect.ts'),
    import('./http/server.ts'),
    import('./db/prepare.ts'),
  ]);
  const { ctx, close } = await createAppContext(config, {
    logger,
    buildId: readBuildId(),
    poolSize: poolSizePerProcess(worker ? config.webConcurrency : 1),
    signal: waiting.signal,
    ...(worker ? { migrate: false, seedDemo: false } : {}),
  }).catch((error: unknown) => {
    if (!(error instanceof StartAborted)) return failStart(error, config.logLevel);
    logger.info({ signal: requested }, 'stopped while waiting for the database');
    process.exit(0);
  });
  if (!existsSync(serverEntry)) {
    await close();
    return failStart(NOT_BUILT);
  }
  const astro = (await import(serverEntry)) as { handler: AstroHandler };
  const { server, shutdown } = createHttpServer(ctx, { clientDir, astro: astro.handler });

  // Whether listening worked (false: the failed start ends the process). A stop waits for the answer:
  // a cluster worker that closes its server while the primary is still answering its listen trips Node.
  let listened = Promise.resolve(true);
  let stopping = false;
  stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void listened.then((ok) => {
      if (!ok) return;
      return shutdown()
        .then(() => (worker ? settleWithPrimary() : undefined))
        .then(close)
        .then(() => {
          logger.info('bye');
          process.exit(0);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    });
  };
  if (requested) return stop(requested);

  listened = new Promise((resolve) => {
    server.once('listening', () => resolve(true));
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (server.listening) return;
      resolve(false);
      void close().finally(() => failStart(listenFailure(error, config), config.logLevel));
    });
  });
  server.listen(config.port, config.host, () => {
    // With several processes the primary says once that the site is ready.
    if (worker) return;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info(
      {
        banner: true,
        url: `http://${['0.0.0.0', '127.0.0.1', '::', '::1'].includes(config.host) ? 'localhost' : config.host}:${port}`,
        database: ctx.dialect,
      },
      'Hikari is ready at',
    );
  });
}

async function main(): Promise<void> {
  // Everything the server creates (database, secrets, media, cache) is for its own user only.
  process.umask(0o077);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return failStart(error);
  }
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  if (cluster.isPrimary && config.webConcurrency > 1) {
    const { runPrimary } = await import('./primary.ts');
    return runPrimary(config, logger, {
      notBuilt: existsSync(serverEntry) ? undefined : NOT_BUILT,
      fail: (error) => failStart(error, config.logLevel),
    });
  }
  await serve(config, logger);
}

await main();
