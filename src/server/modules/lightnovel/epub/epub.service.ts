import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { sql } from 'kysely';
import sharp from 'sharp';
import { CREATOR_GROUPS, type UserGroup } from '../../../../shared/auth-model.ts';
import { messageRef } from '../../../../shared/i18n/index.ts';
import { EPUB_CONTENT_TYPE, epubFilePath, type VolumeEpub } from '../../../../shared/lightnovel/epub.contract.ts';
import type { EpubMeta } from '../../../../shared/lightnovel/lightnovel-model.ts';
import type { AppContext } from '../../../context.ts';
import type { Db } from '../../../db/database.ts';
import { pagesChanged } from '../../../http/page-cache-policy.ts';
import { HttpError, notFound } from '../../../platform/errors.ts';
import type { Storage, StoredObject } from '../../../platform/storage/storage.ts';
import type { TargetViewer } from '../../../platform/targets/targets.ts';
import { recordChange } from '../../creator/revisions.service.ts';
import { lightnovelTags, seriesVisible } from '../lightnovel.targets.ts';
import { Slots } from './epub-upload.ts';
import { EpubRejection } from './epub.rejection.ts';
import { validateEpub, type EpubCover } from './epub.validate.ts';
import type { EpubLimits } from './epub.zip.ts';

/**
 * What the EPUB service needs: the database and the storage; with the bus and the logger it also
 * tells the page cache that the volume's pages changed (the seed runs without them).
 */
export type EpubDeps = Pick<AppContext, 'db' | 'storage'> & Partial<Pick<AppContext, 'bus' | 'logger'>>;

/** A volume as the EPUB part needs it: its file, its cover, and who may see its series. */
async function findVolume(db: Db, volumeId: number) {
  return db
    .selectFrom('lightnovel_volume as v')
    .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
    .select([
      'v.id',
      'v.lightnovel_id',
      'v.cover',
      'v.epub_key',
      'v.epub_size',
      'v.epub_meta',
      'v.epub_uploaded_by',
      'l.status',
      'l.created_by',
    ])
    .where('v.id', '=', volumeId)
    .executeTakeFirst();
}
type VolumeRow = NonNullable<Awaited<ReturnType<typeof findVolume>>>;

/** The sha256 an EPUB key carries (before its upload's own suffix): the file's ETag. */
export const epubEtag = (key: string): string => `"${/([0-9a-f]{64})(?:-[0-9a-z]+)?\.epub$/.exec(key)?.[1] ?? key}"`;

/**
 * Where one upload of a volume's EPUB is stored: the file's sha256 (its ETag) and a random suffix of
 * this upload, so two uploads of the same bytes never share an object and no upload, replacement or
 * removal can delete an object another one wrote.
 */
export const epubKey = (volumeId: number, sha256: string, upload: string) =>
  `lightnovel/epub/${volumeId}/${sha256}-${upload}.epub`;
const coverKey = (volumeId: number, sha256: string, upload: string) =>
  `lightnovel/cover/${volumeId}/${sha256.slice(0, 32)}-${upload}.webp`;

export function parseEpubMeta(json: string): EpubMeta {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' ? (value as EpubMeta) : {};
  } catch {
    return {};
  }
}

/** The upload control's view of a volume's EPUB. */
function view(
  volumeId: number,
  row: { cover: string; epub_key: string; epub_size: number; epub_meta: string },
): VolumeEpub {
  return {
    volumeId,
    cover: row.cover,
    epub: row.epub_key
      ? { size: row.epub_size, meta: parseEpubMeta(row.epub_meta), url: epubFilePath(volumeId) }
      : null,
  };
}

/** Throws 404 unless the volume exists and the viewer may see its series. */
async function visibleVolume(db: Db, volumeId: number, viewer: TargetViewer): Promise<VolumeRow> {
  const volume = await findVolume(db, volumeId);
  if (!volume || !seriesVisible(volume, viewer)) throw notFound('epub.volumeNotFound');
  return volume;
}

/** Creators and above upload and remove EPUBs; everyone else is told so (403). */
export function assertMayManageEpubs(group: UserGroup): void {
  if (!CREATOR_GROUPS.includes(group)) throw new HttpError(403, 'FORBIDDEN', 'epub.creatorsOnly');
}

/** Groups that may replace or remove any volume's EPUB. */
const EPUB_MODERATORS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];

/**
 * A creator uploads to a volume without an EPUB, and replaces or removes only an EPUB they uploaded
 * or one of a series they created; editors and above replace or remove any (403 otherwise).
 */
function assertMayChange(
  volume: { epub_key: string; epub_uploaded_by: string | null; created_by: string | null },
  viewer: { id: string; group: UserGroup } | null,
): void {
  if (!viewer || !volume.epub_key || EPUB_MODERATORS.includes(viewer.group)) return;
  if (volume.epub_uploaded_by === viewer.id || volume.created_by === viewer.id) return;
  throw new HttpError(403, 'FORBIDDEN', 'epub.notYours');
}

