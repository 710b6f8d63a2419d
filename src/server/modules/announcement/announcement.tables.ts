import type { Generated, Insertable, Selectable } from 'kysely';

/** Site announcements shown on the home page; written by staff (and by the demo seed). */
export interface AnnouncementTable {
  id: string;
  title: string;
  body: string;
  link: string | null;
  pinned: Generated<number>;
  published_at: string;
  created_at: string;
  /** When every member got it as a notification (null: not handed out yet). */
  notified_at: string | null;
}
export type Announcement = Selectable<AnnouncementTable>;
export type NewAnnouncement = Insertable<AnnouncementTable>;

declare module '../../db/database.ts' {
  interface Database {
    announcement: AnnouncementTable;
  }
}
