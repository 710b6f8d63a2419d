import { z } from 'zod';
import type { Pagination } from '../catalogue-model.ts';
import { as, endpoint } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { bodyId, bodyInt, decimalId, queryInt, safeText } from '../input-rules.ts';
import { PROGRESS_SCALE } from './lightnovel-model.ts';

/*
 * What a member reads: the position in each volume (progress), the reading history built from it, and
 * bookmarks with notes. Progress and bookmarks are private: only their owner reads or writes them.
 */

/** Longest EPUB CFI accepted; real ones are well under 200 characters. */
export const CFI_MAX = 1000;
export const CHAPTER_MAX = 200;
export const BOOKMARK_NOTE_MAX = 500;
/** Bookmarks one member may keep in one volume. */
export const BOOKMARKS_PER_VOLUME = 200;

/** A CFI as foliate writes it: `epubcfi(` … `)`, no control characters. */
const CFI_SHAPE = /^epubcfi\([^\u0000-\u001F\u007F]+\)$/u;

const cfiField = z
  .string({ error: messageRef('reader.validation.cfi') })
  .max(CFI_MAX, { error: messageRef('reader.validation.cfi') })
  .regex(CFI_SHAPE, { error: messageRef('reader.validation.cfi') });
// The book names its chapters, so a title that shows nothing is the book's, not the reader's.
const chapterField = safeText({ max: CHAPTER_MAX, label: 'reader.label.chapter', invisible: 'keep' });
const percentageField = bodyInt({ min: 0, max: PROGRESS_SCALE, label: 'reader.label.percentage' });
const noteField = safeText({ kind: 'multiline', max: BOOKMARK_NOTE_MAX, label: 'reader.label.note' });

/** Where a member is in a volume. `updatedAt` is the time the reading device wrote it. */
export interface ReadingPosition {
  volumeId: number;
  lightnovelId: number;
  cfi: string;
  chapter: string;
  /** 0…PROGRESS_SCALE */
  percentage: number;
  updatedAt: string;
}

/**
 * The answer to a save. Two devices writing at once: the write with the later device time wins; an
 * older one changes nothing and answers `stale: true` with the position kept, so that device can move there.
 */
export interface ProgressSaveResult {
  position: ReadingPosition;
  stale: boolean;
}

/** One volume in a member's reading history. */
export interface ReadingHistoryItem extends ReadingPosition {
  seriesName: string;
  volumeTitle: string;
  volumeKind: 'main' | 'extra';
  volumeNumber: number;
  cover: string;
}

export interface ReadingHistoryPage {
  items: ReadingHistoryItem[];
  pagination: Pagination;
}

export interface ReadingBookmark {
  id: number;
  volumeId: number;
  cfi: string;
  chapter: string;
  percentage: number;
  note: string;
  createdAt: string;
  updatedAt: string;
}

const volumeParams = z.object({ volumeId: decimalId() });
const bookmarkParams = z.object({ id: decimalId() });

export const progressBodySchema = z.object({
  cfi: cfiField,
  chapter: chapterField.default(''),
  percentage: percentageField,
  /** When the device took this position (ISO 8601); the server's time when left out. */
  at: z.iso.datetime({ offset: true, error: messageRef('reader.validation.at') }).optional(),
});
export type ProgressBody = z.input<typeof progressBodySchema>;

export const bookmarkBodySchema = z.object({
  volumeId: bodyId('reader.label.volume'),
  cfi: cfiField,
  chapter: chapterField.default(''),
  percentage: percentageField,
  note: noteField.default(''),
});
export type BookmarkBody = z.input<typeof bookmarkBodySchema>;

export const readingContract = {
  progress: endpoint({
    method: 'GET',
    path: '/lightnovel/progress/:volumeId',
    params: volumeParams,
    response: as<{ position: ReadingPosition | null }>(),
    auth: 'required',
    summary: "The caller's position in a volume, or null",
  }),
  saveProgress: endpoint({
    method: 'PUT',
    path: '/lightnovel/progress/:volumeId',
    params: volumeParams,
    body: progressBodySchema,
    response: as<ProgressSaveResult>(),
    auth: 'required',
    summary: "Saves the caller's position in a volume; an older write than the stored one answers the stored one",
  }),
  history: endpoint({
    method: 'GET',
    path: '/lightnovel/progress',
    query: z.object({
      page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
      limit: queryInt({ min: 1, max: 50, label: 'validation.label.pageSize' }).default(20),
    }),
    response: as<ReadingHistoryPage>(),
    auth: 'required',
    summary: "The caller's reading history, most recently read first",
  }),
  bookmarks: endpoint({
    method: 'GET',
    path: '/lightnovel/bookmarks',
    query: z.object({ volumeId: decimalId('reader.label.volume') }),
    response: as<ReadingBookmark[]>(),
    auth: 'required',
    summary: "The caller's bookmarks in a volume, in reading order",
  }),
  addBookmark: endpoint({
    method: 'POST',
    path: '/lightnovel/bookmarks',
    body: bookmarkBodySchema,
    response: as<ReadingBookmark>(),
    auth: 'required',
    summary: `Adds a bookmark with a note (at most ${BOOKMARKS_PER_VOLUME} a volume)`,
  }),
  editBookmark: endpoint({
    method: 'PUT',
    path: '/lightnovel/bookmarks/:id',
    params: bookmarkParams,
    body: z.object({ note: noteField }),
    response: as<ReadingBookmark>(),
    auth: 'required',
    summary: "Changes a bookmark's note (the caller's own only)",
  }),
  deleteBookmark: endpoint({
    method: 'DELETE',
    path: '/lightnovel/bookmarks/:id',
    params: bookmarkParams,
    response: as<{ deleted: true }>(),
    auth: 'required',
    summary: "Deletes a bookmark (the caller's own only)",
  }),
} as const;
