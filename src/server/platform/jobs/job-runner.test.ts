import { describe, expect, it } from 'vitest';
import { useJobDatabase } from './job-test-db.ts';
import type { PlatformLogger } from '../bus/bus.ts';
import { enqueue, iso } from './job-queue.ts';
import { createJobRunner, retryDelay, type JobRunnerOptions } from './job-runner.ts';

const T = Date.parse('2026-11-23T10:00:00.000Z');
type Jobs = { 'mail.send': { n: number }; housekeeping: { scheduledFor: string } };

function recordingLogger() {
  const messages: string[] = [];
  const logger: PlatformLogger = {
    error: (_d, message) => messages.push(message),
    warn: (_d, message) => messages.push(message),
    info: (_d, message) => messages.push(message),
  };
  return { logger, messages };
}

/** A promise with its resolve function, to hold a handler mid-job. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('job runner', () => {
  const t = useJobDatabase();

  const job = (id: string) => t.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const runner = (clock: { t: number }, handlers: JobRunnerOptions<Jobs>['handlers'], extra = {}) =>
    createJobRunner<Jobs>({
      db: t.db,
      dialect: t.dialect,
      handlers,
      logger: recordingLogger().logger,
      leaseMs: 30_000,
      backoff: { baseMs: 1000, maxMs: 60_000 },
      now: () => clock.t,
      random: () => 1,
      ...extra,
    });
  const housekeeping = async () => {};

  it('backs off exponentially with jitter, up to the cap', () => {
    const b = { baseMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4].map((n) => retryDelay(n, b, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelay(3, b, () => 0)).toBe(2000);
    expect(retryDelay(30, b, () => 1)).toBe(60_000);
  });

  it('retries a failing job after a growing wait, then records success', async () => {
    const clock = { t: T };
    const seen: { n: number; attempt: number }[] = [];
    const r = runner(clock, {
      'mail.send': (payload, ctx) => {
        seen.push({ n: payload.n, attempt: ctx.attempt });
        if (ctx.attempt < 3) throw new Error(`SMTP down (try ${ctx.attempt})`);
      },
      housekeeping,
    });
    const { id } = await enqueue(t.db, 'mail.send', { n: 1 }, { now: T });
    expect(await r.runDue()).toBe(1);
    expect(await job(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      run_at: iso(T + 1000),
      last_error: 'Error: SMTP down (try 1)',
      locked_by: null,
    });
    clock.t = T + 999;
    expect(await r.runDue()).toBe(0);
    clock.t = T + 1000;
    expect(await r.runDue()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 2, run_at: iso(T + 1000 + 2000) });
    clock.t = T + 3000;
    expect(await r.runDue()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 3, lease_until: null, locked_by: null });
    expect(seen).toEqual([1, 2, 3].map((attempt) => ({ n: 1, attempt })));
    clock.t = T + 100_000;
    expect(await r.runDue()).toBe(0);
  });

  it('buries a job as dead after its last attempt, keeping the last error', async () => {
    const clock = { t: T };
    const r = runner(clock, {
      'mail.send': (p, ctx) => {
        throw new Error(`bad address ${p.n} (${ctx.attempt}/${ctx.maxAttempts})`);
      },
      housekeeping,
    });
    const { id } = await enqueue(t.db, 'mail.send', { n: 9 }, { maxAttempts: 2, now: T });
    await r.runDue();
    clock.t = T + 1000;
    await r.runDue();
    expect(await job(id)).toMatchObject({ status: 'dead', attempts: 2, last_error: 'Error: bad address 9 (2/2)' });
    clock.t = T + 10 * 60_000;
    expect(await r.runDue()).toBe(0);
  });

  it('hands a job whose worker stopped answering to another runner once the lease ends', async () => {
    const clock = { t: T };
    const held = gate();
    const started = gate();
    const { logger, messages } = recordingLogger();
    const a = runner(
      clock,
      {
        'mail.send': async () => {
          started.open();
          await held.opened;
        },
        housekeeping,
      },
      { logger, workerId: 'worker-a' },
    );
    const b = runner(clock, { 'mail.send': () => {}, housekeeping }, { workerId: 'worker-b' });
    const { id } = await enqueue(t.db, 'mail.send', { n: 1 }, { now: T });
    const first = a.runDue();
    await started.opened;
    expect(await job(id)).toMatchObject({ status: 'running', locked_by: 'worker-a', lease_until: iso(T + 30_000) });
    clock.t = T + 29_999;
    expect(await b.runDue()).toBe(0);
    clock.t = T + 30_000;
    expect(await b.runDue()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
    // The first worker comes back: its late result changes nothing.
    held.open();
    await first;
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2, last_error: null });
    expect(messages).toContain('job finished after its lease was taken over');
  });

  it('renews the lease while a handler runs, and aborts the handler once another worker took the job', async () => {
    const clock = { t: T };
    const started = gate();
    let aborted = false;
    // A short lease so renewals (every third of it) happen within the test.
    const a = runner(
      clock,
      {
        'mail.send': async (_p, ctx) => {
          started.open();
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
          aborted = true;
        },
        housekeeping,
      },
      { leaseMs: 300, workerId: 'worker-a' },
    );
    // B's clock is ahead of A's, so A's renewals (to A's now + 300) never reach past B's now.
    const clockB = { t: T + 500 };
    const b = runner(clockB, { 'mail.send': () => {}, housekeeping }, { leaseMs: 300, workerId: 'worker-b' });
    const { id } = await enqueue(t.db, 'mail.send', { n: 1 }, { now: T });
    const first = a.runDue();
    await started.opened;
    clock.t = T + 200;
    const renewed = async () => (await job(id)).lease_until === iso(T + 200 + 300);
    for (let i = 0; i < 100 && !(await renewed()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await job(id)).toMatchObject({ status: 'running', lease_until: iso(T + 500) });
    expect(await b.runDue()).toBe(1);
    await first;
    expect(aborted).toBe(true);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('marks a job dead when its worker vanished during the last attempt', async () => {
    const clock = { t: T };
    const started = gate();
    const never = gate();
    const a = runner(clock, {
      'mail.send': async () => {
        started.open();
        await never.opened;
      },
      housekeeping,
    });
    const b = runner(clock, { 'mail.send': () => {}, housekeeping });
    const { id } = await enqueue(t.db, 'mail.send', { n: 1 }, { maxAttempts: 1, now: T });
    const first = a.runDue();
    await started.opened;
    clock.t = T + 30_000;
    expect(await b.runDue()).toBe(0);
    await b.maintain();
    expect(await job(id)).toMatchObject({
      status: 'dead',
      locked_by: null,
      last_error: expect.stringMatching(/lease/),
    });
    never.open();
    await first;
    expect((await job(id)).status).toBe('dead');
  });

  it('waits for running jobs when stopped, and claims nothing more', async () => {
    const held = gate();
    const started = gate();
    const handled: number[] = [];
    const r = createJobRunner<Jobs>({
      db: t.db,
      dialect: t.dialect,
      logger: recordingLogger().logger,
      concurrency: 1,
      pollMs: 10,
      handlers: {
        'mail.send': async (p) => {
          started.open();
          await held.opened;
          handled.push(p.n);
        },
        housekeeping,
      },
    });
    const { id } = await enqueue(t.db, 'mail.send', { n: 1 });
    const second = await enqueue(t.db, 'mail.send', { n: 2 }, { runAt: Date.now() + 60_000 });
    r.start();
    await started.opened;
    let stopped = false;
    const stopping = r.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(handled).toEqual([1]);
    expect((await job(id)).status).toBe('done');
    expect((await job(second.id)).status).toBe('queued');
  });

  it('keeps taking jobs while more are due, without waiting for the next poll', async () => {
    for (let n = 0; n < 10; n++) await enqueue(t.db, 'mail.send', { n });
    const handled: number[] = [];
    const r = createJobRunner<Jobs>({
      db: t.db,
      dialect: t.dialect,
      logger: recordingLogger().logger,
      concurrency: 2,
      pollMs: 60_000,
      handlers: { 'mail.send': (p) => void handled.push(p.n), housekeeping },
    });
    r.start();
    for (let i = 0; i < 250 && handled.length < 10; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await r.stop();
    expect(handled.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('runs each of 100 jobs exactly once with two runners racing', async () => {
    const counts = new Map<number, number>();
    const inFlight = new Map<string, number>();
    let mostInFlight = 0;
    const handle = async (p: { n: number }, ctx: { id: string }) => {
      const worker = (await job(ctx.id)).locked_by ?? '';
      inFlight.set(worker, (inFlight.get(worker) ?? 0) + 1);
      mostInFlight = Math.max(mostInFlight, inFlight.get(worker)!);
      await new Promise((resolve) => setTimeout(resolve, 2));
      counts.set(p.n, (counts.get(p.n) ?? 0) + 1);
      inFlight.set(worker, inFlight.get(worker)! - 1);
    };
    for (let n = 0; n < 100; n++) await enqueue(t.db, 'mail.send', { n }, { now: T });
    const clock = { t: T };
    const runners = ['x', 'y'].map((w) =>
      runner(clock, { 'mail.send': handle, housekeeping }, { workerId: `worker-${w}`, concurrency: 4 }),
    );
    const perRunner = await Promise.all(
      runners.map(async (r) => {
        let total = 0;
        for (let ran = -1; ran !== 0; total += ran) ran = await r.runDue();
        return total;
      }),
    );
    expect(perRunner[0]! + perRunner[1]!).toBe(100);
    expect(counts.size).toBe(100);
    // Each claim takes no more jobs than the runner has free slots.
    expect(mostInFlight).toBeLessThanOrEqual(4);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    const statuses = await t.db.selectFrom('job').select('status').distinct().execute();
    expect(statuses).toEqual([{ status: 'done' }]);
  });

  it('runs a recurring job once per slot with several runners scheduling it', async () => {
    const every = 60_000;
    const slot = Math.floor(T / every) * every + every;
    const clock = { t: T + 5 };
    const ran: string[] = [];
    const handlers = {
      'mail.send': () => {},
      housekeeping: (p: { scheduledFor: string }) => void ran.push(p.scheduledFor),
    };
    const runners = [runner(clock, handlers), runner(clock, handlers)];
    for (const r of runners) r.schedule('housekeeping', every);
    expect(() => runner(clock, { 'mail.send': () => {} } as never).schedule('housekeeping', every)).toThrow(
      /no handler/,
    );
    await Promise.all(runners.map((r) => r.maintain()));
    await Promise.all(runners.map((r) => r.maintain()));
    clock.t = slot;
    expect((await Promise.all(runners.map((r) => r.runDue()))).reduce((a, b) => a + b)).toBe(1);
    await Promise.all(runners.map((r) => r.maintain()));
    clock.t = slot + every;
    expect((await Promise.all(runners.map((r) => r.runDue()))).reduce((a, b) => a + b)).toBe(1);
    expect(ran).toEqual([iso(slot), iso(slot + every)]);
    await Promise.all(runners.map((r) => r.maintain()));
    const rows = await t.db.selectFrom('job').select(['status', 'run_at']).orderBy('run_at').execute();
    expect(rows).toEqual([
      { status: 'done', run_at: iso(slot) },
      { status: 'done', run_at: iso(slot + every) },
      { status: 'queued', run_at: iso(slot + 2 * every) },
    ]);
  });
});
