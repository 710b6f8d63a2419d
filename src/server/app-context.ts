import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext, AppJobQueue, AppTopics } from './context.ts';
import type { JsonValue } from './platform/bus/bus.ts';
import { connectDatabase, type DatabaseHandle } from './db/connect.ts';
import { prepareDatabase } from './db/prepare.ts';
import { appModules } from './modules/index.ts';
import type { ServerModule } from './modules/module.ts';
import { createBus } from './platform/bus/create-bus.ts';
import { createSharedReads, type SharedReadsOptions } from './platform/cache/shared-reads.ts';
import { PAGES_CHANGED_TOPIC } from './http/page-cache-policy.ts';
import { ensurePrivateDir, type Config } from './platform/config.ts';
import { enqueue } from './platform/jobs/job-queue.ts';
import { createJobRunner, type JobHandler, type JobRunner } from './platform/jobs/job-runner.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { createMailer, type Mailer } from './platform/mail.ts';
import { createStorage, uploadSecret } from './platform/storage/create-storage.ts';
import { createTargetRegistry } from './platform/targets/targets.ts';
import { logInfrastructureFailure } from './platform/infrastructure-failure.ts';

export function readVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return pkg && typeof pkg === 'object' && 'version' in pkg ? String(pkg.version) : '0.0.0';
}

export interface AppContextOptions {
  /** Default: a logger at LOG_LEVEL in LOG_FORMAT. */
  logger?: Logger;
  /** Settings of the shared reads (tests shorten or stop their lifetime). */
  sharedReads?: SharedReadsOptions;
  /** The id of the client build being served ('dev' when none). */
  buildId?: string;
  /** An open database to use instead of connecting to DATABASE_URL (tests); it is not closed by `close`. */
  database?: DatabaseHandle;
  mailer?: Mailer;
  /** Default: every module (modules/index.ts). */
  modules?: readonly ServerModule[];
  /** Apply pending migrations first (default true; the migrate command moves them itself). */
  migrate?: boolean;
  /** Load the demo content into an empty database (default: SEED_DEMO). */
  seedDemo?: boolean;
  /**
   * Run the job worker in this process (default true). Command-line tools that only write turn it off:
   * the jobs they enqueue run in the server.
   */
  worker?: boolean | { pollMs?: number; concurrency?: number };
  /** Run the modules' start hooks and subscriptions (default true). */
  start?: boolean;
  /** Connections this process may hold on PostgreSQL (default 10; see `poolSizePerProcess`). */
  poolSize?: number;
  /** Ends a start still waiting for the database to come up (a stop signal). */
  signal?: AbortSignal;
}

export interface App {
  ctx: AppContext;
  /** The job worker of this process, when it runs one. */
  runner: JobRunner | null;
  /** Stops the worker, the modules, the bus and the database, in that order. */
  close: () => Promise<void>;
}

export { uploadSecret };

/**
 * Makes the one app context the server, the command-line tools and the tests use: opens and migrates
 * the database (failing with one StartupError line when it cannot), loads the demo content on an
 * empty one, and builds the mailer, storage, bus, job queue and target registry from the modules.
 */
export async function createAppContext(config: Config, options: AppContextOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel, { format: config.logFormat });
  const modules = options.modules ?? appModules;
  // Media and the image cache hold what users uploaded: readable by this user only.
  if (config.storage.driver === 'local') ensurePrivateDir(config.storage.dir, 'DATA_DIR');
  ensurePrivateDir(path.join(config.dataDir, 'cache/img'), 'DATA_DIR');

  const handle =
    options.database ??
    connectDatabase(config.database, { poolSize: options.poolSize, logger, slowQueryMs: config.slowQueryMs });
  const closeDatabase = options.database ? async () => {} : () => handle.close();
  const storage = createStorage(config, {
    uploadSecret: uploadSecret(config),
    // A full media disk fails every upload: its cause is said once a minute.
    onError: (error) => logInfrastructureFailure(logger, error) || logger.error({ err: error }, 'upload failed'),
  });
  try {
    await prepareDatabase(handle, config.database, {
      logger,
      migrate: options.migrate,
      seedDemo: options.seedDemo ?? config.seedDemo,
      storage,
      signal: options.signal,
    });
  } catch (error) {
    await closeDatabase().catch(() => undefined);
    throw error;
  }

  let runner: JobRunner | null = null;
  const jobs: AppJobQueue = {
    enqueue: (db, name, payload, enqueueOptions) => enqueue(db, name, payload as JsonValue, enqueueOptions),
    poke: () => runner?.poke(),
  };
  const ctx: AppContext = {
    config,
    logger,
    db: handle.db,
    dialect: handle.dialect,
    dbAvailability: handle.availability,
    mailer: options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger }),
    storage,
    bus: createBus<AppTopics>(config.database, { db: handle.db, logger }),
    reads: createSharedReads(options.sharedReads),
    jobs,
    targets: createTargetRegistry(modules.flatMap((m) => m.targets ?? [])),
    modules,
    version: readVersion(),
    buildId: options.buildId ?? 'dev',
    startedAt: Date.now(),
  };

  const unsubscribe: (() => void)[] = [
    ctx.bus.subscribe(PAGES_CHANGED_TOPIC, ({ tags }) => ctx.reads.invalidate(tags)),
  ];
  const started: ServerModule[] = [];
  async function close(): Promise<void> {
    await runner?.stop();
    for (const module of started.reverse()) {
      await Promise.resolve(module.stop?.(ctx)).catch((error: unknown) =>
        logger.error({ err: error, module: module.name }, 'module stop failed'),
      );
    }
    for (const off of unsubscribe) off();
    await ctx.bus.close().catch((error: unknown) => logger.warn({ err: error }, 'bus close failed'));
    await closeDatabase();
  }

  try {
    if (options.start !== false) {
      for (const module of modules) {
        for (const subscription of module.subscriptions ?? []) {
          unsubscribe.push(
            ctx.bus.subscribe(subscription.topic, (payload) => subscription.handle(ctx, payload as never)),
          );
        }
        started.push(module);
        await module.start?.(ctx);
      }
      await ctx.bus.ready();
    }
    if (options.worker !== false) {
      const settings = typeof options.worker === 'object' ? options.worker : {};
      runner = createJobRunner({
        db: handle.db,
        dialect: handle.dialect,
        handlers: jobHandlers(ctx, modules),
        logger,
        ...settings,
      });
      for (const module of modules)
        for (const task of module.housekeeping ?? []) runner.schedule(task.name, task.everyMs);
      runner.start();
    }
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return { ctx, runner, close };
}

/** The job handlers of all modules, with each housekeeping task as the handler of its recurring job. */
function jobHandlers(ctx: AppContext, modules: readonly ServerModule[]): Record<string, JobHandler<unknown>> {
  const handlers: Record<string, JobHandler<unknown>> = {};
  const add = (name: string, handler: JobHandler<unknown>) => {
    if (handlers[name]) throw new Error(`Job "${name}" has two handlers.`);
    handlers[name] = handler;
  };
  for (const module of modules) {
    for (const [name, handler] of Object.entries(module.jobs?.(ctx) ?? {})) add(name, handler as JobHandler<unknown>);
    for (const task of module.housekeeping ?? []) add(task.name, () => task.run(ctx));
  }
  return handlers;
}
