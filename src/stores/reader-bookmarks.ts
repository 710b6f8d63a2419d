import { atom } from 'nanostores';
import type { readingContract as ReadingContract } from '../shared/lightnovel/reading.contract.ts';
import type { ReadingBookmark } from '../shared/lightnovel/reading.contract.ts';
import type { ApiClient } from './api-client.ts';

/** A member's bookmarks in the volume being read, kept in reading order. */

export interface ReaderBookmarksState {
  items: ReadingBookmark[];
  loading: boolean;
  error: string | null;
}

export type BookmarkOutcome = { ok: true } | { ok: false; message: string };

const failure = (error: unknown): BookmarkOutcome => ({
  ok: false,
  message: error instanceof Error && error.message ? error.message : String(error),
});

const inReadingOrder = (items: ReadingBookmark[]) =>
  [...items].sort((a, b) => a.percentage - b.percentage || a.id - b.id);

export function createReaderBookmarks(
  client: Pick<ApiClient, 'call'>,
  contract: () => Promise<typeof ReadingContract>,
  volumeId: number,
) {
  const $bookmarks = atom<ReaderBookmarksState>({ items: [], loading: false, error: null });
  const patch = (change: Partial<ReaderBookmarksState>) => $bookmarks.set({ ...$bookmarks.get(), ...change });

  return {
    $bookmarks,
    async load(): Promise<BookmarkOutcome> {
      patch({ loading: true, error: null });
      try {
        const answer = await client.call((await contract()).bookmarks, { query: { volumeId } });
        patch({ items: inReadingOrder(answer.data), loading: false });
        return { ok: true };
      } catch (error) {
        const outcome = failure(error);
        patch({ loading: false, error: outcome.ok ? null : outcome.message });
        return outcome;
      }
    },
    async add(place: { cfi: string; chapter: string; percentage: number }, note: string): Promise<BookmarkOutcome> {
      try {
        const answer = await client.call((await contract()).addBookmark, { body: { volumeId, ...place, note } });
        patch({ items: inReadingOrder([...$bookmarks.get().items, answer.data]) });
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
    async edit(id: number, note: string): Promise<BookmarkOutcome> {
      try {
        const answer = await client.call((await contract()).editBookmark, { params: { id }, body: { note } });
        patch({ items: $bookmarks.get().items.map((item) => (item.id === id ? answer.data : item)) });
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
    async remove(id: number): Promise<BookmarkOutcome> {
      try {
        await client.call((await contract()).deleteBookmark, { params: { id } });
        patch({ items: $bookmarks.get().items.filter((item) => item.id !== id) });
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
  };
}

export type ReaderBookmarks = ReturnType<typeof createReaderBookmarks>;
