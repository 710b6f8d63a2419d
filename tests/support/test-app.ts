import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppContext, type App } from '../../src/server/app-context.ts';
import type { AppContext } from '../../src/server/context.ts';
import { createApi } from '../../src/server/http/api.ts';
import type { ServerModule } from '../../src/server/modules/module.ts';
import { loadConfig } from '../../src/server/platform/config.ts';
import { createLogger, type Logger } from '../../src/server/platform/logger.ts';
import type { Mail, Mailer } from '../../src/server/platform/mail.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';

/**
 * Keeps sent mail in memory so tests can read verification codes. Mails go out through the job queue:
 * `sent()` and `codeFor()` first wait until the mails queued so far have been handled.
 */
export class Outbox implements Mailer {
  readonly mails: Mail[] = [];
  /** Resolves once no mail job is due or running (set by createTestApp). */
  settle: () => Promise<void> = async () => {};
  async send(mail: Mail): Promise<void> {
    this.mails.push(mail);
  }
  /** Every mail sent so far, once the queued ones have gone out. */
  async sent(): Promise<Mail[]> {
    await this.settle();
    return this.mails;
  }
  /** The 6-digit code in the newest mail to `to`. */
  async codeFor(to: string): Promise<string> {
    const mail = [...(await this.sent())].reverse().find((m) => m.to === to);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  }
}

/**
 * Waits until no job named `name` (a LIKE pattern with `like`) is due or running, the worker woken each
 * time it looks; throws after `seconds`, naming the `what` that did not finish.
 */
export async function jobsSettled(
  app: Pick<App, 'ctx'>,
  {
    name,
    like = false,
    seconds,
    what,
  }: { name: string | readonly string[]; like?: boolean; seconds: number; what: string },
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const pending = await app.ctx.db
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([name].flat().map((one) => eb('name', like ? 'like' : '=', one))))
      .where((eb) =>
        eb.or([
          eb('status', '=', 'running'),
          eb.and([eb('status', 'in', ['queued', 'failed']), eb('run_at', '<=', new Date().toISOString())]),
        ]),
      )
      .executeTakeFirstOrThrow();
    if (Number(pending.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${what} did not finish within ${seconds} s`);
    app.ctx.jobs.poke();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A community section for a test's posts and articles. */
export async function insertSection(app: Pick<TestApp, 'ctx'>, id: number, name: string): Promise<void> {
  const at = new Date().toISOString();
  await app.ctx.db
    .insertInto('section')
    .values({ id, name, sort_order: 1, icon: 'messages', color: '#39c5bb', created_at: at, updated_at: at })
    .execute();
}

export interface TestAppOptions {
  /** Instead of every module (e.g. a module built with test settings). */
  modules?: readonly ServerModule[];
  /** Instead of a silent logger (a test that reads what was logged). */
  logger?: Logger;
}

export interface TestApp {
  outbox: Outbox;
  ctx: AppContext;
  /** The app as createAppContext made it (its job runner included). */
  app: App;
  api: ReturnType<typeof createApi>;
  database: TestDatabase;
  /** Calls the API in-process: `request('/api/health')`. */
  request: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

/**
 * The whole app on a fresh, migrated test database, made by the same createAppContext() the server
 * uses (modules, bus, job worker), with the API called in-process (no port).
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-app-'));
  const database = await createTestDatabase();
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    SEED_DEMO: 'false',
    ...env,
  });
  const outbox = new Outbox();
  const app = await createAppContext(config, {
    logger: options.logger ?? createLogger('silent'),
    buildId: 'test-build',
    database,
    mailer: outbox,
    modules: options.modules,
    worker: { pollMs: 50 },
  }).catch(async (error: unknown) => {
    await database.destroy();
    throw error;
  });
  outbox.settle = () => jobsSettled(app, { name: 'auth.mail', seconds: 10, what: 'mail jobs' });
  const api = createApi(app.ctx);
  return {
    outbox,
    ctx: app.ctx,
    app,
    api,
    database,
    request: async (p, init) => api.request(p, init),
    close: async () => {
      await app.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
