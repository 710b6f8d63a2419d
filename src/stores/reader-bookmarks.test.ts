import { describe, expect, it } from 'vitest';
import { readingContract, type ReadingBookmark } from '../shared/lightnovel/reading.contract.ts';
import { fakeApi } from './fake-api.ts';
import { createReaderBookmarks } from './reader-bookmarks.ts';

const bookmark = (id: number, percentage: number, note = ''): ReadingBookmark => ({
  id,
  volumeId: 7,
  cfi: `epubcfi(/6/${id * 2})`,
  chapter: `第${id}章`,
  percentage,
  note,
  createdAt: '2026-12-02T00:00:00.000Z',
  updatedAt: '2026-12-02T00:00:00.000Z',
});

function setup() {
  const api = fakeApi();
  const store = createReaderBookmarks(api.client, async () => readingContract, 7);
  return { api, store };
}

describe('reader bookmarks', () => {
  it("loads the volume's bookmarks and keeps them in reading order as they are added", async () => {
    const { api, store } = setup();
    const loading = store.load();
    await api.answer([bookmark(2, 5000), bookmark(1, 1000)]);
    expect(await loading).toEqual({ ok: true });
    expect(api.calls[0]).toEqual({ method: 'GET', path: '/lightnovel/bookmarks', query: { volumeId: 7 } });
    expect(store.$bookmarks.get().items.map((b) => b.id)).toEqual([1, 2]);
    const adding = store.add({ cfi: 'epubcfi(/6/6)', chapter: '第三章', percentage: 3000 }, '伏笔');
    await api.answer(bookmark(3, 3000, '伏笔'));
    expect(await adding).toEqual({ ok: true });
    expect(api.calls[1]).toMatchObject({
      method: 'POST',
      body: { volumeId: 7, cfi: 'epubcfi(/6/6)', chapter: '第三章', percentage: 3000, note: '伏笔' },
    });
    expect(store.$bookmarks.get().items.map((b) => b.id)).toEqual([1, 3, 2]);
  });

  it('edits and deletes by id, and reports a refusal without changing the list', async () => {
    const { api, store } = setup();
    const loading = store.load();
    await api.answer([bookmark(1, 1000), bookmark(2, 2000)]);
    await loading;
    const editing = store.edit(1, '新笔记');
    await api.answer(bookmark(1, 1000, '新笔记'));
    expect(await editing).toEqual({ ok: true });
    expect(api.calls[1]).toEqual({ method: 'PUT', path: '/lightnovel/bookmarks/1', body: { note: '新笔记' } });
    expect(store.$bookmarks.get().items[0]?.note).toBe('新笔记');
    const refused = store.remove(2);
    await api.fail(new Error('书签不存在'));
    expect(await refused).toEqual({ ok: false, message: '书签不存在' });
    expect(store.$bookmarks.get().items).toHaveLength(2);
    const removing = store.remove(2);
    await api.answer({ deleted: true });
    expect(await removing).toEqual({ ok: true });
    expect(store.$bookmarks.get().items.map((b) => b.id)).toEqual([1]);
  });

  it('shows why the list could not be loaded', async () => {
    const { api, store } = setup();
    const loading = store.load();
    await api.fail(new Error('网络错误'));
    expect(await loading).toEqual({ ok: false, message: '网络错误' });
    expect(store.$bookmarks.get()).toMatchObject({ loading: false, error: '网络错误' });
  });
});
