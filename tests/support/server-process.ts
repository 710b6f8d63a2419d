import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '../..');

/** Whether the site is built: the server entry refuses to start without it (`npm test` builds first). */
export const siteBuilt = existsSync(path.join(root, 'dist/server/entry.mjs'));

export type LogLine = Record<string, unknown>;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a connection of its own, so the cluster hands each one to the next worker. */
export function send(
  port: number,
  method: string,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent: false,
        headers: {
          ...(text ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) } : {}),
          ...headers,
        },
      },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  logs: LogLine[];
  /** The exit code, once the process has ended and its output is read. */
  exit: Promise<number | null>;
  /** The first log line (already written or still to come) that matches. */
  waitForLog: (match: (line: LogLine) => boolean, timeoutMs?: number) => Promise<LogLine>;
  /** What it wrote to stderr so far. */
  stderr: () => string;
  /** Kills the process and, with several, every worker it started. */
  kill: () => void;
}

/** The server entry as `npm run serve` runs it, with its JSON log lines collected. */
export function startServer(env: Record<string, string>): ServerProcess {
  const child: ChildProcess = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'src/server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      stderr += `(stdout) ${line}\n`;
    }
    for (const wake of waiting) wake();
  });
  // 'close', not 'exit': its last log lines may still be in the pipe when the process has exited.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    logs,
    exit,
    waitForLog(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = logs.find(match);
          if (!found) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no such log line in time; stderr:\n${stderr}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiting.delete(check);
        };
        waiting.add(check);
        check();
      });
    },
    stderr: () => stderr,
    kill() {
      for (const line of logs.filter((l) => l.msg === 'server process started')) {
        try {
          process.kill(Number(line.pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      child.kill('SIGKILL');
    },
  };
}

/** The port of a server process from its 'Hikari is ready at' line. */
export async function readyPort(server: ServerProcess, timeoutMs = 30_000): Promise<number> {
  const banner = await server.waitForLog((l) => l.banner === true, timeoutMs);
  return Number(new URL(String(banner.url)).port);
}
