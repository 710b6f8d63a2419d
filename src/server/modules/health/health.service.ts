import type { HealthCheck, HealthData } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { migrationState } from '../../db/migrator.ts';

/** The write probe runs at most this often; answers in between repeat its last result. */
export const WRITE_PROBE_INTERVAL_MS = 5000;
export const WRITE_PROBE_KEY = 'health.write_probe';

interface Probe {
  startedAt: number;
  result: Promise<HealthCheck>;
}
const lastProbe = new WeakMap<Db, Probe>();

/**
 * Whether the database still takes writes (a full disk, a read-only file or a failed-over replica
 * all read fine): one tiny upsert, shared by every health request in the interval.
 */
export function probeDatabaseWrite(ctx: Pick<AppContext, 'db' | 'logger'>, now = Date.now()): Promise<HealthCheck> {
  const last = lastProbe.get(ctx.db);
  if (last && now - last.startedAt < WRITE_PROBE_INTERVAL_MS && now >= last.startedAt) return last.result;
  const checkedAt = new Date(now).toISOString();
  const result = ctx.db
    .insertInto('system_state')
    .values({ key: WRITE_PROBE_KEY, value: checkedAt, updated_at: checkedAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: checkedAt, updated_at: checkedAt }))
    .execute()
    .then(
      () => ({ ok: true, checkedAt }),
      (error: unknown) => {
        ctx.logger.error({ err: error }, 'health: the database refused a write');
        return { ok: false, checkedAt };
      },
    );
  lastProbe.set(ctx.db, { startedAt: now, result });
  return result;
}

export async function getHealth(ctx: AppContext, now = Date.now()): Promise<HealthData> {
  const checkedAt = new Date(now).toISOString();
  const [migrations, databaseWrite] = await Promise.all([
    migrationState(ctx.db).catch((error: unknown) => {
      ctx.logger.error({ err: error }, 'health: the database could not be read');
      return null;
    }),
    probeDatabaseWrite(ctx, now),
  ]);
  const checks = { database: { ok: migrations !== null, checkedAt }, databaseWrite };
  const failing = (Object.keys(checks) as (keyof typeof checks)[]).filter((name) => !checks[name].ok);
  return {
    status: failing.length === 0 ? 'ok' : 'degraded',
    checks,
    failing,
    version: ctx.version,
    buildId: ctx.buildId,
    database: { dialect: ctx.dialect, migrations },
    uptimeSeconds: Math.round((now - ctx.startedAt) / 1000),
  };
}
