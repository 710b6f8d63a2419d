import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './platform/config.ts';
import { createLogger } from './platform/logger.ts';
import { bootstrap } from './bootstrap.ts';
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

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  if (!existsSync(serverEntry)) {
    process.stderr.write('The site is not built yet: run `npm run build` (or `npm start`, which builds first).\n');
    process.exit(1);
  }
  const { ctx, close } = await bootstrap(config, logger, readBuildId());
  const astro = (await import(serverEntry)) as { handler: AstroHandler };
  const { server, shutdown } = createHttpServer(ctx, { clientDir, astro: astro.handler });

  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info(
      { url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`, database: ctx.dialect },
      'Hikari is listening',
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
