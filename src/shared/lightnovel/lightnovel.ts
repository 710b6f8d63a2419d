import { z } from 'zod';
import type { Pagination } from '../catalogue-model.ts';
import type { GalgameStatus } from '../catalogue-model.ts';
import { decimalId, queryInt } from '../input-rules.ts';
import { messageRef } from '../i18n/index.ts';
import {
  SERIAL_STATUSES,
  type EpubMeta,
  type LightnovelProducerRole,
  type LightnovelStaffRole,
  type SerialStatus,
  type VolumeKind,
} from './lightnovel-model.ts';

/** The light-novel catalogue: list query schemas and the shapes of series and volumes as pages and the API show them. */

/** /lightnovel/list sorts: newest volume, rating, views, favourites, newest series. */
export const LIGHTNOVEL_SORTS = ['latest', 'rating', 'views', 'favorites', 'newest'] as const;
export type LightnovelSort = (typeof LIGHTNOVEL_SORTS)[number];

export const LIGHTNOVEL_PAGE_SIZE = 24;

const listFields = {
  status: z.enum(SERIAL_STATUSES, { error: messageRef('lightnovel.error.status') }),
  label: decimalId('lightnovel.list.label'),
  publisher: decimalId('lightnovel.list.publisher'),
  year: queryInt({ min: 1980, max: 2100, label: 'lightnovel.list.year' }),
  epub: z.enum(['1'], { error: messageRef('lightnovel.error.epub') }).transform(() => true as const),
  sort: z.enum(LIGHTNOVEL_SORTS, { error: messageRef('lightnovel.error.sort') }),
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }),
};

/** GET /api/lightnovel/list: every value is checked; a wrong one answers 400. */
export const lightnovelListQuerySchema = z.strictObject(
  {
    status: listFields.status.optional(),
    label: listFields.label.optional(),
    publisher: listFields.publisher.optional(),
    year: listFields.year.optional(),
    epub: listFields.epub.optional(),
    sort: listFields.sort.default('latest'),
    page: listFields.page.default(1),
  },
  { error: messageRef('lightnovel.error.unknownFilter') },
);
export type LightnovelListQuery = z.infer<typeof lightnovelListQuerySchema>;

/** /lightnovel/list (the page): the same filters, but a value written any other way is ignored, as /galgame/list does. */
export const lightnovelListPageSchema = z.object({
  status: listFields.status.optional().catch(undefined),
  label: listFields.label.optional().catch(undefined),
  publisher: listFields.publisher.optional().catch(undefined),
  year: listFields.year.optional().catch(undefined),
  epub: listFields.epub.optional().catch(undefined),
  sort: listFields.sort.default('latest').catch('latest'),
  page: listFields.page.default(1).catch(1),
});

/** A person or producer named on a series. */
export interface LightnovelCredit {
  id: number;
  name: string;
  nameZh: string;
}

/** A series in lists and cards (`title` is its original name, `titleZh` its Chinese name). */
export interface LightnovelCard {
  id: number;
  title: string;
  titleZh: string;
  cover: string;
  nsfw: boolean;
  serialStatus: SerialStatus;
  volumeCount: number;
  latestVolumeDate: string | null;
  ratingAvg: number | null;
  ratingCount: number;
  viewCount: number;
  favoriteCount: number;
}

export interface LightnovelCardPage {
  items: LightnovelCard[];
  pagination: Pagination;
}

/** A volume in a series' list of volumes. */
export interface VolumeCard {
  id: number;
  lightnovelId: number;
  kind: VolumeKind;
  number: number;
  title: string;
  titleZh: string;
  cover: string;
  releaseDate: string | null;
  hasEpub: boolean;
}

export interface LightnovelDetail extends LightnovelCard {
  aliases: string[];
  intro: string;
  status: GalgameStatus;
  commentCount: number;
  scoreHistogram: number[];
  staff: (LightnovelCredit & { role: LightnovelStaffRole })[];
  producers: (LightnovelCredit & { role: LightnovelProducerRole })[];
  /** Main volumes by number, then extras by number. */
  volumes: VolumeCard[];
}

export interface VolumeDetail extends VolumeCard {
  intro: string;
  isbn: string;
  pages: number | null;
  price: string;
  viewCount: number;
  commentCount: number;
  series: LightnovelCard;
  previous: VolumeCard | null;
  next: VolumeCard | null;
  /** Its EPUB (size, what the server read from it, where to fetch it); null when it has none. */
  epub: { size: number; meta: EpubMeta; url: string } | null;
}

/** A new volume on /lightnovel, with its series. */
export interface NewVolume extends VolumeCard {
  series: Pick<LightnovelCard, 'id' | 'title' | 'titleZh'>;
}

export interface LightnovelFrontPage {
  newVolumes: NewVolume[];
  serialising: LightnovelCard[];
  popular: LightnovelCard[];
  /** A few labels (bunko) with their series. */
  labels: { label: LightnovelCredit; series: LightnovelCard[] }[];
}

/** A label or publisher to filter the list by, with its published series. */
export interface LightnovelProducerOption extends LightnovelCredit {
  role: LightnovelProducerRole;
  seriesCount: number;
}
