import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/platform/config.ts';
import { createLogger } from '../../src/server/platform/logger.ts';
import type { AppContext } from '../../src/server/context.ts';
import { createApi } from '../../src/server/http/api.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';
import type { Mail, Mailer } from '../../src/server/platform/mail.ts';
import { createViewCounter } from '../../src/server/modules/catalogue/view-counter.ts';

/** Keeps sent mail in memory so tests can read verification codes. */
export class Outbox implements Mailer {
  readonly mails: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.mails.push(mail);
  }
  /** The 6-digit code in the newest mail to `to`. */
  codeFor(to: string): string {
    const mail = [...this.mails].reverse().find((m) => m.to === to);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  }
}

export interface TestApp {
  outbox: Outbox;
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
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', TRUST_PROXY: 'true', ...env });
  const outbox = new Outbox();
  const ctx: AppContext = {
    config,
    logger: createLogger('silent'),
    db: database.db,
    dialect: database.dialect,
    mailer: outbox,
    views: createViewCounter(database.db, createLogger('silent'), 60_000),
    version: '0.0.0-test',
    buildId: 'test-build',
    startedAt: Date.now(),
  };
  const api = createApi(ctx);
  return {
    outbox,
    ctx,
    api,
    database,
    request: async (p, init) => api.request(p, init),
    close: async () => {
      await ctx.views.stop();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
