import type { UserGroup } from '../../../shared/auth-model.ts';
import type { Db } from '../../db/database.ts';
import type { TargetDefinition, TargetInfo, TargetViewer } from '../../platform/targets/targets.ts';

/** Editors and admins also see games that are not published (drafts, pending, rejected). */
const REVIEWERS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];

const galgame: TargetDefinition = {
  type: 'galgame',
  async find(db: Db, ids: readonly number[], viewer: TargetViewer) {
    const rows = await db
      .selectFrom('galgame')
      .select(['id', 'title', 'title_zh', 'status', 'created_by'])
      .where('id', 'in', ids)
      .execute();
    const found = new Map<number, TargetInfo>();
    for (const row of rows) {
      const visible =
        row.status === 'published' ||
        (viewer !== null && (viewer.id === row.created_by || REVIEWERS.includes(viewer.group)));
      if (!visible) continue;
      found.set(row.id, {
        type: 'galgame',
        id: row.id,
        title: row.title_zh || row.title,
        url: `/galgame/${row.id}`,
        ownerId: row.created_by,
      });
    }
    return found;
  },
  counters: { favorite: { table: 'galgame', idColumn: 'id', column: 'favorite_count' } },
};

/** Producers, people and characters: public catalogue entries without an owner. */
function entity(type: 'producer' | 'person' | 'character'): TargetDefinition {
  return {
    type,
    async find(db: Db, ids: readonly number[]) {
      const rows = await db.selectFrom(type).select(['id', 'name', 'name_zh']).where('id', 'in', ids).execute();
      return new Map(
        rows.map((row) => [
          row.id,
          { type, id: row.id, title: row.name_zh || row.name, url: `/${type}/${row.id}`, ownerId: null },
        ]),
      );
    },
  };
}

export const catalogueTargets: TargetDefinition[] = [
  galgame,
  entity('producer'),
  entity('person'),
  entity('character'),
];
