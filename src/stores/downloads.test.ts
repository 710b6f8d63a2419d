import { beforeAll, describe, expect, it } from 'vitest';
import type { DownloadView } from '../shared/catalogue-model.ts';
import { ApiError } from './api-client.ts';
import { loadCatalogueContract } from './catalogue-client.ts';
import { createDownloads } from './downloads.ts';
import { fakeApi } from './fake-api.ts';

// The contract loads with a store's first call; here it is loaded up front, so calls go out at once.
beforeAll(() => loadCatalogueContract());

const apiError = (status: number, message: string) =>
  new ApiError({ status, code: status === 404 ? 'NOT_FOUND' : 'INTERNAL_ERROR', message });

const download = (linkReported = false): DownloadView => ({
  id: 1,
  language: 'zh-Hans',
  platform: 'windows',
  translationType: 'fan',
  translationGroup: '萤火汉化组',
  sizeBytes: 1024,
  note: '',
  links: [
    {
      id: 11,
      label: '网盘 A',
      url: 'https://example.com/a',
      password: 'hk2026',
      hasPassword: true,
      reportCount: 2,
      suspect: false,
      reportedByMe: linkReported,
    },
  ],
});

describe('download information cache', () => {
  it('keeps what was fetched per game and viewer, and shares one request between callers', async () => {
    const fake = fakeApi();
    const cache = createDownloads(fake.client);
    expect(cache.cached(6, 'u1')).toBeNull();
    const first = cache.load(6, 'u1');
    const second = cache.load(6, 'u1');
    expect(fake.calls).toEqual([{ method: 'GET', path: '/galgame/6/downloads', query: undefined }]);
    await fake.answer({ downloads: [download()] });
    expect(await first).toEqual({ ok: true });
    expect(await second).toEqual({ ok: true });
    expect(cache.cached(6, 'u1')?.[0]?.links[0]?.password).toBe('hk2026');
    // Another viewer (logged out since) never sees the passwords of this one.
    expect(cache.cached(6, null)).toBeNull();
  });

  it("takes a visitor's list from the page it was rendered with, over an older copy, without a request", async () => {
    const fake = fakeApi();
    const cache = createDownloads(fake.client);
    const loading = cache.load(6, null);
    await fake.answer({ downloads: [download()] });
    await loading;
    const rendered = [{ ...download(), links: [] }];
    cache.seed(6, null, rendered);
    expect(cache.cached(6, null)).toEqual(rendered);
    expect(cache.$downloads.get()['6']).toMatchObject({ refreshing: false, error: null });
    expect(fake.calls).toHaveLength(1);
  });

  it('refreshes in the background, keeping the cached list on a failure', async () => {
    const fake = fakeApi();
    const cache = createDownloads(fake.client);
    const loading = cache.load(6, null);
    await fake.answer({ downloads: [download()] });
    await loading;
    const refreshing = cache.load(6, null);
    expect(cache.$downloads.get()['6']?.refreshing).toBe(true);
    expect(cache.cached(6, null)).toHaveLength(1);
    await fake.fail(apiError(500, '网络连接失败'));
    expect(await refreshing).toEqual({ ok: false, message: '网络连接失败' });
    expect(cache.$downloads.get()['6']).toMatchObject({ refreshing: false, error: '网络连接失败' });
    expect(cache.cached(6, null)).toHaveLength(1);
  });

  it('reports a link once, then shows it as reported', async () => {
    const fake = fakeApi();
    const cache = createDownloads(fake.client);
    const loading = cache.load(6, 'u1');
    await fake.answer({ downloads: [download()] });
    await loading;
    const reporting = cache.report(6, 11);
    expect(cache.$reporting.get().has(11)).toBe(true);
    expect(await cache.report(6, 11)).toEqual({ ok: false, busy: true });
    expect(fake.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/galgame/download-link/11/report',
      body: { reason: '' },
    });
    await fake.answer({ reportCount: 3, suspect: true, reported: true });
    expect(await reporting).toEqual({ ok: true });
    expect(cache.$reporting.get().has(11)).toBe(false);
    expect(cache.cached(6, 'u1')?.[0]?.links[0]).toMatchObject({ reportedByMe: true, reportCount: 3, suspect: true });
  });

  it('passes a refused report on to the island', async () => {
    const fake = fakeApi();
    const cache = createDownloads(fake.client);
    const reporting = cache.report(6, 99);
    await fake.fail(apiError(404, '下载链接不存在'));
    expect(await reporting).toEqual({ ok: false, message: '下载链接不存在' });
    expect(cache.$reporting.get().size).toBe(0);
  });
});
