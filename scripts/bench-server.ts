import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export interface BenchServer {
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
}

/**
 * Starts the built server for a benchmark on 127.0.0.1:`port` (warnings only in the log) with `env`
 * over the current environment, and resolves once `/api/health` answers.
 */
export async function startBenchServer(port: number, env: Record<string, string>): Promise<BenchServer> {
  const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 150; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((res) => res.ok)
      .catch(() => false);
    if (up) return { stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error('the server did not start');
}
