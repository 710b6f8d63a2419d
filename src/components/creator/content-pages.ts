import type { ContentType } from '../../shared/community/community.ts';
import type { MessageKey } from '../../shared/i18n/index.ts';

/** The item an editor page opens: `?id=` when it is a plain positive number, else none (a new one). */
export function editingId(url: URL): number | null {
  const raw = url.searchParams.get('id');
  return raw !== null && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null;
}

/** `{type}` of /create/content/draft/{type} and /manage/{type}: `home` is both kinds. */
export const CONTENT_LIST_TYPES = ['home', 'post', 'article'] as const;
export type ContentListType = (typeof CONTENT_LIST_TYPES)[number];

export function contentListType(raw: string | undefined): ContentListType | null {
  return (CONTENT_LIST_TYPES as readonly string[]).includes(raw ?? '') ? (raw as ContentListType) : null;
}

export const contentTypeOf = (type: ContentListType): ContentType | null => (type === 'home' ? null : type);

export const CONTENT_LIST_TABS: readonly { type: ContentListType; label: MessageKey }[] = [
  { type: 'home', label: 'editor.tab.all' },
  { type: 'post', label: 'editor.tab.post' },
  { type: 'article', label: 'editor.tab.article' },
];
