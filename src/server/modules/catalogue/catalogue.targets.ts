import type { UserGroup } from '../../../shared/auth-model.ts';
import type { Db } from '../../db/database.ts';
import type { TargetDefinition, TargetInfo, TargetViewer } from '../../platform/targets/targets.ts';

/** Editors and admins also see games that are not published (drafts, pending, rejected). */
const REVIEWERS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];

/**
 * Published catalogue items (games, light-novel series and their volumes) are public; the others only
 * to their creator and the reviewers.
 */
export function gameVisible(row: { status: string; created_by: string | null }, viewer: TargetViewer): boolean {
  return (
    row.status === 'published' ||
    (viewer !== null && (viewer.id === row.created_by || REVIEWERS.includes(viewer.group)))
  );
}

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
      if (!gameVisible(row, viewer)) continue;
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
  counters: {
    favorite: { table: 'galgame', idColumn: 'id', column: 'favorite_count' },
    comment: { table: 'galgame', idColumn: 'id', column: 'comment_count' },
  },
};

/** A rating is seen where its game is: on the game's page, at its own anchor. */
const rating: TargetDefinition = {
  type: 'rating',
  async find(db: Db, ids: readonly number[], viewer: TargetViewer) {
    const rows = await db
      .selectFrom('rating as r')
      .innerJoin('galgame as g', 'g.id', 'r.galgame_id')
      .select(['r.id', 'r.user_id', 'r.galgame_id', 'g.title', 'g.title_zh', 'g.status', 'g.created_by'])
      .where('r.id', 'in', ids)
      .execute();
    const found = new Map<number, TargetInfo>();
    for (const row of rows) {
      if (!gameVisible(row, viewer)) continue;
      found.set(row.id, {
        type: 'rating',
        id: row.id,
        title: row.title_zh || row.title,
        url: `/galgame/${row.galgame_id}#rating-${row.id}`,
        ownerId: row.user_id,
      });
    }
    return found;
  },
  counters: { like: { table: 'rating', idColumn: 'id', column: 'like_count' } },
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
    counters: { comment: { table: type, idColumn: 'id', column: 'comment_count' } },
  };
}

export const catalogueTargets: TargetDefinition[] = [
  galgame,
  entity('producer'),
  entity('person'),
  entity('character'),
  rating,
];
