import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A script running in its own Node process that talks in JSON lines (stdout out, stdin in). */
export interface PeerProcess {
  readonly child: ChildProcess;
  /** Every line printed so far, parsed. */
  readonly lines: Record<string, unknown>[];
  /** What the process wrote to stderr (its logs), for failure messages. */
  stderr(): string;
  send(command: object): void;
  /** Resolves with the first line (already printed or still to come) that matches. */
  waitFor(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the exit code once the process has ended. */
  exited(): Promise<number | null>;
}

/** Starts `script` on this Node (the project's Node 24 under the test runner). */
export function startPeer(script: string, args: string[]): PeerProcess {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', script, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const listeners = new Set<() => void>();
  let stderr = '';
  let exitCode: number | null | undefined;
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      stderr += `(stdout) ${line}\n`;
    }
    for (const listener of listeners) listener();
  });
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      for (const listener of listeners) listener();
      resolve(code);
    }),
  );

  return {
    child,
    lines,
    stderr: () => stderr,
    send: (command) => child.stdin?.write(`${JSON.stringify(command)}\n`),
    exited: () => exit,
    waitFor(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found) return done(() => resolve(found));
          if (exitCode !== undefined) done(() => reject(new Error(`peer exited (${exitCode}) first:\n${stderr}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`peer timed out; its log:\n${stderr}`))), timeoutMs);
        const done = (then: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          then();
        };
        listeners.add(check);
        check();
      });
    },
  };
}
