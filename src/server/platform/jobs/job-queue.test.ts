import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useJobDatabase } from './job-test-db.ts';
import { enqueue, MAX_JOB_PAYLOAD_BYTES, pruneJobs, scheduleRecurring } from './job-queue.ts';

const T = Date.parse('2026-11-23T10:00:00.000Z');

describe('job queue: enqueue, schedule, prune', () => {
  const t = useJobDatabase();
  const jobs = () => t.db.selectFrom('job').selectAll().orderBy('run_at').execute();

  it('writes a job that waits for its time', async () => {
    const runAt = new Date(T + 5000);
    const { id, deduplicated } = await enqueue(t.db, 'mail.send', { to: 'a@example.org' }, { runAt, now: T });
    expect(deduplicated).toBe(false);
    expect(await jobs()).toEqual([
      expect.objectContaining({
        id,
        name: 'mail.send',
        payload: '{"to":"a@example.org"}',
        status: 'queued',
        attempts: 0,
        max_attempts: 5,
        run_at: runAt.toISOString(),
        lease_until: null,
        locked_by: null,
        last_error: null,
        created_at: new Date(T).toISOString(),
      }),
    ]);
  });

  it('writes nothing when the enqueueing transaction rolls back, and the job when it commits', async () => {
    const failed = t.db.transaction().execute(async (trx) => {
      await enqueue(trx, 'mail.send', { n: 1 });
      throw new Error('the caller failed after enqueueing');
    });
    await expect(failed).rejects.toThrow('the caller failed');
    expect(await jobs()).toEqual([]);
    await t.db.transaction().execute(async (trx) => {
      await enqueue(trx, 'mail.send', { n: 2 });
    });
    expect((await jobs()).map((j) => j.payload)).toEqual(['{"n":2}']);
  });

  it('keeps one waiting job per dedupe key, without breaking the caller’s transaction', async () => {
    const first = await enqueue(t.db, 'search.reindex', { id: 7 }, { dedupeKey: 'galgame:7', now: T });
    await t.db.transaction().execute(async (trx) => {
      const again = await enqueue(trx, 'search.reindex', { id: 7 }, { dedupeKey: 'galgame:7', now: T });
      expect(again).toEqual({ id: first.id, deduplicated: true });
      // On PostgreSQL a unique violation would have aborted the transaction; this still runs.
      await sql`select 1`.execute(trx);
    });
    const other = await enqueue(t.db, 'search.reindex', { id: 8 }, { dedupeKey: 'galgame:8', now: T });
    expect(other.deduplicated).toBe(false);
    // Once the first is no longer waiting, the key is free again.
    await t.db.updateTable('job').set({ status: 'done' }).where('id', '=', first.id).execute();
    expect((await enqueue(t.db, 'search.reindex', { id: 7 }, { dedupeKey: 'galgame:7', now: T })).deduplicated).toBe(
      false,
    );
    expect(await jobs()).toHaveLength(3);
  });

  it('refuses bad names, options and payloads, and writes nothing', async () => {
    await expect(enqueue(t.db, 'Mail Send', {})).rejects.toThrow(/not valid: use lower-case words/);
    await expect(enqueue(t.db, 'mail.send', {}, { maxAttempts: 0 })).rejects.toThrow(/from 1 to 100/);
    await expect(enqueue(t.db, 'mail.send', {}, { runAt: Number.NaN })).rejects.toThrow(/not a valid time/);
    await expect(enqueue(t.db, 'mail.send', {}, { dedupeKey: '' })).rejects.toThrow(/1 to 200 characters/);
    await expect(enqueue(t.db, 'mail.send', { n: 1n } as never)).rejects.toThrow(/not plain JSON/);
    await expect(enqueue(t.db, 'mail.send', 'x'.repeat(MAX_JOB_PAYLOAD_BYTES))).rejects.toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(await jobs()).toEqual([]);
  });

  it('schedules one waiting instance per slot, however many processes ask', async () => {
    const every = 60_000;
    const slot = Math.floor(T / every) * every + every;
    const asks = await Promise.all([1, 2, 3].map(() => scheduleRecurring(t.db, 'housekeeping', every, T + 1234)));
    expect(asks).toEqual([slot, slot, slot]);
    expect((await jobs()).map((j) => [j.status, j.run_at])).toEqual([['queued', new Date(slot).toISOString()]]);

    // The instance ran; a process whose clock is a little behind does not add it again.
    await t.db.updateTable('job').set({ status: 'done' }).execute();
    expect(await scheduleRecurring(t.db, 'housekeeping', every, slot - 500)).toBe(slot);
    expect(await jobs()).toHaveLength(1);
    // After the slot, the next one is added.
    expect(await scheduleRecurring(t.db, 'housekeeping', every, slot + 1)).toBe(slot + every);
    expect((await jobs()).map((j) => j.status)).toEqual(['done', 'queued']);
    await expect(scheduleRecurring(t.db, 'housekeeping', 10, T)).rejects.toThrow(/at least 1000/);
  });

  it('prunes done jobs after their retention and dead ones after theirs', async () => {
    const day = 24 * 60 * 60 * 1000;
    for (const [status, age] of [
      ['done', 8],
      ['done', 1],
      ['dead', 8],
      ['dead', 31],
      ['queued', 60],
    ] as const) {
      const { id } = await enqueue(t.db, 'mail.send', { status, age }, { now: T - age * day });
      await t.db.updateTable('job').set({ status }).where('id', '=', id).execute();
    }
    const removed = await pruneJobs(t.db, { doneBefore: T - 7 * day, deadBefore: T - 30 * day });
    expect(removed).toBe(2);
    expect((await jobs()).map((j) => j.payload).sort()).toEqual(
      ['{"status":"done","age":1}', '{"status":"dead","age":8}', '{"status":"queued","age":60}'].sort(),
    );
  });
});
