import { pageTags } from '../../server/http/page-cache-policy.ts';
import {
  ARTICLE_SLUG_MAX,
  COMMUNITY_PAGE_NUMBER_MAX,
  FEED_SORTS,
  FEED_TYPES,
  isArticleSlug,
  type FeedItem,
  type FeedSort,
  type FeedType,
  type SectionBrief,
  type TopicBrief,
} from '../../shared/community/community.ts';
import { icons, type IconName } from '../../shared/icons.ts';

/** Route and query helpers of the community pages: feed filters in the address, links, cache tags. */

/** Items of one page of a feed. */
export const FEED_PAGE_SIZE = 20;

/** What a feed shows, as the address says it (`?sort=…&type=…&page=…`). */
export interface FeedView {
  sort: FeedSort;
  type: FeedType;
  page: number;
}

export const DEFAULT_FEED_VIEW: FeedView = { sort: 'new', type: 'all', page: 1 };

/**
 * The feed view of an address. Anything unknown or malformed falls back to the default, so a typed or
 * stale address still shows a list instead of an error.
 */
export function parseFeedView(params: URLSearchParams): FeedView {
  const sort = params.get('sort');
  const type = params.get('type');
  const page = params.get('page');
  const pageNumber = page && /^[1-9]\d{0,5}$/.test(page) ? Number(page) : 1;
  return {
    sort: (FEED_SORTS as readonly string[]).includes(sort ?? '') ? (sort as FeedSort) : 'new',
    type: (FEED_TYPES as readonly string[]).includes(type ?? '') ? (type as FeedType) : 'all',
    page: pageNumber <= COMMUNITY_PAGE_NUMBER_MAX ? pageNumber : 1,
  };
}

/**
 * `path` with the feed view in its query; defaults are left out so links stay short. `anchor` names the
 * element to scroll to (the feed's heading on the front page, which starts below the fold).
 */
export function feedHref(path: string, view: Partial<FeedView>, anchor?: string): string {
  const params = new URLSearchParams();
  if (view.sort && view.sort !== 'new') params.set('sort', view.sort);
  if (view.type && view.type !== 'all') params.set('type', view.type);
  if (view.page && view.page > 1) params.set('page', String(view.page));
  const search = params.toString();
  return `${path}${search ? `?${search}` : ''}${anchor ? `#${anchor}` : ''}`;
}

/**
 * Where a page number past the end goes: the last page of the same feed (filters kept). Null when the
 * page exists, or when the feed is empty anyway (page 1 then shows the empty state).
 */
export function lastPageRedirect(
  path: string,
  view: FeedView,
  pagination: { page: number; total: number; totalPages: number },
): string | null {
  if (pagination.total === 0 || view.page <= pagination.totalPages) return null;
  return feedHref(path, { ...view, page: Math.max(1, pagination.totalPages) });
}

/** An article's route key: a decimal id or a slug; anything else is null (the page answers 404). */
export function parseArticleKey(raw: string | undefined): { id: number } | { slug: string } | null {
  if (!raw) return null;
  if (/^[1-9]\d{0,14}$/.test(raw)) return { id: Number(raw) };
  const slug = raw.toLowerCase();
  return slug === raw && slug.length <= ARTICLE_SLUG_MAX && isArticleSlug(slug) ? { slug } : null;
}

/** A section or topic icon from the sprite; names the sprite lacks fall back to `fallback`. */
export function iconOf(name: string, fallback: IconName): IconName {
  return Object.hasOwn(icons, name) ? (name as IconName) : fallback;
}

/** A section or topic colour when it is `#rrggbb`; otherwise null (the page's accent is used). */
export function colorOf(color: string): string | null {
  return /^#[0-9a-f]{6}$/i.test(color) ? color.toLowerCase() : null;
}

export const sectionPath = (id: number) => `/community/section/${id}`;
export const topicPath = (id: number) => `/community/topic/${id}`;
export const spacePath = (userId: number) => `/space/${userId}`;

/** The data a section or topic chip shows. */
function chipTags(section: SectionBrief | null, topics: readonly TopicBrief[]): string[] {
  return [
    ...(section ? [pageTags.section(section.id)] : []),
    ...topics.filter((topic) => topic.id > 0).map((topic) => pageTags.topic(topic.id)),
  ];
}

/** The data a list of posts and articles shows: which items are published, and each item's card. */
export function feedTags(items: readonly FeedItem[]): string[] {
  return [
    pageTags.community,
    ...items.flatMap((item) => [
      item.type === 'post' ? pageTags.post(item.id) : pageTags.article(item.id),
      ...chipTags(item.section, item.topics),
    ]),
  ];
}

/** The data a post or article page shows besides its comments: the item, its section, topics and works. */
export function contentTags(
  type: 'post' | 'article',
  item: {
    id: number;
    section: SectionBrief | null;
    topics: readonly TopicBrief[];
    works: readonly { type: string; id: number }[];
  },
): string[] {
  return [
    type === 'post' ? pageTags.post(item.id) : pageTags.article(item.id),
    pageTags.comments(type, item.id),
    ...chipTags(item.section, item.topics),
    ...item.works.filter((work) => work.type === 'galgame').map((work) => pageTags.galgame(work.id)),
  ];
}

/**
 * A CSS string literal of `text` (for a custom property read by `content:`): quotes, backslashes and
 * anything outside printable ASCII written as escapes, so no text can end the declaration.
 */
export function cssString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += code >= 0x20 && code < 0x7f && char !== '"' && char !== '\\' ? char : `\\${code.toString(16)} `;
  }
  return `${out}"`;
}

/** Text for an HTML attribute value in double quotes. */
export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