/**
 * Checks, before any byte of an upload is read, that the volume exists and the member may change its
 * EPUB; the route calls it first so a refused upload is not streamed to disk.
 */
export async function assertMayUploadTo(db: Db, volumeId: number, viewer: { id: string; group: UserGroup }) {
  assertMayManageEpubs(viewer.group);
  assertMayChange(await visibleVolume(db, volumeId, viewer), viewer);
}

/** An open EPUB to answer with; the caller consumes or destroys `object.body`. */
export interface OpenEpub {
  key: string;
  object: StoredObject;
}

/**
 * A volume's EPUB for a reader: everyone may read the volumes of published series, their creator
 * and the reviewers the others (404 otherwise, as for a volume that does not exist).
 */
export async function openVolumeEpub(
  deps: { db: Db; storage: Storage },
  volumeId: number,
  viewer: TargetViewer,
): Promise<OpenEpub> {
  const volume = await visibleVolume(deps.db, volumeId, viewer);
  if (!volume.epub_key) throw notFound('epub.noFile');
  const object = await deps.storage.get(volume.epub_key);
  if (!object) throw notFound('epub.noFile');
  return { key: volume.epub_key, object };
}

/** A refused book as an API error: 422 with the stable reason and a message that says what to fix. */
export function rejectionError(rejection: EpubRejection): HttpError {
  const message = messageRef(`epub.problem.${rejection.problem}`, rejection.params);
  return new HttpError(422, 'VALIDATION_FAILED', message, {
    issues: [{ path: 'file', message }],
    reason: rejection.problem,
  });
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Covers are kept at most this large (pixels, inside), as WebP: enough for a volume page and a card. */
const COVER_BOX = { width: 720, height: 1080 };

/** The book's cover re-encoded (never stored as the book had it: it is untrusted), or null if unreadable. */
async function encodeCover(cover: EpubCover): Promise<Buffer | null> {
  try {
    return await sharp(cover.data, { limitInputPixels: 40_000_000, failOn: 'error' })
      .rotate()
      .resize({ ...COVER_BOX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    return null;
  }
}

/**
 * Books validated at once in this process (each may hold tens of MB while it is checked); an upload
 * beyond them waits a few seconds for a turn, then is told to try again (503).
 */
export const epubValidations = new Slots(2, 10_000);
const validationBusy = () => new HttpError(503, 'SERVICE_UNAVAILABLE', 'epub.validationBusy', { retryAfter: 5 });

/** Replacing a volume's file is a compare-and-swap on its key; this many tries before giving up. */
const SWAP_TRIES = 5;

async function announce(deps: EpubDeps, volume: { id: number; lightnovel_id: number }): Promise<void> {
  if (!deps.bus || !deps.logger) return;
  await pagesChanged({ bus: deps.bus, logger: deps.logger }, [
    lightnovelTags.volume(volume.id),
    lightnovelTags.series(volume.lightnovel_id),
    lightnovelTags.all,
  ]);
}

/**
 * Validates the EPUB at `filePath` and makes it the volume's file: stored under a key of its own
 * (see epubKey), its cover extracted (set on the volume when it has none), the volume's columns updated in one
 * statement. The file it replaces is deleted after that commit; when two uploads race, the last one
 * to commit wins and the other's object is removed, so none is left behind. The caller owns `filePath`.
 */
export async function attachEpub(
  deps: EpubDeps,
  volumeId: number,
  filePath: string,
  uploader: { id: string; group: UserGroup } | null,
  limits?: EpubLimits,
): Promise<VolumeEpub> {
  const volume = await findVolume(deps.db, volumeId);
  if (!volume) throw notFound('epub.volumeNotFound');
  assertMayChange(volume, uploader);
  const book = await epubValidations
    .run(() => validateEpub(filePath, limits), validationBusy)
    .catch((error: unknown) => {
      throw error instanceof EpubRejection ? rejectionError(error) : error;
    });
  const [sha256, { size }] = await Promise.all([sha256File(filePath), stat(filePath)]);
  const upload = randomBytes(8).toString('hex');
  const key = epubKey(volumeId, sha256, upload);
  await deps.storage.put(key, createReadStream(filePath), EPUB_CONTENT_TYPE);

  let coverUrl: string | null = null;
  let storedCover: string | null = null;
  try {
    if (!volume.cover && book.cover) {
      const webp = await encodeCover(book.cover);
      if (webp) {
        storedCover = coverKey(volumeId, sha256, upload);
        await deps.storage.put(storedCover, webp, 'image/webp');
        coverUrl = deps.storage.publicUrl(storedCover);
      }
    }
    let previous = volume.epub_key;
    let updated: { cover: string; epub_key: string; epub_size: number; epub_meta: string } | undefined;
    const swap = (db: Db, expected: string) =>
      db
        .updateTable('lightnovel_volume')
        .set({
          epub_key: key,
          epub_size: size,
          epub_meta: JSON.stringify(book.meta),
          epub_uploaded_by: uploader?.id ?? null,
          updated_at: new Date().toISOString(),
          ...(coverUrl ? { cover: sql<string>`case when cover = '' then ${coverUrl} else cover end` } : {}),
        })
        .where('id', '=', volumeId)
        .where('epub_key', '=', expected)
        .returning(['cover', 'epub_key', 'epub_size', 'epub_meta'])
        .executeTakeFirst();
    for (let attempt = 0; attempt < SWAP_TRIES && !updated; attempt++) {
      const expected = previous;
      // A cover taken from the book changes the volume's document: that is a revision of it.
      updated = coverUrl
        ? await deps.db.transaction().execute(async (trx) => {
            let row: typeof updated;
            await recordChange(
              trx,
              'volume',
              volumeId,
              async () => {
                row = await swap(trx, expected);
              },
              { userId: uploader?.id ?? null, note: '', now: new Date() },
            );
            return row;
          })
        : await swap(deps.db, expected);
      if (updated) break;
      const now = await findVolume(deps.db, volumeId);
      if (!now) throw notFound('epub.volumeNotFound');
      // Another upload got there first: replacing its file is a decision of its own.
      assertMayChange(now, uploader);
      previous = now.epub_key;
    }
    if (!updated) throw new HttpError(409, 'CONFLICT', 'epub.busy');
    if (previous && previous !== key) await deps.storage.delete(previous);
    if (storedCover && updated.cover !== coverUrl) await deps.storage.delete(storedCover);
    await announce(deps, volume);
    return view(volumeId, updated);
  } catch (error) {
    // Nothing half written: the objects this upload stored go, unless they are what the volume holds now.
    const now = await findVolume(deps.db, volumeId).catch(() => undefined);
    if (now?.epub_key !== key) await deps.storage.delete(key).catch(() => undefined);
    if (storedCover && now?.cover !== coverUrl) await deps.storage.delete(storedCover).catch(() => undefined);
    throw error;
  }
}

/**
 * Removes a volume's EPUB (its cover stays) when the member may (see assertMayChange); the object is
 * deleted after the volume no longer names it.
 */
export async function removeEpub(deps: EpubDeps, volumeId: number, viewer: TargetViewer): Promise<VolumeEpub> {
  const volume = await visibleVolume(deps.db, volumeId, viewer);
  let current: VolumeRow | undefined = volume;
  for (let attempt = 0; attempt < SWAP_TRIES; attempt++) {
    const previous = current?.epub_key ?? '';
    if (!current || !previous) return view(volumeId, { ...volume, epub_key: '' });
    assertMayChange(current, viewer);
    const updated = await deps.db
      .updateTable('lightnovel_volume')
      .set({
        epub_key: '',
        epub_size: sql.lit(0),
        epub_meta: '{}',
        epub_uploaded_by: null,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', volumeId)
      .where('epub_key', '=', previous)
      .returning(['cover', 'epub_key', 'epub_size', 'epub_meta'])
      .executeTakeFirst();
    if (updated) {
      await deps.storage.delete(previous);
      await announce(deps, volume);
      return view(volumeId, updated);
    }
    current = await findVolume(deps.db, volumeId);
  }
  throw new HttpError(409, 'CONFLICT', 'epub.busy');
}

/** A volume's files as its row names them: its EPUB's key and its cover's URL. */
export interface VolumeFiles {
  epub_key: string;
  cover: string;
}

const EXTRACTED_COVER = /(lightnovel\/cover\/\d+\/[0-9a-f]{32}(?:-[0-9a-f]{16})?\.webp)$/;

/**
 * Deletes the objects of volumes whose rows are gone: each EPUB, and each cover this part extracted
 * from a book (a cover set from elsewhere is not ours to delete). Call it after the deletion commits;
 * an object that cannot be deleted is left behind, never an error for the caller.
 */
export async function removeVolumeFiles(storage: Storage, rows: readonly VolumeFiles[]): Promise<void> {
  const keys: string[] = [];
  for (const row of rows) {
    if (row.epub_key) keys.push(row.epub_key);
    const cover = EXTRACTED_COVER.exec(row.cover)?.[1];
    if (cover && storage.publicUrl(cover) === row.cover) keys.push(cover);
  }
  await Promise.all(keys.map((key) => storage.delete(key).catch(() => undefined)));
}

/** The upload control's view of a volume the member may manage. */
export async function volumeEpub(db: Db, volumeId: number, viewer: TargetViewer): Promise<VolumeEpub> {
  return view(volumeId, await visibleVolume(db, volumeId, viewer));
}
