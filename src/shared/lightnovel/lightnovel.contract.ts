import { z } from 'zod';
import { as, endpoint } from '../contract.ts';
import { decimalId } from '../input-rules.ts';
import {
  lightnovelListQuerySchema,
  type LightnovelCardPage,
  type LightnovelDetail,
  type VolumeDetail,
} from './lightnovel.ts';

const idParams = z.object({ id: decimalId() });

/** The light-novel catalogue: the list with its filters, a series, a volume. */
export const lightnovelContract = {
  list: endpoint({
    method: 'GET',
    path: '/lightnovel/list',
    query: lightnovelListQuerySchema,
    response: as<LightnovelCardPage>(),
    summary:
      'Published series: serial `status`, `label` and `publisher` (producer ids), `year` of the latest volume, `epub=1` (has a volume to read), `sort` (latest, rating, views, favorites, newest), `page`',
  }),
  series: endpoint({
    method: 'GET',
    path: '/lightnovel/series/:id',
    params: idParams,
    response: as<LightnovelDetail>(),
    auth: 'optional',
    summary:
      'A series with its people, publishers, labels and volumes in order (drafts only to their creator and reviewers)',
  }),
  volume: endpoint({
    method: 'GET',
    path: '/lightnovel/volumes/:id',
    params: idParams,
    response: as<VolumeDetail>(),
    auth: 'optional',
    summary: 'A volume with its series and the previous and next volumes',
  }),
} as const;
