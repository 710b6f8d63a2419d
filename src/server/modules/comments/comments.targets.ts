import { parseMarkers } from '../../../shared/comment-markers.ts';
import { COMMENT_EXCERPT_LENGTH } from '../../../shared/comments/comments.ts';
import type { TargetType } from '../../../shared/targets.ts';
import type { Db } from '../../db/database.ts';
import type { TargetDefinition, TargetInfo } from '../../platform/targets/targets.ts';

/** A comment's text as one short line: markers left out, whitespace collapsed, cut with an ellipsis. */
export function commentExcerpt(content: string, length = COMMENT_EXCERPT_LENGTH): string {
  const text = parseMarkers(content)
    .map((token) => (token.type === 'text' ? token.text : ' '))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...text];
  return chars.length > length ? `${chars.slice(0, length).join('')}…` : text;
}

/** A visible comment is seen where its target is, at its own anchor on the target's page. */
export const commentTarget: TargetDefinition = {
  type: 'comment',
  async find(db: Db, ids, viewer, registry) {
    const rows = await db
      .selectFrom('comment')
      .select(['id', 'target_type', 'target_id', 'user_id', 'content'])
      .where('id', 'in', ids)
      .where('status', '=', 'visible')
      .execute();
    const byType = new Map<TargetType, number[]>();
    for (const row of rows) byType.set(row.target_type, [...(byType.get(row.target_type) ?? []), row.target_id]);
    const seen = new Map<string, TargetInfo>();
    for (const [type, targetIds] of byType) {
      for (const [id, info] of await registry.find(db, type, targetIds, viewer)) seen.set(`${type}:${id}`, info);
    }
    const found = new Map<number, TargetInfo>();
    for (const row of rows) {
      const target = seen.get(`${row.target_type}:${row.target_id}`);
      if (!target) continue;
      found.set(row.id, {
        type: 'comment',
        id: row.id,
        title: commentExcerpt(row.content) || target.title,
        url: `${target.url}#comment-${row.id}`,
        ownerId: row.user_id,
      });
    }
    return found;
  },
  counters: { like: { table: 'comment', idColumn: 'id', column: 'like_count' } },
};
