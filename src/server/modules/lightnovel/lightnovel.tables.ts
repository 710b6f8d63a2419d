import type { Generated, Selectable } from 'kysely';
import type { GalgameStatus } from '../../../shared/catalogue-model.ts';
import type {
  LightnovelProducerRole,
  LightnovelStaffRole,
  SerialStatus,
  VolumeKind,
} from '../../../shared/lightnovel/lightnovel-model.ts';

export interface LightnovelTable {
  id: number;
  name: string;
  name_zh: Generated<string>;
  /** JSON string[]: other names */
  aliases: Generated<string>;
  intro: Generated<string>;
  cover: Generated<string>;
  serial_status: Generated<SerialStatus>;
  nsfw: Generated<number>;
  /** Publication state, as for games: only `published` series are public. */
  status: Generated<GalgameStatus>;
  volume_count: Generated<number>;
  latest_volume_date: string | null;
  view_count: Generated<number>;
  favorite_count: Generated<number>;
  comment_count: Generated<number>;
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  /** Average ×100 */
  rating_avg: Generated<number>;
  /** JSON number[10] */
  score_hist: Generated<string>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export type LightnovelRow = Selectable<LightnovelTable>;

export interface LightnovelStaffTable {
  lightnovel_id: number;
  person_id: number;
  role: LightnovelStaffRole;
}

export interface LightnovelProducerTable {
  lightnovel_id: number;
  producer_id: number;
  role: LightnovelProducerRole;
}

export interface LightnovelVolumeTable {
  id: number;
  lightnovel_id: number;
  kind: Generated<VolumeKind>;
  number: number;
  title: Generated<string>;
  title_zh: Generated<string>;
  intro: Generated<string>;
  cover: Generated<string>;
  isbn: Generated<string>;
  release_date: string | null;
  pages: number | null;
  price: Generated<string>;
  /** Storage key of its EPUB; '' when it has none. */
  epub_key: Generated<string>;
  epub_size: Generated<number>;
  /** JSON EpubMeta */
  epub_meta: Generated<string>;
  epub_uploaded_by: string | null;
  view_count: Generated<number>;
  comment_count: Generated<number>;
  created_at: string;
  updated_at: string;
}
export type LightnovelVolumeRow = Selectable<LightnovelVolumeTable>;

export interface LightnovelRatingTable {
  id: number;
  user_id: string;
  lightnovel_id: number;
  score: number;
  text: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface ReadingProgressTable {
  user_id: string;
  volume_id: number;
  lightnovel_id: number;
  cfi: string;
  chapter: Generated<string>;
  /** 0…PROGRESS_SCALE */
  percentage: Generated<number>;
  updated_at: string;
}

export interface ReadingBookmarkTable {
  id: number;
  user_id: string;
  volume_id: number;
  cfi: string;
  chapter: Generated<string>;
  percentage: Generated<number>;
  note: Generated<string>;
  created_at: string;
  updated_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    lightnovel: LightnovelTable;
    lightnovel_staff: LightnovelStaffTable;
    lightnovel_producer: LightnovelProducerTable;
    lightnovel_volume: LightnovelVolumeTable;
    lightnovel_rating: LightnovelRatingTable;
    reading_progress: ReadingProgressTable;
    reading_bookmark: ReadingBookmarkTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    lightnovel_id: true;
    volume_id: true;
    lightnovel_rating_id: true;
    bookmark_id: true;
  }
}
