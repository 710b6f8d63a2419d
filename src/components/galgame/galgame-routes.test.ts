import { describe, expect, it } from 'vitest';
import { galgameListQuerySchema, type GalgameCard } from '../../shared/catalogue.ts';
import { HttpError } from '../../server/platform/errors.ts';
import {
  groupByDay,
  notFoundResponse,
  orNotFound,
  hasFilters,
  lastPageRedirect,
  listHref,
  listSize,
  pageItems,
  parseMonth,
  responsivePageItems,
  parseRouteId,
  shiftMonth,
  withoutFilter,
} from './galgame-routes.ts';

describe('route ids', () => {
  it('accepts positive integers only', () => {
    expect(parseRouteId('12')).toBe(12);
    for (const bad of [undefined, '', ' ', '0', '-1', '01', '1.5', '1e3', 'abc', '12abc', '99999999999999999'])
      expect(parseRouteId(bad), String(bad)).toBeNull();
  });
});

describe('not found', () => {
  it('turns a 404 from a service into null and lets other errors through', async () => {
    expect(await orNotFound(async () => 5)).toBe(5);
    expect(
      await orNotFound(() => Promise.reject(new HttpError(404, 'NOT_FOUND', 'server.galgameNotFound'))),
    ).toBeNull();
    await expect(orNotFound(() => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
  });

  it('answers with an empty 404 so the site renders its error page', () => {
    const response = notFoundResponse();
    expect(response.status).toBe(404);
    expect(response.body).toBeNull();
  });
});

describe('list links', () => {
  const query = galgameListQuerySchema.parse({ tag: '3', platform: 'switch', nsfw: 'safe', sort: 'rating', page: '2' });

  it('keeps the filters and leaves defaults out', () => {
    expect(listHref(galgameListQuerySchema.parse({}))).toBe('/galgame/list');
    expect(listHref(query)).toBe('/galgame/list?tag=3&platform=switch&nsfw=safe&sort=rating&page=2');
    expect(listHref({ ...query, page: 3 })).toBe('/galgame/list?tag=3&platform=switch&nsfw=safe&sort=rating&page=3');
  });

  it('removes one filter and goes back to the first page', () => {
    expect(withoutFilter(query, 'tag')).toBe('/galgame/list?platform=switch&nsfw=safe&sort=rating');
    expect(withoutFilter(query, 'nsfw')).toBe('/galgame/list?tag=3&platform=switch&sort=rating');
    expect(hasFilters(query)).toBe(true);
    expect(hasFilters(galgameListQuerySchema.parse({ sort: 'rating' }))).toBe(false);
  });

  it('numbers pages around the current one with gaps', () => {
    const show = (current: number, total: number) =>
      pageItems(current, total)
        .map((i) => (i.kind === 'gap' ? '…' : i.current ? `[${i.page}]` : String(i.page)))
        .join(' ');
    expect(show(1, 1)).toBe('[1]');
    expect(show(1, 3)).toBe('[1] 2 3');
    expect(show(6, 20)).toBe('1 … 4 5 [6] 7 8 … 20');
    expect(show(4, 20)).toBe('1 2 3 [4] 5 6 … 20');
    expect(show(20, 20)).toBe('1 … 18 19 [20]');
  });

  it('renders one row for phones and wider screens, each seeing what pageItems gives it', () => {
    const text = (items: ReturnType<typeof pageItems>) =>
      items.map((i) => (i.kind === 'gap' ? '…' : i.current ? `[${i.page}]` : String(i.page))).join(' ');
    for (const total of [1, 2, 3, 5, 7, 9, 20, 834]) {
      for (let current = 1; current <= Math.min(total, 40); current++) {
        const row = responsivePageItems(current, total);
        expect(text(row.filter((i) => i.phone)), `${current}/${total} phone`).toBe(text(pageItems(current, total, 1)));
        expect(text(row.filter((i) => i.wide)), `${current}/${total} wide`).toBe(text(pageItems(current, total, 2)));
      }
    }
    expect(
      responsivePageItems(6, 20).map(
        (i) => `${i.kind === 'gap' ? '…' : i.page}${i.phone ? '' : 'w'}${i.wide ? '' : 'p'}`,
      ),
    ).toEqual(['1', '…w', '4w', '…p', '5', '6', '7', '8w', '…', '20']);
  });
});

describe('release calendar', () => {
  const now = new Date('2026-11-30T18:00:00Z'); // already December 1st in Shanghai

  it('reads ?month and falls back to the current month of the site', () => {
    expect(parseMonth('2026-11', now)).toEqual({ year: 2026, month: 11 });
    expect(parseMonth(null, now)).toEqual({ year: 2026, month: 12 });
    expect(parseMonth('2026-13', now)).toEqual({ year: 2026, month: 12 });
    expect(parseMonth('nope', now)).toEqual({ year: 2026, month: 12 });
  });

  it('moves across years', () => {
    expect(shiftMonth({ year: 2026, month: 12 }, 1)).toEqual({ year: 2027, month: 1 });
    expect(shiftMonth({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
  });

  it('groups the games of a month by day', () => {
    const game = (id: number, releaseDate: string | null) => ({ id, releaseDate }) as GalgameCard;
    const days = groupByDay([game(1, '2026-11-06'), game(2, '2026-11-20'), game(3, '2026-11-06'), game(4, null)]);
    expect(days.map((d) => [d.date, d.games.map((g) => g.id)])).toEqual([
      ['2026-11-06', [1, 3]],
      ['2026-11-20', [2]],
    ]);
  });
});

describe('a page past the end of the list', () => {
  const query = (params: Record<string, string>) => galgameListQuerySchema.parse(params);

  it('goes to the last page, keeping the filters and the order', () => {
    expect(
      lastPageRedirect(query({ page: '999', platform: 'switch', sort: 'rating' }), {
        page: 999,
        total: 30,
        totalPages: 2,
      }),
    ).toBe('/galgame/list?platform=switch&sort=rating&page=2');
    expect(lastPageRedirect(query({ page: '5' }), { page: 5, total: 16, totalPages: 1 })).toBe('/galgame/list');
    // Past the pages a long list offers: to its last page, however many games it has.
    expect(lastPageRedirect(query({ page: '900' }), { page: 900, total: 100_000, totalPages: 417 })).toBe(
      '/galgame/list?page=417',
    );
  });

  it('says "more than" for a capped count, and when the pages end before the list does', () => {
    expect(listSize({ page: 1, limit: 24, total: 30, totalPages: 2 })).toEqual({
      key: 'galgame.list.total',
      endsEarly: false,
    });
    expect(listSize({ page: 1, limit: 24, total: 100_000, totalPages: 417 })).toEqual({
      key: 'galgame.list.total',
      endsEarly: true,
    });
    expect(listSize({ page: 1, limit: 24, total: 10_000, totalPages: 417, capped: true })).toEqual({
      key: 'galgame.list.totalMore',
      endsEarly: true,
    });
  });

  it('stays on pages that exist, and on an empty list', () => {
    expect(lastPageRedirect(query({ page: '2' }), { page: 2, total: 30, totalPages: 2 })).toBeNull();
    expect(lastPageRedirect(query({}), { page: 1, total: 16, totalPages: 1 })).toBeNull();
    expect(lastPageRedirect(query({ page: '3', nsfw: 'nsfw' }), { page: 3, total: 0, totalPages: 1 })).toBeNull();
  });
});
