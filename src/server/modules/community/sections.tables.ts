/** A member appointed to moderate one section (pin, feature and delete its posts and articles). */
export interface SectionModeratorTable {
  section_id: number;
  user_id: string;
  /** Who appointed them; cleared when that account is removed. */
  appointed_by: string | null;
  created_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    section_moderator: SectionModeratorTable;
  }
}
