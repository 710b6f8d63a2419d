import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { fakeApi } from './fake-api.ts';
import { createPointHistory, loadPointsContract, POINT_HISTORY_PAGE_SIZE } from './points-history.ts';

beforeAll(() => loadPointsContract());

const pageOf = (page: number) => ({
  items: [
    {
      _id: `e${page}`,
      amount: 5,
      reason: 'check_in',
      reference: '2026-11-24',
      balanceAfter: 105,
      createdAt: '2026-11-24T01:00:00.000Z',
    },
  ],
  pagination: { page, totalPages: 3, limit: POINT_HISTORY_PAGE_SIZE, total: 41 },
  hikariPoint: 105,
});

describe('the points history', () => {
  it('loads a page of the ledger', async () => {
    const fake = fakeApi();
    const history = createPointHistory(fake.client.call);
    const loading = history.load(1);
    expect(history.$history.get().loading).toBe(true);
    await fake.answer(pageOf(1));
    await loading;
    expect(fake.calls).toEqual([
      { method: 'GET', path: '/v2/user/points/history', query: { page: 1, limit: POINT_HISTORY_PAGE_SIZE } },
    ]);
    expect(history.$history.get()).toMatchObject({ page: 1, loading: false, error: null, data: pageOf(1) });
  });

  it('shows the last page asked for when an older answer arrives late', async () => {
    const fake = fakeApi();
    const history = createPointHistory(fake.client.call);
    const second = history.load(2);
    await fake.sent(1);
    const third = history.load(3);
    await fake.sent(2);
    await fake.answer(pageOf(2));
    await fake.answer(pageOf(3));
    await Promise.all([second, third]);
    expect(history.$history.get().page).toBe(3);
    expect(history.$history.get().data?.items[0]?._id).toBe('e3');
  });

  it('keeps the page shown and tells why when a page could not be loaded', async () => {
    const fake = fakeApi();
    const history = createPointHistory(fake.client.call);
    const first = history.load(1);
    await fake.answer(pageOf(1));
    await first;
    const next = history.load(2);
    await fake.fail(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: '网络错误' }));
    await next;
    expect(history.$history.get()).toMatchObject({ loading: false, error: '网络错误', data: pageOf(1) });
  });
});
