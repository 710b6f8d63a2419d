import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/platform/config.ts';
import { createLogger } from '../../src/server/platform/logger.ts';
import type { AppContext } from '../../src/server/context.ts';
import { createApi } from '../../src/server/http/api.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';

export interface TestApp {
  ctx: AppContext;
  api: ReturnType<typeof createApi>;
  database: TestDatabase;
  /** Calls the API in-process: `request('/api/health')`. */
  request: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

/** The whole API on a fresh, migrated test database, called in-process (no port). */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-app-'));
  const database = await createTestDatabase();
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const ctx: AppContext = {
    config,
    logger: createLogger('silent'),
    db: database.db,
    dialect: database.dialect,
    version: '0.0.0-test',
    buildId: 'test-build',
    startedAt: Date.now(),
  };
  const api = createApi(ctx);
  return {
    ctx,
    api,
    database,
    request: async (p, init) => api.request(p, init),
    close: async () => {
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
