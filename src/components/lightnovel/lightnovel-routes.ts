import type { Translate } from '../../shared/i18n/index.ts';
import type {
  LightnovelCard,
  LightnovelDetail,
  LightnovelListQuery,
  VolumeCard,
  VolumeDetail,
} from '../../shared/lightnovel/lightnovel.ts';
import { lightnovelTags } from '../../server/modules/lightnovel/lightnovel.targets.ts';
import { pageTags } from '../../server/http/page-cache-policy.ts';

/** Route and query helpers of the light-novel pages: list links, volume names and page-cache tags. */

const LIST_PATH = '/lightnovel/list';

export type LightnovelFilterKey = 'status' | 'label' | 'publisher' | 'year' | 'epub';

/** /lightnovel/list with the given filters; defaults (latest, page 1) are left out so links stay short. */
export function lightnovelListHref(query: Partial<LightnovelListQuery>): string {
  const params = new URLSearchParams();
  if (query.status !== undefined) params.set('status', query.status);
  if (query.label !== undefined) params.set('label', String(query.label));
  if (query.publisher !== undefined) params.set('publisher', String(query.publisher));
  if (query.year !== undefined) params.set('year', String(query.year));
  if (query.epub) params.set('epub', '1');
  if (query.sort && query.sort !== 'latest') params.set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `${LIST_PATH}?${search}` : LIST_PATH;
}

/** The same list with one filter removed (and back to page 1). */
export function withoutLightnovelFilter(query: LightnovelListQuery, key: LightnovelFilterKey): string {
  const next: Partial<LightnovelListQuery> = { ...query, page: 1 };
  delete next[key];
  return lightnovelListHref(next);
}

export const hasLightnovelFilters = (query: LightnovelListQuery): boolean =>
  query.status !== undefined ||
  query.label !== undefined ||
  query.publisher !== undefined ||
  query.year !== undefined ||
  query.epub === true;

/** "第 3 卷" or "短篇集 1". */
export const volumeNumber = (t: Translate, volume: Pick<VolumeCard, 'kind' | 'number'>): string =>
  t(`lightnovel.kind.${volume.kind}`, { number: volume.number });

/** The volume's own title (Chinese first), or its number when it has none. */
export const volumeTitle = (t: Translate, volume: Pick<VolumeCard, 'kind' | 'number' | 'title' | 'titleZh'>): string =>
  volume.titleZh.trim() || volume.title.trim() || volumeNumber(t, volume);

/** What a list of series shows: which series are published, and each card. */
export const seriesCardTags = (series: readonly Pick<LightnovelCard, 'id'>[]): string[] => [
  lightnovelTags.all,
  ...series.map((s) => lightnovelTags.series(s.id)),
];

/** What a series page shows: the series, its volumes, its people and producers. */
export function seriesPageTags(series: LightnovelDetail): string[] {
  return [
    lightnovelTags.series(series.id),
    ...series.volumes.map((v) => lightnovelTags.volume(v.id)),
    ...series.staff.map((p) => pageTags.person(p.id)),
    ...series.producers.map((p) => pageTags.producer(p.id)),
  ];
}

/** What a volume page shows: the volume, its neighbours and its series' card. */
export function volumePageTags(volume: VolumeDetail): string[] {
  return [
    lightnovelTags.volume(volume.id),
    lightnovelTags.series(volume.lightnovelId),
    ...[volume.previous, volume.next].flatMap((v) => (v ? [lightnovelTags.volume(v.id)] : [])),
  ];
}

/** The reader's address for a volume (a full page load: the reader has its own layout). */
export const readerHref = (volumeId: number) => `/lightnovel/read?volumeId=${volumeId}`;
