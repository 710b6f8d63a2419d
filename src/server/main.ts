import './production-env.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, StartupError, loadConfig } from './platform/config.ts';
import { createLogger } from './platform/logger.ts';
import { createAppContext } from './app-context.ts';
import { createHttpServer, type AstroHandler } from './http/server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const clientDir = path.join(root, 'dist/client');
const serverEntry = path.join(root, 'dist/server/entry.mjs');

function readBuildId(): string {
  const file = path.join(clientDir, 'builds/latest.json');
  if (!existsSync(file)) return 'dev';
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return data && typeof data === 'object' && 'buildId' in data ? String(data.buildId) : 'dev';
}

/** A start that cannot go on: one line saying what is wrong (a stack only when debugging), exit code 1. */
function failStart(error: unknown, logLevel = 'info'): never {
  const known = error instanceof ConfigError || error instanceof StartupError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${known ? message : `Cannot start: ${message.split('\n')[0]}`}\n`);
  if (!known && (logLevel === 'debug' || logLevel === 'trace') && error instanceof Error) {
    process.stderr.write(`${error.stack ?? ''}\n`);
  }
  process.exit(1);
}

async function main(): Promise<void> {
  // Everything the server creates (database, secrets, media, cache) is for its own user only.
  process.umask(0o077);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    failStart(error);
  }
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  const { ctx, close } = await createAppContext(config, { logger, buildId: readBuildId() }).catch((error: unknown) =>
    failStart(error, config.logLevel),
  );
  if (!existsSync(serverEntry)) {
    process.stderr.write('The site is not built yet: run `npm run build` (or `npm start`, which builds first).\n');
    await close();
    process.exit(1);
  }
  const astro = (await import(serverEntry)) as { handler: AstroHandler };
  const { server, shutdown } = createHttpServer(ctx, { clientDir, astro: astro.handler });

  server.listen(config.port, config.host, () => {
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

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void shutdown()
      .then(close)
      .then(() => {
        logger.info('bye');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main();
