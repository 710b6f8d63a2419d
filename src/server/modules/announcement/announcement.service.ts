import type { Db } from '../../db/database.ts';
import type { NewAnnouncement } from './announcement.tables.ts';

export interface AnnouncementView {
  id: string;
  title: string;
  body: string;
  link: string | null;
  pinned: boolean;
  publishedAt: string;
}

/** The newest announcements, pinned first. */
export async function listAnnouncements(db: Db, limit = 5): Promise<AnnouncementView[]> {
  const rows = await db
    .selectFrom('announcement')
    .selectAll()
    .orderBy('pinned', 'desc')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    body: r.body,
    link: r.link,
    pinned: r.pinned === 1,
    publishedAt: r.published_at,
  }));
}

/** Inserts announcements, leaving any with an existing id untouched. */
export async function upsertAnnouncements(db: Db, items: NewAnnouncement[]): Promise<void> {
  if (items.length === 0) return;
  await db
    .insertInto('announcement')
    .values(items)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
