import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db, DbDialect, JobRow } from '../../db/database.ts';
import { logInfrastructureFailure } from '../infrastructure-failure.ts';
import type { PlatformLogger } from '../bus/bus.ts';
import { buryAbandoned, claimJobs, extendLease, markDone, markFailed, type Hold } from './job.repository.ts';
import { assertJobName, pruneJobs, scheduleRecurring, type JobMap } from './job-queue.ts';

export interface JobContext {
  id: string;
  name: string;
  /** 1 on the first try. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the job is no longer this worker's (its lease was lost); stop early if you can. */
  signal: AbortSignal;
}

export type JobHandler<P> = (payload: P, job: JobContext) => Promise<void> | void;

export interface JobRunnerOptions<J extends JobMap> {
  db: Db;
  dialect: DbDialect;
  handlers: { [K in keyof J & string]: JobHandler<J[K]> };
  logger: PlatformLogger;
  /** Jobs run at the same time (default 4). */
  concurrency?: number;
  /** Wait between looks at the queue when it is idle (default 1 s). */
  pollMs?: number;
  /** How long a claim holds a job; renewed every third of it while the handler runs (default 30 s). */
  leaseMs?: number;
  /** Retry n waits about baseMs·2^(n-1), capped at maxMs, with jitter (default 1 s … 1 h). */
  backoff?: { baseMs: number; maxMs: number };
  /** How long done and dead jobs are kept (default 7 and 30 days), and how often pruning runs (1 h). */
  retention?: { doneMs: number; deadMs: number; everyMs: number };
  now?: () => number;
  random?: () => number;
  workerId?: string;
}

export interface JobRunner {
  /** Starts polling in the background. */
  start(): void;
  /** Stops claiming and resolves once the jobs it is running have finished. */
  stop(): Promise<void>;
  /** Claims what is due now (up to the free slots), runs it and resolves with how many ran. */
  runDue(): Promise<number>;
  /** Looks at the queue now instead of at the next poll (this process just enqueued something). */
  poke(): void;
  /** Housekeeping: keeps recurring jobs scheduled, buries abandoned jobs, prunes old ones. */
  maintain(): Promise<void>;
  /** Runs the handler of `name` every `everyMs` (on shared slots), however many processes schedule it. */
  schedule(name: string, everyMs: number): void;
}

const DAY = 24 * 60 * 60 * 1000;

