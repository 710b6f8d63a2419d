import type { Config } from './platform/config.ts';
import type { Logger } from './platform/logger.ts';
import type { Db, DbDialect } from './db/database.ts';
import type { DatabaseAvailability } from './db/availability.ts';
import type { Mailer } from './platform/mail.ts';
import type { Bus } from './platform/bus/bus.ts';
import type { SharedReads } from './platform/cache/shared-reads.ts';
import type { Storage } from './platform/storage/storage.ts';
import type { EnqueueOptions, EnqueueResult, DbOrTrx } from './platform/jobs/job-queue.ts';
import type { TargetRegistry } from './platform/targets/targets.ts';
import type { ServerModule } from './modules/module.ts';

/**
 * Bus topics and their payloads. Empty here: each module adds its own topics with a
 * `declare module '../../context.ts' { interface AppTopics { … } }` block in its folder.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- extended by the modules
export interface AppTopics {}

/** Job names and their payloads, extended by the modules the same way as AppTopics. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- extended by the modules
export interface AppJobs {}

/** The job queue as the app uses it: typed names, and the local runner woken when work was added. */
export interface AppJobQueue {
  /** Writes a job; pass the caller's transaction so the job runs only after it commits. */
  enqueue<K extends keyof AppJobs & string>(
    db: DbOrTrx,
    name: K,
    payload: AppJobs[K],
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /** Looks at the queue now (after a commit that added jobs) instead of at the next poll. */
  poke(): void;
}

/**
 * What every part of the server shares: made once by `createAppContext()` (server, command-line
 * tools, tests) and handed to the API, the sockets, the jobs and, through Astro.locals, to pages.
 */
export interface AppContext {
  config: Config;
  logger: Logger;
  db: Db;
  dialect: DbDialect;
  /** Whether the database can be reached now (PostgreSQL restarts, fails over…; SQLite always). */
  dbAvailability: DatabaseAvailability;
  mailer: Mailer;
  storage: Storage;
  bus: Bus<AppTopics>;
  /** Reads that are the same for every reader, shared by this process's requests for a few seconds. */
  reads: SharedReads;
  jobs: AppJobQueue;
  targets: TargetRegistry;
  /** The modules this app runs (modules/index.ts unless a test picks others). */
  modules: readonly ServerModule[];
  version: string;
  buildId: string;
  startedAt: number;
}
