import type { PlatformLogger } from '../bus/bus.ts';

/** The part of a cluster worker (`cluster.fork()`) the supervisor uses; tests pass their own. */
export interface SupervisedWorker {
  readonly id: number;
  send: (message: object, done: (error: Error | null) => void) => boolean;
  readonly process: { readonly pid?: number | undefined; kill: (signal?: NodeJS.Signals) => boolean };
  on(event: 'listening', listener: (address: { address: string; port: number }) => void): this;
  on(event: 'message', listener: (message: unknown) => void): this;
  on(event: 'exit', listener: (code: number | null, signal: string | null) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}

/** What a worker that cannot start tells the primary before it exits: the one line saying why. */
export interface StartFailedMessage {
  hikariCluster: 'start-failed';
  reason: string;
}

export function isStartFailedMessage(message: unknown): message is StartFailedMessage {
  if (!message || typeof message !== 'object') return false;
  const m = message as Record<string, unknown>;
  return m.hikariCluster === 'start-failed' && typeof m.reason === 'string';
}

const isClusterMessage = (message: unknown, kind: string) =>
  !!message && typeof message === 'object' && (message as Record<string, unknown>).hikariCluster === kind;

/**
 * For a worker whose server is closed, before it exits: resolves once the primary has answered a
 * message sent after the close. The primary hands each connection to a worker over IPC and waits for
 * its answer; a worker that exits with such a hand-over still unread strands the connection in the
 * primary (never answered, never closed). Messages keep their order, so by the answer every hand-over
 * sent before the primary saw the close has been read here and turned back to another worker.
 */
export function settleWithPrimary(timeoutMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve();
    };
    const onMessage = (message: unknown) => {
      if (isClusterMessage(message, 'settled')) done();
    };
    // A primary that is gone answers nothing; the worker still exits.
    const timer = setTimeout(done, timeoutMs);
    process.on('message', onMessage);
    process.send({ hikariCluster: 'settle' }, undefined, {}, (error) => error && done());
  });
}

export interface SupervisorOptions {
  /** Workers to keep running. */
  workers: number;
  fork: () => SupervisedWorker;
  logger: PlatformLogger;
  /** Called once, when `workers` workers listen for the first time. */
  onReady: (address: { address: string; port: number }) => void;
  /**
   * Called once when every worker has exited after `stop`, or after giving up: the exit code for the
   * primary (0 when every worker stopped cleanly) and, after giving up, the line saying why.
   */
  onStopped: (code: number, failure?: string) => void;
  /** Workers get this long to finish their requests and close after SIGTERM; then SIGKILL (default 15 s). */
  stopDeadlineMs?: number;
  /** Give up after this many workers in a row exited before listening while none serves (default 5). */
  maxStartFailures?: number;
  /** Wait before the restart after `attempt` (0, 1, 2…) unexpected exits (default 100 ms doubling to 10 s). */
  restartDelayMs?: (attempt: number) => number;
  /** A worker listening this long resets the restart delay (default 30 s). */
  stableAfterMs?: number;
}

export interface Supervisor {
  start: () => void;
  /** Stops every worker (SIGTERM, then SIGKILL after the deadline); a later signal stops them at once. */
  stop: (signal: string) => void;
}

/** The same signal often arrives twice at once (the terminal and npm both pass on Ctrl-C): not a second request. */
const REPEATED_SIGNAL_MS = 1000;
/** After SIGKILL, how long to wait for the exit events before reporting anyway. */
const KILL_GRACE_MS = 2000;

export function defaultRestartDelay(attempt: number): number {
  return Math.min(10_000, 100 * 2 ** Math.min(attempt, 10));
}

interface Member {
  worker: SupervisedWorker;
  listening: boolean;
  reason: string | undefined;
  stable: NodeJS.Timeout | undefined;
}

/**
 * Keeps `workers` server processes running: replaces one that exits unexpectedly (after a delay that
 * grows while they keep exiting), gives up when workers keep failing at start and none serves, and
 * stops them all on `stop` within a deadline.
 */
