import { ZodError } from 'zod';
import { ConfigError } from '../platform/config.ts';

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
