import { sql } from 'kysely';
import type { UserGroup } from '../../../shared/auth-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import type { EpubMeta } from '../../../shared/lightnovel/lightnovel-model.ts';
import {
  BOOKMARKS_PER_VOLUME,
  type ReadingBookmark,
  type ReadingHistoryPage,
  type ReadingPosition,
  type ProgressSaveResult,
} from '../../../shared/lightnovel/reading.contract.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';

/**
 * What members read: positions (one a member and volume), the history built from them, and bookmarks.
 * Everything here belongs to one member; nobody else reads or writes it, whatever their group.
 */

/** Who is reading: for unpublished series only their creator and the reviewers may open a volume. */
export interface ReadingViewer {
  id: string;
  group: UserGroup;
}

const REVIEWERS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];

/** The volume as the reader page shows it. */
export interface ReaderVolume {
  id: number;
  lightnovelId: number;
  seriesName: string;
  kind: 'main' | 'extra';
  number: number;
  title: string;
  hasEpub: boolean;
  epubSize: number;
  meta: EpubMeta;
}

function parseMeta(raw: string): EpubMeta {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as EpubMeta) : {};
  } catch {
    return {};
  }
}

/** A volume the viewer may read (its series is published, or theirs, or they review), or null. */
export async function readerVolume(
  db: Db,
  volumeId: number,
  viewer: ReadingViewer | null,
): Promise<ReaderVolume | null> {
  const row = await db
    .selectFrom('lightnovel_volume as v')
    .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
    .select([
      'v.id',
      'v.lightnovel_id',
      'v.kind',
      'v.number',
      'v.title',
      'v.title_zh',
      'v.epub_key',
      'v.epub_size',
      'v.epub_meta',
      'l.name',
      'l.name_zh',
      'l.status',
      'l.created_by',
    ])
    .where('v.id', '=', volumeId)
    .executeTakeFirst();
  if (!row) return null;
  const visible =
    row.status === 'published' ||
    (viewer !== null && (viewer.id === row.created_by || REVIEWERS.includes(viewer.group)));
  if (!visible) return null;
  return {
    id: row.id,
    lightnovelId: row.lightnovel_id,
    seriesName: row.name_zh || row.name,
    kind: row.kind,
    number: Number(row.number),
    title: row.title_zh || row.title,
    hasEpub: row.epub_key !== '',
    epubSize: Number(row.epub_size),
    meta: parseMeta(row.epub_meta),
  };
}

/**
 * The volume or 404: progress and bookmarks only name volumes the member may read. New positions and
 * bookmarks (`withEpub`) also need the volume's EPUB: there is nothing to read, or to place them in, without it.
 */
async function requireVolume(
  db: Db,
  volumeId: number,
  viewer: ReadingViewer,
  { withEpub = false }: { withEpub?: boolean } = {},
): Promise<ReaderVolume> {
  const volume = await readerVolume(db, volumeId, viewer);
  if (!volume) throw new HttpError(404, 'NOT_FOUND', messageRef('reader.error.volumeNotFound'));
  if (withEpub && !volume.hasEpub) throw new HttpError(404, 'NOT_FOUND', messageRef('reader.error.noEpub'));
  return volume;
}

const toPosition = (row: {
  volume_id: number;
  lightnovel_id: number;
  cfi: string;
  chapter: string;
  percentage: number;
  updated_at: string;
}): ReadingPosition => ({
  volumeId: Number(row.volume_id),
  lightnovelId: Number(row.lightnovel_id),
  cfi: row.cfi,
  chapter: row.chapter,
  percentage: Number(row.percentage),
  updatedAt: row.updated_at,
});

const positionColumns = ['volume_id', 'lightnovel_id', 'cfi', 'chapter', 'percentage', 'updated_at'] as const;

export async function readingPosition(
  db: Db,
  viewer: ReadingViewer,
  volumeId: number,
): Promise<ReadingPosition | null> {
  await requireVolume(db, volumeId, viewer);
  const row = await db
    .selectFrom('reading_progress')
    .select(positionColumns)
    .where('user_id', '=', viewer.id)
    .where('volume_id', '=', volumeId)
    .executeTakeFirst();
  return row ? toPosition(row) : null;
}

export interface PositionInput {
  cfi: string;
  chapter: string;
  percentage: number;
  at?: string | undefined;
}

/**
 * Saves a position. Concurrent devices: each write carries the time its device took the position
 * (never later than the server's clock, so a device whose clock runs fast cannot pin its position),
 * and the stored row changes only for a write at least as recent. An older write is answered with the
 * stored position and `stale: true`. One statement (insert … on conflict … where), so two writes at
 * once cannot both win.
 */
export async function savePosition(
  db: Db,
  viewer: ReadingViewer,
  volumeId: number,
  input: PositionInput,
  now: Date = new Date(),
): Promise<ProgressSaveResult> {
  const volume = await requireVolume(db, volumeId, viewer, { withEpub: true });
  const claimed = input.at ? new Date(input.at) : now;
  const at = (claimed.getTime() > now.getTime() ? now : claimed).toISOString();
  await db
    .insertInto('reading_progress')
    .values({
      user_id: viewer.id,
      volume_id: volumeId,
      lightnovel_id: volume.lightnovelId,
      cfi: input.cfi,
      chapter: input.chapter,
      percentage: input.percentage,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'volume_id'])
        .doUpdateSet({
          cfi: (eb) => eb.ref('excluded.cfi'),
          chapter: (eb) => eb.ref('excluded.chapter'),
          percentage: (eb) => eb.ref('excluded.percentage'),
          lightnovel_id: (eb) => eb.ref('excluded.lightnovel_id'),
          updated_at: (eb) => eb.ref('excluded.updated_at'),
        })
        .where('reading_progress.updated_at', '<=', sql<string>`excluded.updated_at`),
    )
    .execute();
  const stored = await db
    .selectFrom('reading_progress')
    .select(positionColumns)
    .where('user_id', '=', viewer.id)
    .where('volume_id', '=', volumeId)
    .executeTakeFirstOrThrow();
  const position = toPosition(stored);
  const stale = !(position.updatedAt === at && position.cfi === input.cfi);
  return { position, stale };
}

