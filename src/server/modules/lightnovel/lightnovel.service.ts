import { sql } from 'kysely';
import type {
  LightnovelCard,
  LightnovelDetail,
  LightnovelFrontPage,
  LightnovelProducerOption,
  VolumeCard,
  VolumeDetail,
} from '../../../shared/lightnovel/lightnovel.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { siteToday } from '../../../shared/site-day.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { HttpError } from '../../platform/errors.ts';
import type { TargetViewer } from '../../platform/targets/targets.ts';
import { parseJsonList } from '../catalogue/catalogue.mappers.ts';
import { normaliseHistogram } from '../catalogue/galgame.service.ts';
import {
  compareVolumes,
  seriesCardColumns,
  toSeriesCard,
  toVolumeCard,
  volumeCardColumns,
} from './lightnovel.mappers.ts';
import { seriesVisible } from './lightnovel.targets.ts';
import { parseEpubMeta } from './epub/epub.service.ts';
import { epubFilePath } from '../../../shared/lightnovel/lightnovel-model.ts';

/** /lightnovel/list, read by lightnovel.list.ts. */
export { listLightnovels } from './lightnovel.list.ts';

const publishedSeries = (db: Db) =>
  db.selectFrom('lightnovel as l').select(seriesCardColumns).where('l.status', '=', 'published');

const notFound = (id: number) => new HttpError(404, 'NOT_FOUND', messageRef('lightnovel.error.notFound', { id }));
const volumeNotFound = (id: number) =>
  new HttpError(404, 'NOT_FOUND', messageRef('lightnovel.error.volumeNotFound', { id }));

/** Labels shown on /lightnovel, each with this many of its series. */
const FRONT_LABELS = 4;
const FRONT_LABEL_SERIES = 6;

/**
 * The blocks of /lightnovel: volumes released lately (up to today's site date) with their series,
 * serialising series by their newest volume, popular series, and the labels with most series.
 */
export async function lightnovelFrontPage(db: Db, now = new Date(), size = 12): Promise<LightnovelFrontPage> {
  const today = siteToday(now);
  const [newVolumes, serialising, popular, labels] = await Promise.all([
    db
      .selectFrom('lightnovel_volume as v')
      .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
      .select([...volumeCardColumns, 'l.name', 'l.name_zh'])
      .where('l.status', '=', 'published')
      .where('v.release_date', '<=', today)
      .orderBy('v.release_date', 'desc')
      .orderBy('v.id', 'desc')
      .limit(size)
      .execute(),
    publishedSeries(db)
      .where('l.serial_status', '=', 'serialising')
      .orderBy('l.latest_volume_date', (ob) => ob.desc().nullsLast())
      .orderBy('l.id', 'desc')
      .limit(size)
      .execute(),
    publishedSeries(db)
      .where('l.view_count', '>', 0)
      .orderBy('l.view_count', 'desc')
      .orderBy('l.id', 'desc')
      .limit(size)
      .execute(),
    db
      .selectFrom('lightnovel_producer as lp')
      .innerJoin('producer as p', 'p.id', 'lp.producer_id')
      .innerJoin('lightnovel as l', 'l.id', 'lp.lightnovel_id')
      .select(['p.id', 'p.name', 'p.name_zh', sql<number>`count(*)`.as('n')])
      .where('lp.role', '=', 'label')
      .where('l.status', '=', 'published')
      .groupBy(['p.id', 'p.name', 'p.name_zh'])
      .orderBy('n', 'desc')
      .orderBy('p.id')
      .limit(FRONT_LABELS)
      .execute(),
  ]);
  const labelSeries = await Promise.all(
    labels.map((label) =>
      publishedSeries(db)
        .innerJoin('lightnovel_producer as lp', 'lp.lightnovel_id', 'l.id')
        .where('lp.producer_id', '=', label.id)
        .where('lp.role', '=', 'label')
        .orderBy('l.latest_volume_date', (ob) => ob.desc().nullsLast())
        .orderBy('l.id', 'desc')
        .limit(FRONT_LABEL_SERIES)
        .execute(),
    ),
  );
  return {
    newVolumes: newVolumes.map((row) => ({
      ...toVolumeCard(row),
      series: { id: row.lightnovel_id, title: row.name, titleZh: row.name_zh },
    })),
    serialising: serialising.map(toSeriesCard),
    popular: popular.map(toSeriesCard),
    labels: labels.map((label, i) => ({
      label: { id: label.id, name: label.name, nameZh: label.name_zh },
      series: (labelSeries[i] ?? []).map(toSeriesCard),
    })),
  };
}

/** The volumes of a series in reading order: main volumes by number, then extras. */
export async function volumesOf(db: Db, lightnovelId: number): Promise<VolumeCard[]> {
  const rows = await db
    .selectFrom('lightnovel_volume as v')
    .select(volumeCardColumns)
    .where('v.lightnovel_id', '=', lightnovelId)
    .orderBy(sql`case ${sql.ref('v.kind')} when 'main' then 0 else 1 end`)
    .orderBy('v.number')
    .execute();
  return rows.map(toVolumeCard).sort(compareVolumes);
}

/**
 * A series with everything its page shows. Drafts are 404 except to their creator and reviewers, so
 * nobody learns that a hidden series exists.
 */
