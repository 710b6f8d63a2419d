import type { Generated, Selectable } from 'kysely';
import type { UserGroup, UserStatus } from '../../../shared/auth.ts';

/** Accounts: one row per user, with the counters and settings their pages show. */
export interface UsersTable {
  id: string;
  user_id: number;
  name: string;
  name_key: string;
  /** Confusable skeleton of the name (users/name-skeleton.ts); unique, so look-alike names cannot coexist. */
  name_skeleton: string;
  email: string;
  password_hash: string;
  avatar: Generated<string>;
  head_cover: Generated<string>;
  signature: Generated<string>;
  bio: Generated<string>;
  follower_count: Generated<number>;
  following_count: Generated<number>;
  post_count: Generated<number>;
  article_count: Generated<number>;
  /** JSON of UserSetting. */
  user_setting: Generated<string>;
  hikari_point: Generated<number>;
  status: Generated<UserStatus>;
  user_group: Generated<UserGroup>;
  check_in_streak: Generated<number>;
  longest_check_in_streak: Generated<number>;
  last_check_in_at: string | null;
  /** The last day (site date) of the run `check_in_streak` counts; null before the first check-in. */
  check_in_streak_end: string | null;
  /** The number of the member's last HikariPoint ledger row (points/points.service.ts). */
  point_seq: Generated<number>;
  password_changed_at: string;
  created_at: string;
  updated_at: string;
}
export type UserRow = Selectable<UsersTable>;

/** A member following another; the row is the follow, so a second one cannot exist. */
export interface UserFollowTable {
  follower_id: string;
  followee_id: string;
  created_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    users: UsersTable;
    user_follow: UserFollowTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    /** The public numeric userId. */
    user_id: true;
  }
}
