/** A member appointed to moderate one section (pin, feature and delete its posts and articles). */
export interface SectionModeratorTable {
  section_id: number;
  user_id: string;
  /** Who appointed them; cleared when that account is removed. */
  appointed_by: string | null;
  created_at: string;
}

/** The name of a topic merged into another: writing it names the topic it went into. */
export interface TopicAliasTable {
  /** topicKey of the merged topic's name. */
  name_key: string;
  topic_id: number;
  /** The merged topic's id (its old address). */
  merged_id: number;
  created_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    section_moderator: SectionModeratorTable;
    topic_alias: TopicAliasTable;
  }
}
