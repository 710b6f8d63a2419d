import { sql } from 'kysely';
import {
  LIGHTNOVEL_PAGE_SIZE,
  type LightnovelCard,
  type LightnovelListQuery,
  type LightnovelSort,
} from '../../../shared/lightnovel/lightnovel.ts';
import type { Db } from '../../db/database.ts';
import { offsetOf, pageInfo, type Page } from '../../db/paginate.ts';
import { seriesCardColumns, toSeriesCard } from './lightnovel.mappers.ts';

// /lightnovel/list straight on the series table: each sort reads an index led by (status, sort column)
// (lightnovel_latest_idx, _rating_idx, _views_idx; newest is the primary key), and the label, publisher
// and EPUB filters are probes of the link and volume tables' indexes per row.

export type LightnovelListFilters = Omit<LightnovelListQuery, 'sort' | 'page'>;

/** Published series under the filters, not yet ordered. */
export function filteredSeries(db: Db, f: LightnovelListFilters) {
  let q = db.selectFrom('lightnovel as l').where('l.status', '=', 'published');
  if (f.status !== undefined) q = q.where('l.serial_status', '=', f.status);
  if (f.year !== undefined)
    q = q.where('l.latest_volume_date', '>=', `${f.year}-01-01`).where('l.latest_volume_date', '<=', `${f.year}-12-31`);
  for (const [role, producerId] of [
    ['label', f.label],
    ['publisher', f.publisher],
  ] as const) {
    if (producerId === undefined) continue;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('lightnovel_producer as lp')
          .select('lp.lightnovel_id')
          .where('lp.producer_id', '=', producerId)
          .where('lp.role', '=', role)
          .whereRef('lp.lightnovel_id', '=', 'l.id'),
      ),
    );
  }
  if (f.epub)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('lightnovel_volume as v')
          .select('v.id')
          .whereRef('v.lightnovel_id', '=', 'l.id')
          .where('v.epub_key', '<>', ''),
      ),
    );
  return q;
}

/** A page of the filtered series in the sort's order; the id breaks ties, so pages never overlap. */
export function sortedPage(db: Db, f: LightnovelListFilters, sort: LightnovelSort, page: number, limit: number) {
  const q = filteredSeries(db, f).select(seriesCardColumns);
  const ordered =
    sort === 'latest'
      ? q.orderBy('l.latest_volume_date', (ob) => ob.desc().nullsLast())
      : sort === 'rating'
        ? q.orderBy('l.rating_avg', 'desc')
        : sort === 'views'
          ? q.orderBy('l.view_count', 'desc')
          : sort === 'favorites'
            ? q.orderBy('l.favorite_count', 'desc')
            : q;
  return ordered.orderBy('l.id', 'desc').limit(limit).offset(offsetOf({ page, limit }));
}

/** /lightnovel/list: one page of published series under the filters and sort, with the total. */
export async function listLightnovels(
  db: Db,
  query: LightnovelListQuery,
  pageSize = LIGHTNOVEL_PAGE_SIZE,
): Promise<Page<LightnovelCard>> {
  const { sort, page, ...filters } = query;
  const counted = await filteredSeries(db, filters)
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pagination = pageInfo({ page, limit: pageSize }, total);
  if (total === 0 || page > pagination.totalPages) return { items: [], pagination };
  const rows = await sortedPage(db, filters, sort, page, pageSize).execute();
  return { items: rows.map(toSeriesCard), pagination };
}
