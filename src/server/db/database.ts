import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { CodePurpose, UserGroup, UserStatus } from '../../shared/auth.ts';
import type { GalgameStatus } from '../../shared/catalogue.ts';

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
  /** The account the code was issued for (reset_password, change_email); null for register. */
  user_id: string | null;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: string;
  verified_at: string | null;
  consumed_at: string | null;
  created_at: string;
}

/** An address (keyed hash) an account has logged in from; such addresses are not held back by strangers' failures. */
export interface LoginKnownAddressTable {
  user_id: string;
  address_hash: string;
  created_at: string;
  last_seen_at: string;
}

export interface RateLimitTable {
  key: string;
  window_start: number;
  count: number;
}

export interface GalgameTable {
  id: number;
  title: string;
  title_zh: Generated<string>;
  /** JSON string[] */
  aliases: Generated<string>;
  intro: Generated<string>;
  release_date: string | null;
  release_year: number | null;
  /** JSON GalgamePrice[] */
  prices: Generated<string>;
  cover: Generated<string>;
  /** JSON string[] */
  images: Generated<string>;
  nsfw: Generated<number>;
  status: Generated<GalgameStatus>;
  view_count: Generated<number>;
  favorite_count: Generated<number>;
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  rating_avg: Generated<number>;
  /** JSON number[10]: how many ratings gave 1…10 */
  score_hist: Generated<string>;
  bangumi_id: number | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export type GalgameRow = Selectable<GalgameTable>;

export interface GalgamePlatformTable {
  galgame_id: number;
  platform: string;
}

export interface TagTable {
  id: number;
  name: string;
  name_zh: Generated<string>;
  category: Generated<string>;
  description: Generated<string>;
  game_count: Generated<number>;
  created_at: string;
}

export interface GalgameTagTable {
  galgame_id: number;
  tag_id: number;
  votes: Generated<number>;
  spoiler: Generated<number>;
}

interface EntityColumns {
  id: number;
  name: string;
  name_zh: Generated<string>;
  aliases: Generated<string>;
  description: Generated<string>;
  image: Generated<string>;
  bangumi_id: number | null;
  created_at: string;
  updated_at: string;
}
export interface ProducerTable extends EntityColumns {
  kind: Generated<string>;
  website: Generated<string>;
}
export interface PersonTable extends EntityColumns {
  gender: Generated<string>;
  birthday: Generated<string>;
}
export type CharacterTable = PersonTable;

export interface GalgameProducerTable {
  galgame_id: number;
  producer_id: number;
  role: string;
  note: Generated<string>;
}
export interface GalgameStaffTable {
  galgame_id: number;
  person_id: number;
  role: string;
  note: Generated<string>;
}
export interface GalgameCharacterTable {
  galgame_id: number;
  character_id: number;
  role: string;
  voice_person_id: number | null;
}
export interface GalgameRelationTable {
  galgame_id: number;
  related_id: number;
  relation: string;
}

export interface GalgameDownloadTable {
  id: number;
  galgame_id: number;
  language: string;
  platform: string;
  translation_type: string;
  translation_group: Generated<string>;
  size_bytes: number | null;
  note: Generated<string>;
  created_at: string;
}
export interface DownloadLinkTable {
  id: number;
  download_id: number;
  label: Generated<string>;
  url: string;
  password: Generated<string>;
  report_count: Generated<number>;
  created_at: string;
}
export interface LinkReportTable {
  link_id: number;
  user_id: string;
  reason: Generated<string>;
  created_at: string;
}

export interface FavoriteTable {
  id: number;
  user_id: string;
  item_type: string;
  item_id: number;
  created_at: string;
}

export interface RatingTable {
  id: number;
  user_id: string;
  galgame_id: number;
  score: number;
  play_status: string;
  text: Generated<string>;
  spoiler: Generated<number>;
  like_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A durable background job (platform/jobs): claimed with a lease, retried with backoff, kept when dead. */
export interface JobTable {
  id: string;
  name: string;
  /** JSON of the job's payload. */
  payload: string;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: string;
  lease_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: string;
  updated_at: string;
}
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'dead';
export type JobRow = Selectable<JobTable>;

export interface Database {
  announcement: AnnouncementTable;
  system_state: SystemStateTable;
  counter: CounterTable;
  users: UsersTable;
  refresh_family: RefreshFamilyTable;
  refresh_token: RefreshTokenTable;
  one_time_code: OneTimeCodeTable;
  rate_limit: RateLimitTable;
  login_known_address: LoginKnownAddressTable;
  galgame: GalgameTable;
  galgame_platform: GalgamePlatformTable;
  tag: TagTable;
  galgame_tag: GalgameTagTable;
  producer: ProducerTable;
  person: PersonTable;
  character: CharacterTable;
  galgame_producer: GalgameProducerTable;
  galgame_staff: GalgameStaffTable;
  galgame_character: GalgameCharacterTable;
  galgame_relation: GalgameRelationTable;
  galgame_download: GalgameDownloadTable;
  download_link: DownloadLinkTable;
  link_report: LinkReportTable;
  favorite: FavoriteTable;
  rating: RatingTable;
  job: JobTable;
}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
export type DbDialect = 'sqlite' | 'postgres';
