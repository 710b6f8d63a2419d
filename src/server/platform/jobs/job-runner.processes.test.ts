import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import type { DatabaseTarget } from '../config.ts';
import type { PlatformLogger } from '../bus/bus.ts';
import { startPeer, type PeerProcess } from '../bus/peer-process.fixture.ts';
import { enqueue } from './job-queue.ts';
import { createJobRunner } from './job-runner.ts';

const peerScript = fileURLToPath(new URL('./job-peer.fixture.ts', import.meta.url));
const silent: PlatformLogger = { error: () => {}, warn: () => {}, info: () => {} };

/** Where the test database lives, so another process can open it. */
async function targetOf(t: TestDatabase): Promise<DatabaseTarget> {
  if (t.dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows[0]!.name}`;
    return { dialect: 'postgres', url: url.toString() };
  }
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(t.db);
  return { dialect: 'sqlite', file: rows[0]!.file };
}

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('job runners in separate processes', () => {
  let t: TestDatabase;
  let target: DatabaseTarget;
  const peers: PeerProcess[] = [];
  beforeAll(async () => {
    t = await createTestDatabase();
    target = await targetOf(t);
  });
  afterAll(async () => {
    for (const peer of peers) peer.child.kill('SIGKILL');
    await Promise.all(peers.map((peer) => peer.exited()));
    await t.destroy();
  });
  beforeEach(async () => {
    await t.db.deleteFrom('job').execute();
  });

  it('two processes racing over 100 jobs handle each exactly once', async () => {
    const a = startPeer(peerScript, [JSON.stringify(target), 'process-a']);
    const b = startPeer(peerScript, [JSON.stringify(target), 'process-b']);
    peers.push(a, b);
    await Promise.all([a.waitFor((l) => l.ready === true), b.waitFor((l) => l.ready === true)]);
    await t.db.transaction().execute(async (trx) => {
      for (let n = 0; n < 100; n++) await enqueue(trx, 'race.job', { n });
    });
    const done = async () =>
      Number(
        (
          await t.db
            .selectFrom('job')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'done')
            .executeTakeFirstOrThrow()
        ).n,
      ) === 100;
    await until(done);
    a.send({ stop: true });
    b.send({ stop: true });
    await Promise.all([a.waitFor((l) => l.stopped === true), b.waitFor((l) => l.stopped === true)]);

    const handled = (peer: PeerProcess) => peer.lines.filter((l) => 'handled' in l).map((l) => l.handled as number);
    const all = [...handled(a), ...handled(b)].sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: 100 }, (_, n) => n));
    // Both took part (a process that never claimed anything would make this test prove nothing).
    expect({ a: handled(a).length > 0, b: handled(b).length > 0, logs: a.stderr() + b.stderr() }).toMatchObject({
      a: true,
      b: true,
    });
    // A claim never takes more than the free slots (4 per process).
    const most = (peer: PeerProcess) => Math.max(0, ...peer.lines.map((l) => Number(l.claimedAtOnce ?? 0)));
    expect(Math.max(most(a), most(b))).toBeLessThanOrEqual(4);
    const attempts = await t.db.selectFrom('job').select('attempts').distinct().execute();
    expect(attempts).toEqual([{ attempts: 1 }]);
  }, 90_000);

  it('a job whose process was killed mid-job is finished by another once the lease ends', async () => {
    const leaseMs = 60_000;
    const victim = startPeer(peerScript, [JSON.stringify(target), 'process-killed', String(leaseMs)]);
    peers.push(victim);
    await victim.waitFor((l) => l.ready === true);
    const { id } = await enqueue(t.db, 'hang.job', { n: 1 });
    await victim.waitFor((l) => l.started === 1);
    victim.child.kill('SIGKILL');
    await victim.exited();
    const row = () => t.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ status: 'running', locked_by: 'process-killed', attempts: 1 });

    // The restarted service, its clock moved past the dead worker's lease.
    const finished: number[] = [];
    const clock = { offset: 0 };
    const survivor = createJobRunner<{ 'hang.job': { n: number } }>({
      db: t.db,
      dialect: t.dialect,
      logger: silent,
      leaseMs,
      now: () => Date.now() + clock.offset,
      handlers: { 'hang.job': (p) => void finished.push(p.n) },
    });
    expect(await survivor.runDue()).toBe(0);
    clock.offset = leaseMs + 1;
    expect(await survivor.runDue()).toBe(1);
    expect(finished).toEqual([1]);
    expect(await row()).toMatchObject({ status: 'done', attempts: 2, locked_by: null });
  }, 90_000);
});
