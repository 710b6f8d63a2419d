import { readingContract } from '../../../shared/lightnovel/reading.contract.ts';
import type { UserGroup } from '../../../shared/auth-model.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import {
  addBookmark,
  bookmarksOf,
  deleteBookmark,
  editBookmark,
  readingHistory,
  readingPosition,
  savePosition,
} from './reading.service.ts';

/** Reading progress, the reading history and bookmarks: the caller's own only. */
export function readingRoutes(ctx: AppContext) {
  const db = ctx.db;
  const viewerOf = (user: { id: string; user_group: UserGroup }) => ({ id: user.id, group: user.user_group });

  return contractRoutes(ctx, readingContract, {
    progress: async (c, { params, user }) => {
      c.header('Cache-Control', 'private, no-store');
      return { data: { position: await readingPosition(db, viewerOf(user), params.volumeId) } };
    },

    saveProgress: async (_c, { params, body, user }) => ({
      data: await savePosition(db, viewerOf(user), params.volumeId, body),
    }),

    history: async (c, { query, user }) => {
      c.header('Cache-Control', 'private, no-store');
      return { data: await readingHistory(db, viewerOf(user), { page: query.page, limit: query.limit }) };
    },

    bookmarks: async (c, { query, user }) => {
      c.header('Cache-Control', 'private, no-store');
      return { data: await bookmarksOf(db, viewerOf(user), query.volumeId) };
    },

    addBookmark: async (_c, { body, user }) => ({
      data: await addBookmark(db, viewerOf(user), body),
      message: 'reader.bookmarkAdded',
      status: 201,
      code: 'CREATED',
    }),

    editBookmark: async (_c, { params, body, user }) => ({
      data: await editBookmark(db, viewerOf(user), params.id, body.note),
      message: 'reader.bookmarkSaved',
    }),

    deleteBookmark: async (_c, { params, user }) => {
      await deleteBookmark(db, viewerOf(user), params.id);
      return { data: { deleted: true as const }, message: 'reader.bookmarkDeleted' };
    },
  });
}
