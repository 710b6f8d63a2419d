import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { listAnnouncements } from '../../modules/announcement/announcement.service.ts';
import { demoAnnouncements } from './demo-content.ts';
import { needsDemoSeed, runDemoSeed } from './demo-seed.ts';

describe('demo seed', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.destroy());

  it('runs on an empty database, is deterministic and idempotent', async () => {
    expect(await needsDemoSeed(t.db)).toBe(true);
    await runDemoSeed(t.db);
    expect(await needsDemoSeed(t.db)).toBe(false);
    const first = await listAnnouncements(t.db, 100);
    await runDemoSeed(t.db);
    const second = await listAnnouncements(t.db, 100);
    expect(second).toEqual(first);
    expect(first).toHaveLength(demoAnnouncements.length);
  });

  it('lists pinned announcements first, then the newest', async () => {
    const list = await listAnnouncements(t.db, 3);
    expect(list.map((a) => a.id)).toEqual(['ann-0002', 'ann-0001', 'ann-0005']);
    expect(list[0]?.pinned).toBe(true);
  });
});
