import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { startPeer, type PeerProcess } from './peer-process.fixture.ts';

const peerScript = fileURLToPath(new URL('./cluster-peer.fixture.ts', import.meta.url));

// Server processes under one cluster primary, on the test database: the cluster bus on SQLite,
// LISTEN/NOTIFY on PostgreSQL (whose channels are per database; the database is this file's own).
describe('the bus between cluster workers', () => {
  let t: TestDatabase;
  let peer: PeerProcess | undefined;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    peer?.child.kill('SIGKILL');
    if (peer) await peer.exited();
    await t.destroy();
  });

  it('carries an event from one worker to the other within a second, and once to its publisher', async () => {
    const topic = `test.cluster_${randomBytes(4).toString('hex')}`;
    peer = startPeer(peerScript, [JSON.stringify(t.target), topic]);
    const p = peer;
    await Promise.all([0, 1].map((w) => p.waitFor((l) => l.worker === w && l.ready === true)));

    p.send({ publish: 'from-0', from: 0 });
    const published = await p.waitFor((l) => l.worker === 0 && l.published === 'from-0');
    const arrived = await p.waitFor((l) => l.worker === 1 && l.event === 'from-0');
    expect(Number(arrived.at) - Number(published.at)).toBeLessThan(1000);

    p.send({ publish: 'from-1', from: 1 });
    await p.waitFor((l) => l.worker === 0 && l.event === 'from-1');
    await p.waitFor((l) => l.worker === 1 && l.event === 'from-1');
    const events = (w: number) => p.lines.filter((l) => l.worker === w && 'event' in l).map((l) => l.event);
    expect(events(0)).toEqual(['from-0', 'from-1']);
    expect(events(1)).toEqual(['from-0', 'from-1']);

    p.send({ exit: true });
    expect(await p.waitFor((l) => 'exited' in l)).toEqual({ exited: [0, 0] });
    expect(await p.exited()).toBe(0);
  }, 60_000);
});
