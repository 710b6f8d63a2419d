import type { ContentType } from '../../../shared/community/community.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { tableOf } from './community.repository.ts';

export interface ContentViewCounter {
  hit: (type: ContentType, id: number) => void;
  /** Writes the buffered counts now. */
  flush: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Views of posts and articles are counted in memory and written every few seconds in one transaction
 * (as game views are), so reading a post never waits for a disk write.
 */
export function createContentViewCounter(db: Db, logger: Pick<Logger, 'warn'>, intervalMs = 5000): ContentViewCounter {
  let pending = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (pending.size === 0) return flushing;
    const batch = pending;
    pending = new Map();
    flushing = flushing.then(() =>
      db
        .transaction()
        .execute(async (trx) => {
          // In one order (type, then id), so two instances flushing at once never wait crosswise.
          for (const [key, n] of [...batch].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
            const [type, id] = key.split(':') as [ContentType, string];
            await trx
              .updateTable(tableOf(type))
              .set((eb) => ({ view_count: eb('view_count', '+', n) }))
              .where('id', '=', Number(id))
              .execute();
          }
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'community view counts not saved')),
    );
    await flushing;
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    hit: (type, id) => {
      const key = `${type}:${id}`;
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}

const counters = new WeakMap<AppContext, ContentViewCounter>();

/** The post and article view counter of an app, made on first use (pages count their views with it too). */
export function contentViewsOf(ctx: AppContext): ContentViewCounter {
  let counter = counters.get(ctx);
  if (!counter) {
    counter = createContentViewCounter(ctx.db, ctx.logger);
    counters.set(ctx, counter);
  }
  return counter;
}

/** Writes the buffered views and stops the counter (the module's stop hook). */
export async function stopContentViewCounter(ctx: AppContext): Promise<void> {
  await counters.get(ctx)?.stop();
  counters.delete(ctx);
}
