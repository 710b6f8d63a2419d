import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE, USER_INFO_COOKIE } from '../src/shared/auth-model.ts';
import type { SessionData } from '../src/shared/auth-model.ts';
import { userInfoCookieValue } from '../src/stores/session.ts';

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

/** The cookies a browser keeps after `account` logs in on the server at `base`. */
export async function loginCookie(base: string, account: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/v2/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.77.0.1' },
    body: JSON.stringify({ account, password }),
  });
  const body = (await res.json()) as { data?: SessionData };
  if (!body.data) throw new Error(`login failed: ${res.status}`);
  return [
    `${ACCESS_TOKEN_COOKIE}=${body.data.hikariAccessToken}`,
    `${REFRESH_TOKEN_COOKIE}=${body.data.hikariRefreshToken}`,
    `${USER_INFO_COOKIE}=${encodeURIComponent(userInfoCookieValue(body.data.user))}`,
  ].join('; ');
}

/** The page at a new address each time (an unknown query parameter): never from the page cache. */
export const uncached = (pathname: string) => {
  let n = 0;
  return () => `${pathname}${pathname.includes('?') ? '&' : '?'}bench=${Date.now()}-${n++}`;
};

export interface LoadOptions {
  base: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** A new address for every request (nothing from the page cache). */
  everyRenders?: boolean;
}

/** `pathname` under load (after a short warm-up): requests a second, p50 and p99 in ms, failed answers. */
export async function measureLoad(pathname: string, options: LoadOptions) {
  const next = uncached(pathname);
  const requests = [
    {
      method: 'GET' as const,
      path: pathname,
      headers: options.headers ?? {},
      ...(options.everyRenders ? { setupRequest: (request: object) => ({ ...request, path: next() }) } : {}),
    },
  ];
  // Warm up: first renders, page cache, shared reads, SQLite page cache, JIT.
  await autocannon({ url: options.base, connections: Math.min(options.connections, 8), duration: 2, requests });
  const result = await autocannon({
    url: options.base,
    connections: options.connections,
    duration: options.seconds,
    requests,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
