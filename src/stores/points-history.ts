import { atom } from 'nanostores';
import type { PointHistoryPage } from '../shared/checkin/checkin-model.ts';
import type { pointsContract } from '../shared/checkin/points.contract.ts';
import type { ApiClient } from './api-client.ts';

/*
 * The member's HikariPoint history (the settings' points page): one page of the ledger at a time, newest
 * first. Turning pages quickly shows the last page asked for, never an older answer arriving late.
 */

export const POINT_HISTORY_PAGE_SIZE = 20;

let loaded: typeof pointsContract | null = null;
export async function loadPointsContract(): Promise<typeof pointsContract> {
  loaded ??= (await import('../shared/checkin/points.contract.ts')).pointsContract;
  return loaded;
}

export interface PointHistoryState {
  page: number;
  data: PointHistoryPage | null;
  loading: boolean;
  error: string | null;
}

export function createPointHistory(call: ApiClient['call']) {
  const $history = atom<PointHistoryState>({ page: 1, data: null, loading: false, error: null });
  let asked = 0;
  return {
    $history,
    async load(page: number): Promise<void> {
      const ask = ++asked;
      $history.set({ ...$history.get(), page, loading: true, error: null });
      try {
        const contract = loaded ?? (await loadPointsContract());
        const { data } = await call(contract.pointHistory, { query: { page, limit: POINT_HISTORY_PAGE_SIZE } });
        if (ask === asked) $history.set({ page: data.pagination.page, data, loading: false, error: null });
      } catch (error) {
        const message = error instanceof Error && error.message ? error.message : String(error);
        if (ask === asked) $history.set({ ...$history.get(), loading: false, error: message });
      }
    },
  };
}

/** The page's history, calling through the page's API client (loaded with the first call). */
export const pointHistory = createPointHistory(async (endpoint, ...args) =>
  (await import('./api-client.ts')).api.call(endpoint, ...args),
);
