import { ZodError } from 'zod';
import { createAppContext, type AppContextOptions } from '../app-context.ts';
import type { AppContext } from '../context.ts';
import { ConfigError, loadConfig } from '../platform/config.ts';

/** Runs a command-line task: a config error or failure prints one line and exits 1. */
export async function runCli(task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (error) {
    const message =
      error instanceof ZodError
        ? error.issues.map((i) => i.message).join('; ')
        : error instanceof ConfigError || error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}

/**
 * Runs `task` with the app context (from the environment's config, migrated) and closes it after.
 * Command-line tools run no job worker and no module start hooks: jobs they enqueue run in the server;
 * events they publish reach the server's processes over the bus.
 */
export async function withApp<T>(task: (ctx: AppContext) => Promise<T>, options: AppContextOptions = {}): Promise<T> {
  const app = await createAppContext(loadConfig(), { worker: false, start: false, seedDemo: false, ...options });
  try {
    return await task(app.ctx);
  } finally {
    await app.close();
  }
}
