import { HttpError } from '../../platform/errors.ts';
import { rateLimited } from '../../platform/rate-limit.ts';

export interface TransformQueueLimits {
  /** Jobs running at once, in all. */
  concurrency: number;
  /** Jobs waiting for a slot, in all; one more is refused with 503. */
  maxQueued: number;
  /** Jobs one client may have running at once; its further jobs wait. */
  perClient: number;
  /** Jobs one client may have waiting; one more is refused with 429. */
  perClientQueued: number;
  /** Seconds a refused client is told to wait (Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Two image jobs at a time keep two of libuv's four threads free for file reads (cache hits) and
 * password hashing. Two running per address is the hard cap; a few more may wait, because a page
 * shows a dozen images at once (a browser opens six connections), and past that the address is told
 * to come back later instead of filling the queue that everyone shares.
 */
export const DEFAULT_TRANSFORM_LIMITS: TransformQueueLimits = {
  concurrency: 2,
  maxQueued: 32,
  perClient: 2,
  perClientQueued: 6,
  retryAfterSeconds: 5,
};

export interface TransformQueueStats {
  running: number;
  queued: number;
}

interface Waiter {
  client: string;
  start: () => void;
  /** Admitted under its own wait limits (uploads): counted apart from the default line. */
  ownLine: boolean;
  perClient: number;
}

/**
 * A bounded, fair queue for image transformations: a fixed number run, a bounded number wait, no
 * client runs more than its share, and a free slot goes to the waiting client with the fewest jobs
 * running, so one address sending many slow requests cannot make everyone else wait behind them.
 */
export class TransformQueue {
  readonly limits: TransformQueueLimits;
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly runningOf = new Map<string, number>();

  constructor(limits: Partial<TransformQueueLimits> = {}) {
    this.limits = { ...DEFAULT_TRANSFORM_LIMITS, ...limits };
  }

  stats(): TransformQueueStats {
    return { running: this.running, queued: this.waiting.length };
  }

  /**
   * Runs `job` when a slot is free; refuses at once (429 or 503) instead of queueing past the limits.
   * `waitLimits` gives a kind of job a line of its own with longer limits (uploads): its waiters are
   * not counted against the default line, so a burst of them never turns page images away, and a
   * smaller `perClient` keeps it to fewer slots, so page images never wait behind it for long.
   */
  async run<T>(
    client: string,
    job: () => Promise<T>,
    waitLimits: Partial<Pick<TransformQueueLimits, 'maxQueued' | 'perClientQueued' | 'perClient'>> = {},
  ): Promise<T> {
    const perClient = Math.min(waitLimits.perClient ?? this.limits.perClient, this.limits.perClient);
    if (!this.canStart(client, perClient)) {
      const ownLine = waitLimits.maxQueued !== undefined || waitLimits.perClientQueued !== undefined;
      const { maxQueued, perClientQueued } = { ...this.limits, ...waitLimits };
      const queuedByClient = this.waiting.filter((w) => w.client === client).length;
      if (queuedByClient >= perClientQueued) {
        throw rateLimited(this.limits.retryAfterSeconds, 'server.imageRequestsLimited');
      }
      if (this.waiting.filter((w) => w.ownLine === ownLine).length >= maxQueued) {
        throw new HttpError(503, 'IMAGE_QUEUE_FULL', 'server.imageQueueFull', {
          retryAfter: this.limits.retryAfterSeconds,
        });
      }
      await new Promise<void>((start) => this.waiting.push({ client, start, ownLine, perClient }));
    } else {
      this.begin(client);
    }
    try {
      return await job();
    } finally {
      this.finish(client);
    }
  }

  private canStart(client: string, perClient: number): boolean {
    return this.running < this.limits.concurrency && (this.runningOf.get(client) ?? 0) < perClient;
  }

  private begin(client: string): void {
    this.running++;
    this.runningOf.set(client, (this.runningOf.get(client) ?? 0) + 1);
  }

  private finish(client: string): void {
    this.running--;
    const left = (this.runningOf.get(client) ?? 1) - 1;
    if (left > 0) this.runningOf.set(client, left);
    else this.runningOf.delete(client);
    this.dispatch();
  }

  /** Starts waiters while slots are free: the client with the fewest running first, oldest first among equals. */
  private dispatch(): void {
    while (this.running < this.limits.concurrency) {
      let best = -1;
      for (let i = 0; i < this.waiting.length; i++) {
        const candidate = this.waiting[i];
        if (!candidate || !this.canStart(candidate.client, candidate.perClient)) continue;
        const load = this.runningOf.get(candidate.client) ?? 0;
        const bestWaiter = this.waiting[best];
        if (!bestWaiter || load < (this.runningOf.get(bestWaiter.client) ?? 0)) best = i;
      }
      if (best < 0) return;
      const [next] = this.waiting.splice(best, 1);
      if (!next) return;
      this.begin(next.client);
      next.start();
    }
  }
}
