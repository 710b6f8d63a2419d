import { describe, expect, it } from 'vitest';
import { useJobDatabase } from './job-test-db.ts';
import { claimJobs } from './job.repository.ts';
import { enqueue } from './job-queue.ts';

const T = Date.parse('2026-11-23T10:00:00.000Z');

describe('claiming jobs', () => {
  const t = useJobDatabase();
  const claim = (workerId: string, limit: number, now = T, names = ['mail.send']) =>
    claimJobs(t.db, t.dialect, { names, workerId, limit, leaseMs: 30_000, now });

  it('gives concurrent claims disjoint jobs, never more than each asked for', async () => {
    for (let n = 0; n < 60; n++) await enqueue(t.db, 'mail.send', { n }, { now: T });
    const batches = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(`worker-${i}`, 4)));
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(4);
    const ids = batches.flat().map((job) => job.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(60);
    expect(await claim('late', 4)).toEqual([]);
  });

  it('takes only due jobs it has handlers for, oldest first', async () => {
    await enqueue(t.db, 'mail.send', { n: 'later' }, { now: T, runAt: T + 1000 });
    await enqueue(t.db, 'mail.send', { n: 'second' }, { now: T, runAt: T - 10 });
    await enqueue(t.db, 'mail.send', { n: 'first' }, { now: T, runAt: T - 20 });
    await enqueue(t.db, 'search.reindex', { n: 'other' }, { now: T });
    const payloads = (jobs: { payload: string }[]) => jobs.map((job) => JSON.parse(job.payload).n);
    const oldest = await claim('w', 1);
    expect(payloads(oldest)).toEqual(['first']);
    expect(oldest[0]).toMatchObject({ status: 'running', attempts: 1, locked_by: 'w' });
    expect(payloads(await claim('w', 10))).toEqual(['second']);
  });

  it('takes a running job back only once its lease has run out, and not after its last attempt', async () => {
    await enqueue(t.db, 'mail.send', { n: 1 }, { now: T, maxAttempts: 2 });
    expect(await claim('a', 1)).toHaveLength(1);
    expect(await claim('b', 1, T + 29_999)).toEqual([]);
    expect(await claim('b', 1, T + 30_000)).toEqual([expect.objectContaining({ locked_by: 'b', attempts: 2 })]);
    expect(await claim('c', 1, T + 120_000)).toEqual([]);
  });
});
