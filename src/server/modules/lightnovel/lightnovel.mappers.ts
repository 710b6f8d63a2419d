import type { LightnovelCard, VolumeCard } from '../../../shared/lightnovel/lightnovel.ts';
import type { LightnovelRow, LightnovelVolumeRow } from './lightnovel.tables.ts';

/** Columns of a series card, on the alias `l`. */
export const seriesCardColumns = [
  'l.id',
  'l.name',
  'l.name_zh',
  'l.cover',
  'l.nsfw',
  'l.serial_status',
  'l.volume_count',
  'l.latest_volume_date',
  'l.rating_avg',
  'l.rating_count',
  'l.view_count',
  'l.favorite_count',
] as const;

export type SeriesCardRow = Pick<
  LightnovelRow,
  | 'id'
  | 'name'
  | 'name_zh'
  | 'cover'
  | 'nsfw'
  | 'serial_status'
  | 'volume_count'
  | 'latest_volume_date'
  | 'rating_avg'
  | 'rating_count'
  | 'view_count'
  | 'favorite_count'
>;

export function toSeriesCard(row: SeriesCardRow): LightnovelCard {
  return {
    id: row.id,
    title: row.name,
    titleZh: row.name_zh,
    cover: row.cover,
    nsfw: row.nsfw === 1,
    serialStatus: row.serial_status,
    volumeCount: Number(row.volume_count),
    latestVolumeDate: row.latest_volume_date,
    ratingAvg: row.rating_count > 0 ? row.rating_avg / 100 : null,
    ratingCount: Number(row.rating_count),
    viewCount: Number(row.view_count),
    favoriteCount: Number(row.favorite_count),
  };
}

/** Columns of a volume card, on the alias `v`. */
export const volumeCardColumns = [
  'v.id',
  'v.lightnovel_id',
  'v.kind',
  'v.number',
  'v.title',
  'v.title_zh',
  'v.cover',
  'v.release_date',
  'v.epub_key',
] as const;

export type VolumeCardRow = Pick<
  LightnovelVolumeRow,
  'id' | 'lightnovel_id' | 'kind' | 'number' | 'title' | 'title_zh' | 'cover' | 'release_date' | 'epub_key'
>;

export function toVolumeCard(row: VolumeCardRow): VolumeCard {
  return {
    id: row.id,
    lightnovelId: row.lightnovel_id,
    kind: row.kind,
    number: Number(row.number),
    title: row.title,
    titleZh: row.title_zh,
    cover: row.cover,
    releaseDate: row.release_date,
    hasEpub: row.epub_key !== '',
  };
}

/** Main volumes by number, then extras by number. */
export function compareVolumes(a: Pick<VolumeCard, 'kind' | 'number'>, b: Pick<VolumeCard, 'kind' | 'number'>): number {
  if (a.kind !== b.kind) return a.kind === 'main' ? -1 : 1;
  return a.number - b.number;
}
