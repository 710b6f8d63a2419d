import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { addFacetViews } from './catalogue.facets.ts';

export interface ViewCounter {
  hit: (galgameId: number) => void;
  /** Writes the buffered counts now. */
  flush: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Page views are counted in memory and written every few seconds in one transaction, so reading a
 * game page never waits for a disk write.
 */
export function createViewCounter(db: Db, logger: Logger, intervalMs = 5000): ViewCounter {
  let pending = new Map<number, number>();
  let flushing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    flushing = flushing.then(() =>
      db
        .transaction()
        .execute(async (trx) => {
          // In id order, so two instances flushing at once lock rows in the same order (no deadlock).
          for (const [id, n] of [...batch].sort((a, b) => a[0] - b[0])) {
            await trx
              .updateTable('galgame')
              .set((eb) => ({ view_count: eb('view_count', '+', n) }))
              .where('id', '=', id)
              .execute();
            await addFacetViews(trx, id, n);
          }
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'view counts not saved')),
    );
    await flushing;
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    hit: (id) => void pending.set(id, (pending.get(id) ?? 0) + 1),
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}

const viewCounters = new WeakMap<AppContext, ViewCounter>();

/** The page-view counter of an app, made on first use. */
export function viewsOf(ctx: AppContext): ViewCounter {
  let counter = viewCounters.get(ctx);
  if (!counter) {
    counter = createViewCounter(ctx.db, ctx.logger);
    viewCounters.set(ctx, counter);
  }
  return counter;
}

/** Writes the app's buffered views and stops its counter (the catalogue module's stop hook). */
export async function stopViewCounter(ctx: AppContext): Promise<void> {
  await viewCounters.get(ctx)?.stop();
  viewCounters.delete(ctx);
}