export async function lightnovelDetail(db: Db, id: number, viewer: TargetViewer = null): Promise<LightnovelDetail> {
  const row = await db.selectFrom('lightnovel').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || !seriesVisible(row, viewer)) throw notFound(id);
  const [staff, producers, volumes] = await Promise.all([
    db
      .selectFrom('lightnovel_staff as s')
      .innerJoin('person as p', 'p.id', 's.person_id')
      .select(['p.id', 'p.name', 'p.name_zh', 's.role'])
      .where('s.lightnovel_id', '=', id)
      .orderBy('s.role')
      .orderBy('p.id')
      .execute(),
    db
      .selectFrom('lightnovel_producer as lp')
      .innerJoin('producer as p', 'p.id', 'lp.producer_id')
      .select(['p.id', 'p.name', 'p.name_zh', 'lp.role'])
      .where('lp.lightnovel_id', '=', id)
      .orderBy('lp.role', 'desc')
      .orderBy('p.id')
      .execute(),
    volumesOf(db, id),
  ]);
  return {
    ...toSeriesCard(row),
    aliases: parseJsonList<string>(row.aliases),
    intro: row.intro,
    status: row.status,
    commentCount: Number(row.comment_count),
    scoreHistogram: normaliseHistogram(parseJsonList<number>(row.score_hist)),
    staff: staff.map((p) => ({ id: p.id, name: p.name, nameZh: p.name_zh, role: p.role })),
    producers: producers.map((p) => ({ id: p.id, name: p.name, nameZh: p.name_zh, role: p.role })),
    volumes,
  };
}

/** A volume with its series and neighbours; hidden with its series. */
export async function volumeDetail(db: Db, id: number, viewer: TargetViewer = null): Promise<VolumeDetail> {
  const row = await db
    .selectFrom('lightnovel_volume as v')
    .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
    .selectAll('v')
    .select([
      ...seriesCardColumns.filter((c) => c !== 'l.id' && c !== 'l.view_count' && c !== 'l.cover'),
      'l.status',
      'l.created_by',
      'l.view_count as series_views',
      'l.cover as series_cover',
    ])
    .where('v.id', '=', id)
    .executeTakeFirst();
  if (!row || !seriesVisible(row, viewer)) throw volumeNotFound(id);
  const siblings = await volumesOf(db, row.lightnovel_id);
  const at = siblings.findIndex((v) => v.id === id);
  return {
    ...toVolumeCard(row),
    intro: row.intro,
    isbn: row.isbn,
    pages: row.pages === null ? null : Number(row.pages),
    price: row.price,
    viewCount: Number(row.view_count),
    commentCount: Number(row.comment_count),
    series: toSeriesCard({ ...row, id: row.lightnovel_id, view_count: row.series_views, cover: row.series_cover }),
    previous: siblings[at - 1] ?? null,
    next: siblings[at + 1] ?? null,
    epub: row.epub_key
      ? { size: Number(row.epub_size), meta: parseEpubMeta(row.epub_meta), url: epubFilePath(row.id) }
      : null,
  };
}

/** Labels and publishers of published series, for the list's filters, with how many series each has. */
export async function lightnovelProducers(db: Db): Promise<LightnovelProducerOption[]> {
  const rows = await db
    .selectFrom('lightnovel_producer as lp')
    .innerJoin('producer as p', 'p.id', 'lp.producer_id')
    .innerJoin('lightnovel as l', 'l.id', 'lp.lightnovel_id')
    .select(['p.id', 'p.name', 'p.name_zh', 'lp.role', sql<number>`count(*)`.as('n')])
    .where('l.status', '=', 'published')
    .groupBy(['p.id', 'p.name', 'p.name_zh', 'lp.role'])
    .orderBy('lp.role')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, nameZh: r.name_zh, role: r.role, seriesCount: Number(r.n) }));
}

/** One published series as a card, or null. */
export async function lightnovelCard(db: Db, id: number): Promise<LightnovelCard | null> {
  const row = await publishedSeries(db).where('l.id', '=', id).executeTakeFirst();
  return row ? toSeriesCard(row) : null;
}

/** Page views of series and volumes, counted in memory and written every few seconds in one transaction. */
export interface LightnovelViews {
  series: (id: number) => void;
  volume: (id: number) => void;
  flush: () => Promise<void>;
  stop: () => Promise<void>;
}

export function createLightnovelViews(db: Db, logger: Logger, intervalMs = 5000): LightnovelViews {
  let pending = { lightnovel: new Map<number, number>(), lightnovel_volume: new Map<number, number>() };
  let flushing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (pending.lightnovel.size === 0 && pending.lightnovel_volume.size === 0) return;
    const batch = pending;
    pending = { lightnovel: new Map(), lightnovel_volume: new Map() };
    flushing = flushing.then(() =>
      db
        .transaction()
        .execute(async (trx) => {
          // In id order, so two processes flushing at once lock rows in the same order.
          for (const table of ['lightnovel', 'lightnovel_volume'] as const) {
            for (const [id, n] of [...batch[table]].sort((a, b) => a[0] - b[0])) {
              await trx
                .updateTable(table)
                .set((eb) => ({ view_count: eb('view_count', '+', sql.lit(n)) }))
                .where('id', '=', id)
                .execute();
            }
          }
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'light novel view counts not saved')),
    );
    await flushing;
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  const hit = (map: Map<number, number>, id: number) => void map.set(id, (map.get(id) ?? 0) + 1);
  return {
    series: (id) => hit(pending.lightnovel, id),
    volume: (id) => hit(pending.lightnovel_volume, id),
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}

const viewCounters = new WeakMap<AppContext, LightnovelViews>();

/** The light-novel view counter of an app, made on first use. */
export function lightnovelViews(ctx: AppContext): LightnovelViews {
  let counter = viewCounters.get(ctx);
  if (!counter) {
    counter = createLightnovelViews(ctx.db, ctx.logger);
    viewCounters.set(ctx, counter);
  }
  return counter;
}

/** Writes the buffered views and stops the counter (for the module's stop hook). */
export async function stopLightnovelViews(ctx: AppContext): Promise<void> {
  await viewCounters.get(ctx)?.stop();
  viewCounters.delete(ctx);
}
