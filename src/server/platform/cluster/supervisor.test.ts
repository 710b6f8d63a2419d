import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlatformLogger } from '../bus/bus.ts';
import { createSupervisor, defaultRestartDelay, type SupervisedWorker, type SupervisorOptions } from './supervisor.ts';

/** A worker that does what the test tells it: listen, fail, exit; it records the signals it gets. */
class FakeWorker extends EventEmitter {
  readonly id: number;
  readonly signals: string[] = [];
  readonly process: SupervisedWorker['process'];
  readonly received: object[] = [];
  /** Exits at once on SIGTERM (with this code), or never when null (a stuck worker). */
  onSigterm: number | null = 0;
  exited = false;

  constructor(id: number) {
    super();
    this.id = id;
    this.process = {
      pid: 1000 + id,
      kill: (signal = 'SIGTERM') => {
        this.signals.push(signal);
        if (signal === 'SIGKILL') this.exit(null, 'SIGKILL');
        else if (this.onSigterm !== null) this.exit(this.onSigterm, null);
        return true;
      },
    };
  }

  send(message: object, done: (error: Error | null) => void): boolean {
    this.received.push(message);
    done(null);
    return true;
  }

  listen(port = 4321): void {
    this.emit('listening', { address: '127.0.0.1', port });
  }

  exit(code: number | null, signal: string | null = null): void {
    if (this.exited) return;
    this.exited = true;
    this.emit('exit', code, signal);
  }
}

function harness(overrides: Partial<SupervisorOptions> = {}) {
  const workers: FakeWorker[] = [];
  const logs: { level: string; message: string; details: Record<string, unknown> }[] = [];
  const logger: PlatformLogger = {
    error: (details, message) => logs.push({ level: 'error', message, details: details as Record<string, unknown> }),
    warn: (details, message) => logs.push({ level: 'warn', message, details: details as Record<string, unknown> }),
    info: (details, message) => logs.push({ level: 'info', message, details: details as Record<string, unknown> }),
  };
  const ready = vi.fn();
  const stopped = vi.fn();
  const supervisor = createSupervisor({
    workers: 2,
    fork: () => {
      const worker = new FakeWorker(workers.length + 1);
      workers.push(worker);
      return worker as unknown as SupervisedWorker;
    },
    logger,
    onReady: ready,
    onStopped: stopped,
    ...overrides,
  });
  const live = () => workers.filter((w) => !w.exited);
  return { supervisor, workers, live, logs, ready, stopped };
}