export function createSupervisor(options: SupervisorOptions): Supervisor {
  const { logger } = options;
  const deadlineMs = options.stopDeadlineMs ?? 15_000;
  const maxStartFailures = options.maxStartFailures ?? 5;
  const restartDelay = options.restartDelayMs ?? defaultRestartDelay;
  const stableAfterMs = options.stableAfterMs ?? 30_000;
  const members = new Map<number, Member>();
  const restarts = new Set<NodeJS.Timeout>();
  let ready = false;
  let restartAttempt = 0;
  let startFailures = 0;
  let stopping = false;
  let stoppedAt = 0;
  let exitCode = 0;
  let failure: string | undefined;
  let finished = false;
  let deadline: NodeJS.Timeout | undefined;
  let killGrace: NodeJS.Timeout | undefined;

  const listeningCount = () => [...members.values()].filter((m) => m.listening).length;

  function fork(): void {
    const worker = options.fork();
    const member: Member = { worker, listening: false, reason: undefined, stable: undefined };
    members.set(worker.id, member);
    logger.info({ worker: worker.id, pid: worker.process.pid }, 'server process started');
    worker.on('message', (message) => {
      if (isStartFailedMessage(message)) member.reason = message.reason;
      if (isClusterMessage(message, 'settle')) worker.send({ hikariCluster: 'settled' }, () => {});
    });
    worker.on('listening', (address) => {
      member.listening = true;
      logger.info({ worker: worker.id, pid: worker.process.pid }, 'server process listening');
      startFailures = 0;
      member.stable = setTimeout(() => (restartAttempt = 0), stableAfterMs);
      member.stable.unref?.();
      if (!ready && !stopping && listeningCount() >= options.workers) {
        ready = true;
        options.onReady(address);
      }
    });
    worker.on('exit', (code, signal) => exited(member, code, signal));
    // A message to a worker whose channel just closed; its exit follows and is handled there.
    worker.on('error', (error) => logger.warn({ err: error, worker: worker.id }, 'server process channel error'));
  }

  function exited(member: Member, code: number | null, signal: string | null): void {
    const { worker } = member;
    clearTimeout(member.stable);
    members.delete(worker.id);
    const details = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      // Killed by our SIGTERM before it could set up its handler: it was still starting, with nothing to finish.
      if (code !== 0 && signal !== 'SIGTERM') exitCode = 1;
      logger.info(details, 'server process stopped');
      if (members.size === 0) finish();
      return;
    }
    // Exiting 0 (or on SIGTERM/SIGINT) before listening is a stop someone asked for, not a failure.
    const asked = code === 0 || signal === 'SIGTERM' || signal === 'SIGINT';
    if (!member.listening && !asked) {
      startFailures += 1;
      failure = member.reason ?? `Cannot start: a server process exited with ${signal ?? `code ${code}`}.`;
      if (startFailures >= maxStartFailures && listeningCount() === 0) {
        logger.error(
          { ...details, failures: startFailures, reason: failure },
          'server processes keep failing to start',
        );
        exitCode = 1;
        failure = `${failure} (${startFailures} server processes in a row failed to start; giving up.)`;
        beginStop();
        return;
      }
    }
    const delay = restartDelay(restartAttempt++);
    logger.warn(
      { ...details, reason: member.listening || asked ? undefined : failure, restartInMs: delay },
      member.listening || asked
        ? 'server process exited; starting another'
        : 'server process failed to start; retrying',
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    restarts.add(timer);
  }

  function finish(): void {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    clearTimeout(killGrace);
    options.onStopped(exitCode, failure);
  }

  function killAll(why: string): void {
    exitCode = 1;
    for (const { worker } of members.values()) {
      logger.warn({ worker: worker.id, pid: worker.process.pid }, why);
      worker.process.kill('SIGKILL');
    }
    // An exit event that never comes must not keep the primary waiting.
    killGrace ??= setTimeout(finish, KILL_GRACE_MS);
  }

  function beginStop(): void {
    stopping = true;
    stoppedAt = Date.now();
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    if (members.size === 0) return finish();
    for (const { worker } of members.values()) worker.process.kill('SIGTERM');
    deadline = setTimeout(() => killAll('server process did not stop in time; killing it'), deadlineMs);
  }

  return {
    start() {
      for (let i = 0; i < options.workers; i++) fork();
    },
    stop(signal) {
      if (!stopping) {
        logger.info({ signal, workers: members.size }, 'shutting down');
        beginStop();
        return;
      }
      if (finished || Date.now() - stoppedAt < REPEATED_SIGNAL_MS) return;
      logger.warn({ signal }, 'second signal: stopping the server processes at once');
      killAll('server process killed');
    },
  };
}
