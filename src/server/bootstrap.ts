import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { ensurePrivateDir, type Config } from './platform/config.ts';
import type { Logger } from './platform/logger.ts';
import type { AppContext } from './context.ts';
import { connectDatabase, explainDatabaseError } from './db/connect.ts';
import { migrateToLatest } from './db/migrator.ts';
import { needsDemoSeed, runDemoSeed } from './db/seed/demo-seed.ts';
import { createMailer } from './platform/mail.ts';
import { createViewCounter } from './modules/catalogue/view-counter.ts';
import { pruneAuthData } from './modules/auth/auth.housekeeping.ts';
import { pruneImageCache } from './modules/media/image-cache.ts';
import path from 'node:path';

export function readVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return pkg && typeof pkg === 'object' && 'version' in pkg ? String(pkg.version) : '0.0.0';
}

export interface Bootstrapped {
  ctx: AppContext;
  close: () => Promise<void>;
}

/**
 * Opens the database, applies migrations and, on an empty database, loads the demo content. A database
 * that cannot be used fails with a StartupError (one line naming the file and the variable).
 */
export async function bootstrap(config: Config, logger: Logger, buildId: string): Promise<Bootstrapped> {
  // Media and the image cache hold what users uploaded: readable by this user only.
  if (config.storage.driver === 'local') ensurePrivateDir(config.storage.dir, 'DATA_DIR');
  ensurePrivateDir(path.join(config.dataDir, 'cache/img'), 'DATA_DIR');
  const handle = connectDatabase(config.database);
  try {
    // A first query surfaces an unreachable server or a damaged file with its own error code.
    await sql`select 1`.execute(handle.db).catch((error: unknown) => {
      throw explainDatabaseError(error, config.database) ?? error;
    });
    const applied = await migrateToLatest(handle.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    if (config.seedDemo && (await needsDemoSeed(handle.db))) {
      const summary = await runDemoSeed(handle.db);
      logger.info({ seed: summary }, 'demo content loaded');
    }
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  const ctx: AppContext = {
    config,
    logger,
    db: handle.db,
    dialect: handle.dialect,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger }),
    views: createViewCounter(handle.db, logger),
    version: readVersion(),
    buildId,
    startedAt: Date.now(),
  };
  const housekeeping = () =>
    Promise.all([
      pruneAuthData(ctx.db),
      // /img variants: a month at most, 2 GB in all.
      pruneImageCache(path.join(config.dataDir, 'cache/img'), {
        maxAgeMs: 30 * 24 * 3600_000,
        maxBytes: 2 * 1024 ** 3,
      }),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'housekeeping failed'));
  void housekeeping();
  const timer = setInterval(() => void housekeeping(), 60 * 60 * 1000);
  timer.unref();
  return {
    ctx,
    close: async () => {
      clearInterval(timer);
      await ctx.views.stop();
      await handle.close();
    },
  };
}
