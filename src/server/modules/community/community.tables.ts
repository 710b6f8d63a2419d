import type { Generated, Selectable } from 'kysely';
import type { ContentStatus, ContentType, FollowTargetType, WorkType } from '../../../shared/community/community.ts';

/** A section of the community, made by staff: where posts and articles are published. */
export interface SectionTable {
  id: number;
  name: string;
  description: Generated<string>;
  /** A name from the icon sprite. */
  icon: Generated<string>;
  /** `#rrggbb`. */
  color: Generated<string>;
  cover: Generated<string>;
  sort_order: Generated<number>;
  follower_count: Generated<number>;
  /** Published posts and articles in it, moved in the transaction that publishes or deletes. */
  post_count: Generated<number>;
  article_count: Generated<number>;
  created_at: string;
  updated_at: string;
}
export type SectionRow = Selectable<SectionTable>;

/** A topic, created by members by naming it when they publish (as hashtags are). */
export interface TopicTable {
  id: number;
  /** As first written (NFKC, trimmed). */
  name: string;
  /** topicKey(name): NFKC and lower case, unique. */
  name_key: string;
  description: Generated<string>;
  icon: Generated<string>;
  color: Generated<string>;
  cover: Generated<string>;
  follower_count: Generated<number>;
  /** Published posts and articles tagged with it. */
  use_count: Generated<number>;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}
export type TopicRow = Selectable<TopicTable>;

/** A member following a section or topic; the row is the follow, so a second one cannot exist. */
export interface CommunityFollowTable {
  user_id: string;
  target_type: FollowTargetType;
  target_id: number;
  created_at: string;
}

/** Columns posts and articles share. */
interface ContentColumns {
  id: number;
  user_id: string;
  /** Null while a draft has none. */
  section_id: number | null;
  status: ContentStatus;
  title: string;
  /** Plain text for lists and cards, made when saved (≤ EXCERPT_MAX characters). */
  excerpt: string;
  /** JSON list of the topic names as the author gave them (drafts keep names that are no topic yet). */
  topic_names: string;
  pinned: Generated<number>;
  featured: Generated<number>;
  like_count: Generated<number>;
  comment_count: Generated<number>;
  favorite_count: Generated<number>;
  view_count: Generated<number>;
  /** Starts at 1; every save adds one. */
  version: number;
  published_at: string | null;
  edited_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PostTable extends ContentColumns {
  /** Text with `[emoji:…]` and `[img]…[/img]` markers. */
  content: string;
  /** JSON list of image addresses. */
  images: string;
}
export type PostRow = Selectable<PostTable>;

export interface ArticleTable extends ContentColumns {
  /** Unique when set. */
  slug: string | null;
  cover: string;
  summary: string;
  /** JSON of the Tiptap document. */
  body: string;
  /** The document rendered and sanitised when saved. */
  body_html: string;
  body_text: string;
  is_review: Generated<number>;
  review_work_type: WorkType | null;
  review_work_id: number | null;
  /** The author's rating of the reviewed work (null when none, or removed since). */
  rating_id: number | null;
}
export type ArticleRow = Selectable<ArticleTable>;

/** Topics of published posts and articles, in the order the author gave them. */
export interface ContentTopicTable {
  content_type: ContentType;
  content_id: number;
  topic_id: number;
  position: number;
}

/** Works a post or article is about (drafts included). */
export interface ContentWorkTable {
  content_type: ContentType;
  content_id: number;
  work_type: WorkType;
  work_id: number;
  position: number;
}

declare module '../../db/database.ts' {
  interface Database {
    section: SectionTable;
    topic: TopicTable;
    community_follow: CommunityFollowTable;
    post: PostTable;
    article: ArticleTable;
    content_topic: ContentTopicTable;
    content_work: ContentWorkTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    section_id: true;
    topic_id: true;
    post_id: true;
    article_id: true;
  }
}
