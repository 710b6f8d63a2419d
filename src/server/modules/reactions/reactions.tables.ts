import type { Selectable } from 'kysely';
import type {
  LikeTargetType,
  ReportReason,
  ReportStatus,
  ReportTargetType,
} from '../../../shared/reactions/reactions.ts';

/** One like of one user on one item (`like` is an SQL keyword, hence the prefix). */
export interface ReactionLikeTable {
  user_id: string;
  target_type: LikeTargetType;
  target_id: number;
  created_at: string;
}

/** A report of a post, article or comment, waiting for (or handled by) a moderator. */
export interface ReportTable {
  id: number;
  user_id: string;
  target_type: ReportTargetType;
  target_id: number;
  reason: ReportReason;
  text: string;
  status: ReportStatus;
  created_at: string;
  resolved_by: string | null;
  resolved_at: string | null;
}
export type ReportRow = Selectable<ReportTable>;

declare module '../../db/database.ts' {
  interface Database {
    reaction_like: ReactionLikeTable;
    report: ReportTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    report_id: true;
  }
}
