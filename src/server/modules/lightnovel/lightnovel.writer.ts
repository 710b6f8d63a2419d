import type { GalgameStatus } from '../../../shared/catalogue-model.ts';
import type {
  LightnovelProducerRole,
  LightnovelStaffRole,
  SerialStatus,
  VolumeKind,
} from '../../../shared/lightnovel/lightnovel-model.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import { nextId } from '../../db/ids.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { removeVolumeFiles, type VolumeFiles } from './epub/epub.service.ts';
import { indexLightnovels } from '../search/search.index.ts';
import { siteToday } from '../../../shared/site-day.ts';

// Writing series and volumes: used by the demo seed now and the creator centre later. A series is
// matched by its id when given, otherwise by its exact original name; a volume by (series, kind,
// number); so running a seed twice updates instead of duplicating. Every volume write recounts its
// series' volume_count and latest_volume_date in the same transaction.

/** An update of an entry that is gone (deleted meanwhile): 404, never a server error. */
const gone = () => new HttpError(404, 'NOT_FOUND', 'revision.error.itemNotFound');

export interface LightnovelInput {
  /** Update this series; without it, the series with the same original name (or a new one). */
  id?: number;
  /** Always a new series (the creator centre: another series may share the name); never matched. */
  createNew?: boolean;
  name: string;
  nameZh?: string;
  aliases?: string[];
  intro?: string;
  cover?: string;
  serialStatus?: SerialStatus;
  nsfw?: boolean;
  /** New series default to published; an update keeps its status unless one is given. */
  status?: GalgameStatus;
  createdBy?: string | null;
  staff?: { personId: number; role: LightnovelStaffRole }[];
  producers?: { producerId: number; role: LightnovelProducerRole }[];
}

export interface VolumeInput {
  /** Update this volume (it must exist; it may move to another series, kind or number). */
  id?: number;
  lightnovelId: number;
  kind?: VolumeKind;
  number: number;
  title?: string;
  titleZh?: string;
  intro?: string;
  cover?: string;
  isbn?: string;
  /** YYYY-MM-DD, or null when not announced. */
  releaseDate?: string | null;
  pages?: number | null;
  /** As printed: "¥616", "NT$200". */
  price?: string;
}

const unique = <T>(items: readonly T[], key: (t: T) => string) => [...new Map(items.map((i) => [key(i), i])).values()];

/** Creates or updates a series, replacing its people and producers when given, and its search entries. */
export async function saveLightnovel(db: Db, input: LightnovelInput, now = new Date()): Promise<number> {
  if (!db.isTransaction) return db.transaction().execute((trx) => saveLightnovel(trx, input, now));
  const existing =
    input.id !== undefined
      ? await db.selectFrom('lightnovel').select('id').where('id', '=', input.id).executeTakeFirst()
      : input.createNew
        ? undefined
        : await db.selectFrom('lightnovel').select('id').where('name', '=', input.name).executeTakeFirst();
  if (input.id !== undefined && !existing) throw gone();
  const values = {
    name: input.name,
    name_zh: input.nameZh ?? '',
    aliases: JSON.stringify(input.aliases ?? []),
    intro: input.intro ?? '',
    cover: input.cover ?? '',
    serial_status: input.serialStatus ?? 'serialising',
    nsfw: input.nsfw ? 1 : 0,
    updated_at: now.toISOString(),
  };
  let id: number;
  if (existing) {
    id = existing.id;
    await db
      .updateTable('lightnovel')
      .set({ ...values, ...(input.status ? { status: input.status } : {}) })
      .where('id', '=', id)
      .execute();
  } else {
    id = await nextId(db, 'lightnovel_id');
    await db
      .insertInto('lightnovel')
      .values({
        id,
        ...values,
        status: input.status ?? 'published',
        created_by: input.createdBy ?? null,
        latest_volume_date: null,
        created_at: now.toISOString(),
      })
      .execute();
  }
  if (input.staff) {
    await db.deleteFrom('lightnovel_staff').where('lightnovel_id', '=', id).execute();
    const staff = unique(input.staff, (s) => `${s.personId}:${s.role}`);
    if (staff.length)
      await db
        .insertInto('lightnovel_staff')
        .values(staff.map((s) => ({ lightnovel_id: id, person_id: s.personId, role: s.role })))
        .execute();
  }
  if (input.producers) {
    await db.deleteFrom('lightnovel_producer').where('lightnovel_id', '=', id).execute();
    const producers = unique(input.producers, (p) => `${p.producerId}:${p.role}`);
    if (producers.length)
      await db
        .insertInto('lightnovel_producer')
        .values(producers.map((p) => ({ lightnovel_id: id, producer_id: p.producerId, role: p.role })))
        .execute();
  }
  // The search index follows its names and publication in the same transaction.
  await indexLightnovels(db, [id]);
  return id;
}

/**
 * Takes the series row's lock for the rest of the transaction (a no-op update: the row lock on
 * PostgreSQL, the write lock on SQLite), so concurrent volume writes of one series recount one after
 * another and the count stays exact.
 */
async function lockSeries(db: Db, lightnovelId: number): Promise<void> {
  await db
    .updateTable('lightnovel')
    .set((eb) => ({ volume_count: eb.ref('volume_count') }))
    .where('id', '=', lightnovelId)
    .execute();
}

