import type { Generated, Selectable } from 'kysely';
import type { ModerationAction, NotificationKind, ReviewAction } from '../../../shared/notifications/notifications.ts';
import type { TargetType } from '../../../shared/targets.ts';

/**
 * One notification of one member (decision 021). Likes and follows are grouped: one row per recipient
 * and `group_key` while unread (`open_key` = group_key), whose actors are counted from the likes or
 * follows themselves; other kinds keep their `open_key` for good, so writing one twice changes nothing.
 */
export interface NotificationTable {
  id: string;
  user_id: string;
  kind: NotificationKind;
  group_key: string;
  open_key: string | null;
  target_type: TargetType | null;
  target_id: number | null;
  comment_id: number | null;
  action: ModerationAction | ReviewAction | null;
  /** The comment's line, the item's title; for reviews a JSON `{ title, reason }`. */
  excerpt: Generated<string>;
  announcement_id: string | null;
  /** JSON array of account ids, newest first. */
  actor_ids: Generated<string>;
  actor_count: Generated<number>;
  created_at: string;
  /** The latest activity of the row (the newest like or follow of a group): the list's order. */
  updated_at: string;
  read_at: string | null;
  /** When a digest mail last included it; it is mailed again only after a change. */
  mailed_at: string | null;
}
export type NotificationRow = Selectable<NotificationTable>;

declare module '../../db/database.ts' {
  interface Database {
    notification: NotificationTable;
  }
}
