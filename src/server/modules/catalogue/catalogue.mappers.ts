import type { GalgameCard, GalgamePrice } from '../../../shared/catalogue.ts';
import type { GalgameRow } from './catalogue.tables.ts';

export function parseJsonList<T>(json: string, fallback: T[] = []): T[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as T[]) : fallback;
  } catch {
    return fallback;
  }
}

export const cardColumns = [
  'g.id',
  'g.title',
  'g.title_zh',
  'g.cover',
  'g.nsfw',
  'g.release_date',
  'g.rating_avg',
  'g.rating_count',
  'g.view_count',
  'g.favorite_count',
] as const;

export type CardRow = Pick<
  GalgameRow,
  | 'id'
  | 'title'
  | 'title_zh'
  | 'cover'
  | 'nsfw'
  | 'release_date'
  | 'rating_avg'
  | 'rating_count'
  | 'view_count'
  | 'favorite_count'
>;

export function toCard(row: CardRow): GalgameCard {
  return {
    id: row.id,
    title: row.title,
    titleZh: row.title_zh,
    cover: row.cover,
    nsfw: row.nsfw === 1,
    releaseDate: row.release_date,
    ratingAvg: row.rating_count > 0 ? row.rating_avg / 100 : null,
    ratingCount: row.rating_count,
    viewCount: row.view_count,
    favoriteCount: row.favorite_count,
  };
}

export function parsePrices(json: string): GalgamePrice[] {
  return parseJsonList<GalgamePrice>(json).filter(
    (p) => p && typeof p.amount === 'number' && typeof p.currency === 'string',
  );
}
