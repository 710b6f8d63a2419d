import type { ContentType } from '../../../shared/community/community.ts';
import type { Db } from '../../db/database.ts';
import type { TargetDefinition, TargetInfo, TargetViewer } from '../../platform/targets/targets.ts';
import { tableOf } from './community.repository.ts';
import { canSee } from './content.service.ts';

/**
 * Posts and articles: published ones for everyone, drafts and hidden ones for their author and
 * moderators (as their pages, `canSee`), deleted ones for nobody; they keep favourite, comment and like
 * counts. Sections and topics: all of them, no counts.
 */
function content(type: ContentType): TargetDefinition {
  const table = tableOf(type);
  return {
    type,
    async find(db: Db, ids: readonly number[], viewer: TargetViewer) {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'title', 'status', 'user_id'])
        .where('id', 'in', ids)
        .execute();
      const found = new Map<number, TargetInfo>();
      for (const row of rows) {
        if (!canSee(row, viewer)) continue;
        found.set(row.id, {
          type,
          id: row.id,
          title: row.title,
          url: `/community/${type}/${row.id}`,
          ownerId: row.user_id,
        });
      }
      return found;
    },
    counters: {
      favorite: { table, idColumn: 'id', column: 'favorite_count' },
      comment: { table, idColumn: 'id', column: 'comment_count' },
      like: { table, idColumn: 'id', column: 'like_count' },
    },
  };
}

function place(type: 'section' | 'topic'): TargetDefinition {
  return {
    type,
    async find(db: Db, ids: readonly number[]) {
      const rows = await db.selectFrom(type).select(['id', 'name']).where('id', 'in', ids).execute();
      return new Map(
        rows.map((row) => [
          row.id,
          { type, id: row.id, title: row.name, url: `/community/${type}/${row.id}`, ownerId: null },
        ]),
      );
    },
  };
}

export const communityTargets: TargetDefinition[] = [
  content('post'),
  content('article'),
  place('section'),
  place('topic'),
];
