import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { CodePurpose, UserGroup, UserStatus } from '../../shared/auth.ts';

/** Site announcements shown on the home page; written by staff (and by the demo seed). */
export interface AnnouncementTable {
  id: string;
  title: string;
  body: string;
  link: string | null;
  pinned: Generated<number>;
  published_at: string;
  created_at: string;
}
export type Announcement = Selectable<AnnouncementTable>;
export type NewAnnouncement = Insertable<AnnouncementTable>;

/** Key/value facts about the installation itself, e.g. when the demo seed ran. */
export interface SystemStateTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface CounterTable {
  name: string;
  value: number;
}

export interface UsersTable {
  id: string;
  user_id: number;
  name: string;
  name_key: string;
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
  password_changed_at: string;
  created_at: string;
  updated_at: string;
}
export type UserRow = Selectable<UsersTable>;

export interface RefreshFamilyTable {
  id: string;
  user_id: string;
  expires_at: string;
  revoked_at: string | null;
  revoke_reason: string | null;
  created_at: string;
}

export interface RefreshTokenTable {
  id: string;
  family_id: string;
  token_hash: string;
  used_at: string | null;
  created_at: string;
}

export interface OneTimeCodeTable {
  id: string;
  email: string;
  purpose: CodePurpose;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: string;
  verified_at: string | null;
  consumed_at: string | null;
  created_at: string;
}

export interface RateLimitTable {
  key: string;
  window_start: number;
  count: number;
}

export interface Database {
  announcement: AnnouncementTable;
  system_state: SystemStateTable;
  counter: CounterTable;
  users: UsersTable;
  refresh_family: RefreshFamilyTable;
  refresh_token: RefreshTokenTable;
  one_time_code: OneTimeCodeTable;
  rate_limit: RateLimitTable;
}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
export type DbDialect = 'sqlite' | 'postgres';
