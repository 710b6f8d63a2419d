import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-db.ts';
import { offsetOf, onPage, pageInfo, paginate } from './paginate.ts';

const NOW = '2026-11-22T08:00:00.000Z';

describe('page arithmetic', () => {
  it('skips the rows of the pages before', () => {
    expect(offsetOf({ page: 1, limit: 20 })).toBe(0);
    expect(offsetOf({ page: 3, limit: 20 })).toBe(40);
  });

  it('counts pages, with an empty list as one page', () => {
    expect(pageInfo({ page: 1, limit: 10 }, 0)).toEqual({ page: 1, limit: 10, total: 0, totalPages: 1 });
    expect(pageInfo({ page: 2, limit: 10 }, 10)).toEqual({ page: 2, limit: 10, total: 10, totalPages: 1 });
    expect(pageInfo({ page: 2, limit: 10 }, 11)).toEqual({ page: 2, limit: 10, total: 11, totalPages: 2 });
  });

  it('ends the pages at a limit and marks a capped count', () => {
    expect(pageInfo({ page: 1, limit: 24 }, 100_000, { maxPages: 417 })).toEqual({
      page: 1,
      limit: 24,
      total: 100_000,
      totalPages: 417,
    });
    expect(pageInfo({ page: 1, limit: 24 }, 240, { maxPages: 417 }).totalPages).toBe(10);
    expect(pageInfo({ page: 3, limit: 24 }, 10_000, { maxPages: 417, capped: true })).toEqual({
      page: 3,
      limit: 24,
      total: 10_000,
      totalPages: 417,
      capped: true,
    });
  });
});

describe('paginate on the database', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db
      .insertInto('tag')
      .values(Array.from({ length: 23 }, (_, i) => ({ id: i + 1, name: `tag ${i + 1}`, created_at: NOW })))
      .execute();
  });
  afterAll(async () => t.destroy());

  const rows = () => t.db.selectFrom('tag').select(['id']).where('id', '>', 2).orderBy('id');
  const count = () =>
    t.db
      .selectFrom('tag')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('id', '>', 2);

  it('reads one page and the filtered total (a number on both databases)', async () => {
    const page = await paginate({ page: 2, limit: 5 }, rows(), count());
    expect(page.items.map((r) => r.id)).toEqual([8, 9, 10, 11, 12]);
    expect(page.pagination).toEqual({ page: 2, limit: 5, total: 21, totalPages: 5 });
    expect(typeof page.pagination.total).toBe('number');
  });

  it('gives the short last page and an empty page past the end', async () => {
    expect((await paginate({ page: 5, limit: 5 }, rows(), count())).items.map((r) => r.id)).toEqual([23]);
    const past = await paginate({ page: 9, limit: 5 }, rows(), count());
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(21);
  });

  it('pages a query without counting it', async () => {
    expect((await onPage(rows(), { page: 3, limit: 10 }).execute()).map((r) => r.id)).toEqual([23]);
  });
});