describe('cluster supervisor', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('starts the workers and is ready once, when all of them listen', () => {
    const h = harness({ workers: 3 });
    h.supervisor.start();
    expect(h.workers).toHaveLength(3);
    h.workers[0]!.listen();
    h.workers[1]!.listen();
    expect(h.ready).not.toHaveBeenCalled();
    h.workers[2]!.listen(5000);
    expect(h.ready).toHaveBeenCalledTimes(1);
    expect(h.ready).toHaveBeenCalledWith({ address: '127.0.0.1', port: 5000 });
  });

  it('replaces a worker that exits, after a delay that grows while they keep exiting', () => {
    const h = harness();
    h.supervisor.start();
    h.workers.forEach((w) => w.listen());
    h.workers[0]!.exit(1);
    expect(h.workers).toHaveLength(2);
    vi.advanceTimersByTime(99);
    expect(h.workers).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(h.workers).toHaveLength(3);
    h.workers[2]!.listen();
    // A SIGTERM sent to one worker alone is an exit like any other: it is replaced too.
    h.workers[1]!.exit(0);
    vi.advanceTimersByTime(199);
    expect(h.workers).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(h.workers).toHaveLength(4);
    expect(h.ready).toHaveBeenCalledTimes(1);
    expect(h.stopped).not.toHaveBeenCalled();
    expect(h.logs.filter((l) => l.level === 'warn').map((l) => [l.message, l.details.restartInMs])).toEqual([
      ['server process exited; starting another', 100],
      ['server process exited; starting another', 200],
    ]);
  });

  it('goes back to the shortest delay once a worker has served for a while', () => {
    const h = harness({ stableAfterMs: 1000 });
    h.supervisor.start();
    h.workers.forEach((w) => w.listen());
    h.workers[0]!.exit(1);
    vi.advanceTimersByTime(100);
    h.workers[2]!.listen();
    vi.advanceTimersByTime(1000);
    h.workers[1]!.exit(1);
    expect(h.logs.at(-1)?.details.restartInMs).toBe(100);
  });

  it('gives up with the reason when workers keep failing at start and none serves', () => {
    const h = harness({ maxStartFailures: 4 });
    h.supervisor.start();
    const reason = 'Cannot start: port 4321 on 127.0.0.1 is already in use; stop the other server or set PORT.';
    for (let i = 0; i < 10 && !h.stopped.mock.calls.length; i++) {
      for (const worker of h.live()) {
        worker.emit('message', { hikariCluster: 'start-failed', reason });
        worker.exit(1);
      }
      vi.advanceTimersByTime(10_000);
    }
    expect(h.workers).toHaveLength(4);
    expect(h.stopped).toHaveBeenCalledTimes(1);
    const [code, failure] = h.stopped.mock.calls[0] as [number, string];
    expect(code).toBe(1);
    expect(failure).toBe(`${reason} (4 server processes in a row failed to start; giving up.)`);
    expect(failure).not.toContain('\n');
    expect(h.ready).not.toHaveBeenCalled();
    expect(h.logs.find((l) => l.level === 'error')?.message).toBe('server processes keep failing to start');
  });

  it('does not count a worker stopped on request before it listened as a failure to start', () => {
    const h = harness({ maxStartFailures: 2 });
    h.supervisor.start();
    for (let i = 0; i < 3; i++) {
      h.live()[0]!.exit(0);
      h.live()[0]!.exit(null, 'SIGTERM');
      vi.advanceTimersByTime(10_000);
    }
    expect(h.stopped).not.toHaveBeenCalled();
    expect(h.live()).toHaveLength(2);
    expect(h.logs.filter((l) => l.message === 'server process failed to start; retrying')).toEqual([]);
  });

  it('keeps retrying a failing worker while another one serves', () => {
    const h = harness({ maxStartFailures: 2 });
    h.supervisor.start();
    h.workers[0]!.listen();
    for (let i = 0; i < 5; i++) {
      h.live().at(-1)!.exit(1);
      vi.advanceTimersByTime(10_000);
    }
    expect(h.stopped).not.toHaveBeenCalled();
    expect(h.workers).toHaveLength(7);
    expect(h.logs.filter((l) => l.message === 'server process failed to start; retrying')).toHaveLength(5);
  });

  it('stops every worker with SIGTERM and reports 0 once all of them exited cleanly', () => {
    const h = harness();
    h.supervisor.start();
    h.workers.forEach((w) => w.listen());
    h.workers[1]!.onSigterm = null;
    h.supervisor.stop('SIGTERM');
    expect(h.workers.map((w) => w.signals)).toEqual([['SIGTERM'], ['SIGTERM']]);
    expect(h.stopped).not.toHaveBeenCalled();
    h.workers[1]!.exit(0);
    expect(h.stopped).toHaveBeenCalledWith(0, undefined);
    // Nothing is restarted during or after the stop.
    vi.advanceTimersByTime(60_000);
    expect(h.workers).toHaveLength(2);
  });

  it('cancels a pending restart when stopping', () => {
    const h = harness();
    h.supervisor.start();
    h.workers.forEach((w) => w.listen());
    h.workers[0]!.exit(1);
    h.supervisor.stop('SIGINT');
    expect(h.stopped).toHaveBeenCalledWith(0, undefined);
    vi.advanceTimersByTime(60_000);
    expect(h.workers).toHaveLength(2);
  });

  it('kills a worker stuck past the deadline and reports 1', () => {
    const h = harness({ stopDeadlineMs: 5000 });
    h.supervisor.start();
    h.workers.forEach((w) => w.listen());
    h.workers[0]!.onSigterm = null;
    h.supervisor.stop('SIGTERM');
    vi.advanceTimersByTime(4999);
    expect(h.stopped).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(h.workers[0]!.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(h.stopped).toHaveBeenCalledWith(1, undefined);
  });

  it('reports even when a killed worker never says it exited', () => {
    const h = harness({ stopDeadlineMs: 1000 });
    h.supervisor.start();
    const stuck = h.workers[0]!;
    stuck.onSigterm = null;
    stuck.process.kill = (signal) => {
      stuck.signals.push(signal ?? 'SIGTERM');
      return true;
    };
    h.workers[1]!.listen();
    h.supervisor.stop('SIGTERM');
    vi.advanceTimersByTime(1000);
    expect(stuck.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(h.stopped).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2000);
    expect(h.stopped).toHaveBeenCalledWith(1, undefined);
  });

  it('takes a second signal a moment later as "now", but not the same signal arriving twice at once', () => {
    const h = harness();
    h.supervisor.start();
    h.workers.forEach((w) => (w.onSigterm = null));
    h.supervisor.stop('SIGINT');
    h.supervisor.stop('SIGINT');
    expect(h.workers.map((w) => w.signals)).toEqual([['SIGTERM'], ['SIGTERM']]);
    vi.advanceTimersByTime(1500);
    h.supervisor.stop('SIGINT');
    expect(h.workers.map((w) => w.signals)).toEqual([
      ['SIGTERM', 'SIGKILL'],
      ['SIGTERM', 'SIGKILL'],
    ]);
    expect(h.stopped).toHaveBeenCalledWith(1, undefined);
    h.supervisor.stop('SIGINT');
    expect(h.stopped).toHaveBeenCalledTimes(1);
  });

  it('reports 1 when a worker fails its own shutdown', () => {
    const h = harness();
    h.supervisor.start();
    h.workers[0]!.onSigterm = 1;
    h.supervisor.stop('SIGTERM');
    expect(h.stopped).toHaveBeenCalledWith(1, undefined);
  });

  it('counts a worker ended by the SIGTERM itself (still starting, no handler yet) as stopped', () => {
    const h = harness();
    h.supervisor.start();
    h.workers.forEach((w) => (w.onSigterm = null));
    h.supervisor.stop('SIGTERM');
    h.workers[0]!.exit(0);
    h.workers[1]!.exit(null, 'SIGTERM');
    expect(h.stopped).toHaveBeenCalledWith(0, undefined);
  });

  it('answers a stopping worker that settles with it before exiting', () => {
    const h = harness();
    h.supervisor.start();
    h.workers[0]!.emit('message', { hikariCluster: 'settle' });
    h.workers[0]!.emit('message', { other: true });
    expect(h.workers[0]!.received).toEqual([{ hikariCluster: 'settled' }]);
    expect(h.workers[1]!.received).toEqual([]);
  });

  it('waits 100 ms, then twice as long each time, up to 10 s', () => {
    expect([0, 1, 2, 6, 7, 50].map(defaultRestartDelay)).toEqual([100, 200, 400, 6400, 10_000, 10_000]);
  });
});