/** The wait before retry `attempt` + 1: exponential, capped, between half and all of it. */
export function retryDelay(attempt: number, backoff: { baseMs: number; maxMs: number }, random: () => number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

export function createJobRunner<J extends JobMap>(options: JobRunnerOptions<J>): JobRunner {
  const { db, dialect, logger } = options;
  const handlers = options.handlers as Record<string, JobHandler<unknown>>;
  const names = Object.keys(handlers);
  names.forEach(assertJobName);
  const concurrency = options.concurrency ?? 4;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const backoff = options.backoff ?? { baseMs: 1000, maxMs: 60 * 60 * 1000 };
  const retention = options.retention ?? { doneMs: 7 * DAY, deadMs: 30 * DAY, everyMs: 60 * 60 * 1000 };
  const now = options.now ?? (() => Date.now()); // looked up per call, so a clock set by a test applies
  const random = options.random ?? Math.random;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const schedules = new Map<string, { everyMs: number; checkAt: number }>();
  const active = new Set<Promise<void>>();
  let claiming: Promise<unknown> = Promise.resolve();
  let lastPrune = Number.NEGATIVE_INFINITY;
  let lastBury = Number.NEGATIVE_INFINITY;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let backlog = false;
  let poked = false;

  async function execute(job: JobRow): Promise<void> {
    const hold: Hold = { id: job.id, workerId, attempts: job.attempts };
    const controller = new AbortController();
    const renew = setInterval(() => {
      extendLease(db, hold, leaseMs, now())
        .then((ours) => {
          if (ours || controller.signal.aborted) return;
          controller.abort(new Error('lease lost'));
          logger.warn({ jobId: job.id, job: job.name }, 'job lease lost; another worker may run it');
        })
        .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, 'job lease renewal failed'));
    }, leaseMs / 3);
    renew.unref();
    const context = { id: job.id, name: job.name, attempt: job.attempts, maxAttempts: job.max_attempts };
    try {
      const handler = handlers[job.name];
      if (!handler) throw new Error(`No handler for job "${job.name}".`);
      await handler(JSON.parse(job.payload), { ...context, signal: controller.signal });
      if (!(await markDone(db, hold, now()))) {
        logger.warn({ jobId: job.id, job: job.name }, 'job finished after its lease was taken over');
      }
    } catch (error) {
      const retryAt = job.attempts < job.max_attempts ? now() + retryDelay(job.attempts, backoff, random) : null;
      const details = { err: error, jobId: job.id, job: job.name, attempt: job.attempts, retryAt };
      if (retryAt === null) logger.error(details, 'job failed for the last time; it is dead');
      else logger.warn(details, 'job failed; it will be retried');
      await markFailed(db, hold, { error: describeError(error), retryAt }, now()).catch((e: unknown) =>
        logger.error({ err: e, jobId: job.id }, 'could not record a job failure; the lease will expire'),
      );
    } finally {
      clearInterval(renew);
    }
  }

  /** Claims jobs for the free slots and starts them; one claim at a time so slots are never overbooked. */
  function fill(): Promise<Promise<void>[]> {
    const next = claiming.then(async () => {
      const free = concurrency - active.size;
      const jobs = await claimJobs(db, dialect, { names, workerId, limit: free, leaseMs, now: now() });
      // Every slot asked for was filled: more jobs are probably due.
      backlog = free > 0 && jobs.length === free;
      return jobs.map((job) => {
        const done = execute(job).finally(() => {
          active.delete(done);
          wake?.();
        });
        active.add(done);
        return done;
      });
    });
    claiming = next.catch(() => {});
    return next;
  }

  async function maintain(): Promise<void> {
    const t = now();
    for (const [name, s] of schedules) {
      if (t >= s.checkAt) s.checkAt = await scheduleRecurring(db, name, s.everyMs, t);
    }
    // A lease cannot run out faster than this, so looking more often would only cost writes.
    if (t - lastBury >= leaseMs / 2) {
      lastBury = t;
      const buried = await buryAbandoned(db, t);
      if (buried > 0) logger.warn({ count: buried }, 'jobs abandoned on their last attempt are now dead');
    }
    if (t - lastPrune >= retention.everyMs) {
      lastPrune = t;
      await pruneJobs(db, { doneBefore: t - retention.doneMs, deadBefore: t - retention.deadMs });
    }
  }

  async function poll(): Promise<void> {
    while (running) {
      try {
        await maintain();
        await fill();
      } catch (error) {
        backlog = false;
        // A database that is away fails every poll: said once a minute, not once a second.
        if (!logInfrastructureFailure(logger, error)) logger.error({ err: error }, 'job queue poll failed');
      }
      if (!running) break;
      if (backlog && active.size < concurrency) continue;
      if (poked && active.size < concurrency) {
        poked = false;
        continue;
      }
      // Idle: look again after pollMs. Busy with more waiting: look again as soon as a slot frees up.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          if (backlog || poked || !running) {
            clearTimeout(timer);
            resolve();
          }
        };
      });
      wake = null;
      poked = false;
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = poll();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
      await claiming;
      await Promise.all(active);
    },
    async runDue() {
      const started = await fill();
      await Promise.all(started);
      return started.length;
    },
    maintain,
    poke() {
      poked = true;
      wake?.();
    },
    schedule(name, everyMs) {
      if (!handlers[name]) throw new Error(`Cannot schedule "${name}": the runner has no handler for it.`);
      if (!Number.isInteger(everyMs) || everyMs < 1000) {
        throw new RangeError(`The interval of recurring job "${name}" must be a whole number of ms, at least 1000.`);
      }
      schedules.set(name, { everyMs, checkAt: Number.NEGATIVE_INFINITY });
    },
  };
}
