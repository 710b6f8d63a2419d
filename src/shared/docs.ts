import type { Locale, MessageKey } from './i18n/index.ts';

export interface DocLink {
  slug: string;
  title: string;
  order: number;
}

export interface DocGroup {
  id: string;
  label: MessageKey;
  items: DocLink[];
}

const GROUP_ORDER: { id: string; label: MessageKey }[] = [
  { id: '', label: 'docs.group.general' },
  { id: 'guide', label: 'docs.group.guide' },
  { id: 'community', label: 'docs.group.community' },
  { id: 'creator', label: 'docs.group.creator' },
];

/** The URL of a docs entry: 'index' is /docs, 'a/b' is /docs/a/b. */
export function docHref(slug: string): string {
  return slug === 'index' ? '/docs' : `/docs/${slug}`;
}

/** Groups docs by their first path segment, in a fixed group order, each group sorted by `order`. */
export function groupDocs(docs: DocLink[]): DocGroup[] {
  const folderOf = (slug: string) => (slug.includes('/') ? (slug.split('/')[0] ?? '') : '');
  const known = new Set(GROUP_ORDER.map((g) => g.id));
  const groups = GROUP_ORDER.map((g) => ({ ...g, items: docs.filter((d) => folderOf(d.slug) === g.id) }));
  const others = [...new Set(docs.map((d) => folderOf(d.slug)).filter((f) => !known.has(f)))];
  for (const id of others)
    groups.push({ id, label: 'docs.group.general', items: docs.filter((d) => folderOf(d.slug) === id) });
  return groups
    .filter((g) => g.items.length > 0)
    .map((g) => ({ ...g, items: [...g.items].sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug)) }));
}

export interface ExcerptPart {
  text: string;
  mark: boolean;
}

/**
 * Splits a search excerpt ("…<mark>剧透</mark>…", entities escaped) into plain parts, so it is shown
 * as text with highlights and never as HTML.
 */
export function parseExcerpt(excerpt: string): ExcerptPart[] {
  const decode = (s: string) =>
    s
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;|&#x27;/g, "'")
      .replace(/&amp;/g, '&');
  const parts: ExcerptPart[] = [];
  const pattern = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  for (const match of excerpt.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: decode(excerpt.slice(last, match.index)), mark: false });
    parts.push({ text: decode(match[1] ?? ''), mark: true });
    last = match.index + match[0].length;
  }
  if (last < excerpt.length) parts.push({ text: decode(excerpt.slice(last)), mark: false });
  // Chinese is indexed per character, so a word arrives as neighbouring marks: join them.
  const merged: ExcerptPart[] = [];
  for (const part of parts) {
    if (part.text.length === 0) continue;
    const previous = merged.at(-1);
    if (previous && previous.mark === part.mark) previous.text += part.text;
    else merged.push({ ...part });
  }
  return merged;
}

export interface EntryText {
  title: string;
  description: string;
}

/** A content entry's frontmatter: text in zh-CN (the default locale), optionally translated per other locale. */
export type LocalisedEntry = EntryText & Partial<Record<Exclude<Locale, 'zh-CN'>, EntryText>>;

/** The title and description of a content entry in `locale`, falling back to the default locale's. */
export function entryText(data: LocalisedEntry, locale: Locale): EntryText {
  const translated = locale === 'zh-CN' ? undefined : data[locale];
  return translated ?? { title: data.title, description: data.description };
}
