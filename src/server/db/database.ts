import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

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

export interface Database {
  announcement: AnnouncementTable;
  system_state: SystemStateTable;
}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
export type DbDialect = 'sqlite' | 'postgres';