/**
 * Recounts a series' volumes and the date of its newest volume out by today (an announced volume is
 * not the latest yet; `refreshReleasedVolumes` moves the date on when it comes out). Call inside the
 * write's transaction, after `lockSeries`.
 */
export async function syncVolumeStats(db: Db, lightnovelId: number, now = new Date()): Promise<void> {
  const stats = await db
    .selectFrom('lightnovel_volume')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.max(eb.case().when('release_date', '<=', siteToday(now)).then(eb.ref('release_date')).end()).as('latest'),
    ])
    .where('lightnovel_id', '=', lightnovelId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('lightnovel')
    .set({
      volume_count: Number(stats.n),
      latest_volume_date: stats.latest ?? null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', lightnovelId)
    .execute();
}

/**
 * Series with a volume that came out since their latest date was last set (announced volumes whose day
 * has come): their date moves on. Returns their ids, for the page cache. Runs hourly (housekeeping).
 */
export async function refreshReleasedVolumes(db: Db, now = new Date()): Promise<number[]> {
  const today = siteToday(now);
  const rows = await db
    .selectFrom('lightnovel_volume as v')
    .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
    .select('v.lightnovel_id')
    .distinct()
    .where('v.release_date', '<=', today)
    .where((eb) =>
      eb.or([eb('l.latest_volume_date', 'is', null), eb('v.release_date', '>', eb.ref('l.latest_volume_date'))]),
    )
    .execute();
  const ids = rows.map((row) => row.lightnovel_id);
  for (const id of ids) {
    await db.transaction().execute(async (trx) => {
      await lockSeries(trx, id);
      await syncVolumeStats(trx, id, now);
    });
  }
  return ids;
}

/** Creates a volume, or updates the one with the same series, kind and number. Its EPUB is left alone. */
export async function saveVolume(db: Db, input: VolumeInput, now = new Date()): Promise<number> {
  if (!db.isTransaction) return db.transaction().execute((trx) => saveVolume(trx, input, now));
  const kind = input.kind ?? 'main';
  const byId =
    input.id !== undefined
      ? await db
          .selectFrom('lightnovel_volume')
          .select(['id', 'lightnovel_id'])
          .where('id', '=', input.id)
          .executeTakeFirst()
      : undefined;
  if (input.id !== undefined && !byId) throw gone();
  // Both series of a volume that moves are locked, always in id order.
  for (const seriesId of [...new Set([input.lightnovelId, byId?.lightnovel_id ?? input.lightnovelId])].sort(
    (a, b) => a - b,
  ))
    await lockSeries(db, seriesId);
  const existing =
    byId ??
    (await db
      .selectFrom('lightnovel_volume')
      .select(['id', 'lightnovel_id'])
      .where('lightnovel_id', '=', input.lightnovelId)
      .where('kind', '=', kind)
      .where('number', '=', input.number)
      .executeTakeFirst());
  const values = {
    title: input.title ?? '',
    title_zh: input.titleZh ?? '',
    intro: input.intro ?? '',
    cover: input.cover ?? '',
    isbn: input.isbn ?? '',
    release_date: input.releaseDate ?? null,
    pages: input.pages ?? null,
    price: input.price ?? '',
    updated_at: now.toISOString(),
  };
  let id: number;
  if (existing) {
    id = existing.id;
    const moved = byId ? { lightnovel_id: input.lightnovelId, kind, number: input.number } : {};
    await db
      .updateTable('lightnovel_volume')
      .set({ ...values, ...moved })
      .where('id', '=', id)
      .execute();
    if (existing.lightnovel_id !== input.lightnovelId) await syncVolumeStats(db, existing.lightnovel_id, now);
  } else {
    id = await nextId(db, 'volume_id');
    await db
      .insertInto('lightnovel_volume')
      .values({
        id,
        lightnovel_id: input.lightnovelId,
        kind,
        number: input.number,
        ...values,
        created_at: now.toISOString(),
      })
      .execute();
  }
  await syncVolumeStats(db, input.lightnovelId, now);
  return id;
}

/** Deletes a volume (its progress and bookmarks go with it) and recounts its series. */
export async function deleteVolume(
  db: Db,
  volumeId: number,
  now = new Date(),
  storage?: Storage,
): Promise<VolumeFiles | undefined> {
  if (!db.isTransaction) {
    const files = await db.transaction().execute((trx) => deleteVolume(trx, volumeId, now));
    // Its EPUB and extracted cover go once no row names them; inside a caller's transaction the
    // caller passes the returned files to removeVolumeFiles after its commit.
    if (storage && files) await removeVolumeFiles(storage, [files]);
    return files;
  }
  const row = await db
    .selectFrom('lightnovel_volume')
    .select(['lightnovel_id', 'epub_key', 'cover'])
    .where('id', '=', volumeId)
    .executeTakeFirst();
  if (!row) return undefined;
  await lockSeries(db, row.lightnovel_id);
  await db.deleteFrom('lightnovel_volume').where('id', '=', volumeId).execute();
  await syncVolumeStats(db, row.lightnovel_id, now);
  return { epub_key: row.epub_key, cover: row.cover };
}