/** The member's reading history: one row a volume, most recently read first (visible series only). */
export async function readingHistory(db: Db, viewer: ReadingViewer, request: PageRequest): Promise<ReadingHistoryPage> {
  const reviewer = REVIEWERS.includes(viewer.group);
  const base = db
    .selectFrom('reading_progress as p')
    .innerJoin('lightnovel_volume as v', 'v.id', 'p.volume_id')
    .innerJoin('lightnovel as l', 'l.id', 'p.lightnovel_id')
    .where('p.user_id', '=', viewer.id)
    .$if(!reviewer, (q) =>
      q.where((eb) => eb.or([eb('l.status', '=', 'published'), eb('l.created_by', '=', viewer.id)])),
    );
  const { items, pagination } = await paginate(
    request,
    base
      .select([
        'p.volume_id',
        'p.lightnovel_id',
        'p.cfi',
        'p.chapter',
        'p.percentage',
        'p.updated_at',
        'l.name',
        'l.name_zh',
        'l.cover as series_cover',
        'v.title',
        'v.title_zh',
        'v.kind',
        'v.number',
        'v.cover',
      ])
      .orderBy('p.updated_at', 'desc')
      .orderBy('p.volume_id', 'desc'),
    base.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return {
    items: items.map((row) => ({
      ...toPosition(row),
      seriesName: row.name_zh || row.name,
      volumeTitle: row.title_zh || row.title,
      volumeKind: row.kind,
      volumeNumber: Number(row.number),
      cover: row.cover || row.series_cover,
    })),
    pagination,
  };
}

const bookmarkColumns = [
  'id',
  'volume_id',
  'cfi',
  'chapter',
  'percentage',
  'note',
  'created_at',
  'updated_at',
] as const;

const toBookmark = (row: {
  id: number;
  volume_id: number;
  cfi: string;
  chapter: string;
  percentage: number;
  note: string;
  created_at: string;
  updated_at: string;
}): ReadingBookmark => ({
  id: Number(row.id),
  volumeId: Number(row.volume_id),
  cfi: row.cfi,
  chapter: row.chapter,
  percentage: Number(row.percentage),
  note: row.note,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The member's bookmarks in a volume, in reading order. */
export async function bookmarksOf(db: Db, viewer: ReadingViewer, volumeId: number): Promise<ReadingBookmark[]> {
  await requireVolume(db, volumeId, viewer);
  const rows = await db
    .selectFrom('reading_bookmark')
    .select(bookmarkColumns)
    .where('user_id', '=', viewer.id)
    .where('volume_id', '=', volumeId)
    .orderBy('percentage')
    .orderBy('id')
    .execute();
  return rows.map(toBookmark);
}

export interface BookmarkInput {
  volumeId: number;
  cfi: string;
  chapter: string;
  percentage: number;
  note: string;
}

/**
 * Adds a bookmark; 409 when the member already keeps BOOKMARKS_PER_VOLUME in this volume. A member's
 * additions are taken one at a time (their row is locked on PostgreSQL; SQLite writes one transaction
 * at a time), so two at once cannot pass the cap together.
 */
export async function addBookmark(
  db: Db,
  viewer: ReadingViewer,
  input: BookmarkInput,
  now: Date = new Date(),
): Promise<ReadingBookmark> {
  await requireVolume(db, input.volumeId, viewer, { withEpub: true });
  return db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres')
      await trx.selectFrom('users').select('id').where('id', '=', viewer.id).forUpdate().execute();
    const counted = await trx
      .selectFrom('reading_bookmark')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('user_id', '=', viewer.id)
      .where('volume_id', '=', input.volumeId)
      .executeTakeFirstOrThrow();
    if (Number(counted.total) >= BOOKMARKS_PER_VOLUME) {
      throw new HttpError(409, 'CONFLICT', messageRef('reader.error.bookmarkLimit', { max: BOOKMARKS_PER_VOLUME }));
    }
    const id = await nextId(trx, 'bookmark_id');
    const at = now.toISOString();
    const row = {
      id,
      user_id: viewer.id,
      volume_id: input.volumeId,
      cfi: input.cfi,
      chapter: input.chapter,
      percentage: input.percentage,
      note: input.note,
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('reading_bookmark').values(row).execute();
    return toBookmark(row);
  });
}

/** Changes a bookmark's note; someone else's bookmark is answered as missing. */
export async function editBookmark(
  db: Db,
  viewer: ReadingViewer,
  id: number,
  note: string,
  now: Date = new Date(),
): Promise<ReadingBookmark> {
  const result = await db
    .updateTable('reading_bookmark')
    .set({ note, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('user_id', '=', viewer.id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new HttpError(404, 'NOT_FOUND', 'reader.error.bookmarkNotFound');
  const row = await db
    .selectFrom('reading_bookmark')
    .select(bookmarkColumns)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toBookmark(row);
}

export async function deleteBookmark(db: Db, viewer: ReadingViewer, id: number): Promise<void> {
  const result = await db
    .deleteFrom('reading_bookmark')
    .where('id', '=', id)
    .where('user_id', '=', viewer.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new HttpError(404, 'NOT_FOUND', 'reader.error.bookmarkNotFound');
}
