import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { lightnovelDetail, lightnovelFrontPage } from '../../modules/lightnovel/lightnovel.service.ts';
import type { Db } from '../database.ts';
import { seedDemoLightnovels } from './demo-lightnovels.ts';

const NOW = new Date('2026-11-22T08:00:00.000Z');

async function counts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    'lightnovel',
    'lightnovel_volume',
    'lightnovel_staff',
    'lightnovel_producer',
    'person',
    'producer',
  ] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

describe('demo light novels', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.destroy());

  it('writes eight series with ids 1…8 in order, and running it again changes nothing', async () => {
    expect(await seedDemoLightnovels(t.db, NOW)).toEqual({ series: 8, volumes: 25 });
    const first = await counts(t.db);
    expect(first).toMatchObject({
      lightnovel: 8,
      lightnovel_volume: 25,
      lightnovel_staff: 16,
      lightnovel_producer: 16,
    });
    const rows = await t.db.selectFrom('lightnovel').select(['id', 'name_zh', 'serial_status']).orderBy('id').execute();
    expect(rows.slice(0, 3)).toEqual([
      { id: 1, name_zh: '星见坂图书室的四季', serial_status: 'serialising' },
      { id: 2, name_zh: '雨夜信笺', serial_status: 'finished' },
      { id: 3, name_zh: '终点站的猫', serial_status: 'serialising' },
    ]);
    expect(await seedDemoLightnovels(t.db, new Date(NOW.getTime() + 86_400_000))).toEqual({ series: 8, volumes: 25 });
    expect(await counts(t.db)).toEqual(first);
  });

  it('finds the first main volume of each series, and has new volumes this month', async () => {
    for (const id of [1, 2, 3]) {
      const detail = await lightnovelDetail(t.db, id);
      expect(detail.volumes[0]).toMatchObject({ kind: 'main', number: 1 });
      expect(detail.staff.map((p) => p.role).sort()).toEqual(['author', 'illustrator']);
      expect(detail.producers.map((p) => p.role).sort()).toEqual(['label', 'publisher']);
      expect(detail.volumeCount).toBe(detail.volumes.length);
    }
    const front = await lightnovelFrontPage(t.db, NOW);
    expect(front.newVolumes.length).toBeGreaterThanOrEqual(8);
    expect(front.newVolumes.filter((v) => (v.releaseDate ?? '') >= '2026-11-01').length).toBeGreaterThanOrEqual(2);
    expect(front.serialising.map((s) => s.id).sort()).toEqual([1, 3, 4, 8]);
    expect(front.labels).toHaveLength(3);
  });
});
