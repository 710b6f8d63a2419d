import type { Generated, Selectable } from 'kysely';
import type { CommentStatus } from '../../../shared/comments/comments.ts';
import type { TargetType } from '../../../shared/targets.ts';

/**
 * A comment on any target that keeps a comment count. Roots have no root_id, parent_id or
 * reply_to_user_id; a reply names its root, the comment it answers and that comment's author.
 */
export interface CommentTable {
  id: number;
  target_type: TargetType;
  target_id: number;
  user_id: string;
  root_id: number | null;
  parent_id: number | null;
  reply_to_user_id: string | null;
  content: string;
  like_count: Generated<number>;
  /** Roots: their visible replies. */
  reply_count: Generated<number>;
  status: Generated<CommentStatus>;
  /** 1 for the one pinned root of a target. */
  pinned: Generated<number>;
  created_at: string;
  deleted_at: string | null;
}
export type CommentRow = Selectable<CommentTable>;

declare module '../../db/database.ts' {
  interface Database {
    comment: CommentTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    comment_id: true;
  }
}
