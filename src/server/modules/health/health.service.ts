import type { HealthData } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { migrationState } from '../../db/migrator.ts';

export async function getHealth(ctx: AppContext, now = Date.now()): Promise<HealthData> {
  return {
    status: 'ok',
    version: ctx.version,
    buildId: ctx.buildId,
    database: { dialect: ctx.dialect, migrations: await migrationState(ctx.db) },
    uptimeSeconds: Math.round((now - ctx.startedAt) / 1000),
  };
}
