import type { Db } from '../../db/database.ts';
import type { TargetDefinition, TargetInfo, TargetViewer } from '../../platform/targets/targets.ts';
import { gameVisible } from '../catalogue/catalogue.targets.ts';

/** Published series (and their volumes) are public; the others only to their creator and the reviewers, as games. */
export const seriesVisible = gameVisible;

/** Page-cache tags of the light-novel pages: a series' data, a volume's data, and which series are published. */
export const lightnovelTags = {
  series: (id: number) => `lightnovel:${id}`,
  volume: (id: number) => `volume:${id}`,
  all: 'lightnovels',
} as const;

const lightnovel: TargetDefinition = {
  type: 'lightnovel',
  async find(db: Db, ids: readonly number[], viewer: TargetViewer) {
    const rows = await db
      .selectFrom('lightnovel')
      .select(['id', 'name', 'name_zh', 'status', 'created_by'])
      .where('id', 'in', ids)
      .execute();
    const found = new Map<number, TargetInfo>();
    for (const row of rows) {
      if (!seriesVisible(row, viewer)) continue;
      found.set(row.id, {
        type: 'lightnovel',
        id: row.id,
        title: row.name_zh || row.name,
        url: `/lightnovel/${row.id}`,
        ownerId: row.created_by,
      });
    }
    return found;
  },
  counters: {
    favorite: { table: 'lightnovel', idColumn: 'id', column: 'favorite_count' },
    comment: { table: 'lightnovel', idColumn: 'id', column: 'comment_count' },
  },
};

/** A volume is seen where its series is; its title names the series and the volume. */
const volume: TargetDefinition = {
  type: 'volume',
  async find(db: Db, ids: readonly number[], viewer: TargetViewer) {
    const rows = await db
      .selectFrom('lightnovel_volume as v')
      .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
      .select([
        'v.id',
        'v.kind',
        'v.number',
        'v.title',
        'v.title_zh',
        'l.name',
        'l.name_zh',
        'l.status',
        'l.created_by',
      ])
      .where('v.id', 'in', ids)
      .execute();
    const found = new Map<number, TargetInfo>();
    for (const row of rows) {
      if (!seriesVisible(row, viewer)) continue;
      const series = row.name_zh || row.name;
      const own = row.title_zh || row.title || (row.kind === 'main' ? `${row.number}` : `SS ${row.number}`);
      found.set(row.id, {
        type: 'volume',
        id: row.id,
        title: `${series} ${own}`,
        url: `/lightnovel/volumes/${row.id}`,
        ownerId: row.created_by,
      });
    }
    return found;
  },
  counters: { comment: { table: 'lightnovel_volume', idColumn: 'id', column: 'comment_count' } },
};

export const lightnovelTargets: TargetDefinition[] = [lightnovel, volume];
