import { searchQuerySchema, type SearchQuery } from '../../shared/search/search.contract.ts';
import { RELATIVE_MATCH_DEFAULT, SEARCH_TYPES, type SearchType } from '../../shared/search/search-model.ts';

/** The tabs of the search page: games, light novels, producers, people and characters. */
export const SEARCH_TABS: readonly SearchType[] = SEARCH_TYPES;

/** What the search page shows for its address. */
export type SearchPageInput =
  { kind: 'prompt' } | { kind: 'invalid'; keyword: string; message: string } | { kind: 'search'; query: SearchQuery };

/**
 * Reads /search's query: a missing or blank keyword asks for one; a bad type, page or limit falls back
 * to its default; a keyword the rules refuse (too long, control characters) gives their message (a
 * message reference, translated by the page).
 */
export function readSearchParams(params: URLSearchParams): SearchPageInput {
  const keyword = params.get('keyword') ?? '';
  if (!keyword.trim()) return { kind: 'prompt' };
  const raw: Record<string, string> = { keyword };
  for (const name of ['type', 'page', 'limit', 'relative_match'] as const) {
    const value = params.get(name);
    if (value !== null) raw[name] = value;
  }
  let parsed = searchQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
    if (bad.has('keyword')) {
      const issue = parsed.error.issues.find((i) => i.path[0] === 'keyword');
      return { kind: 'invalid', keyword: keyword.trim(), message: issue?.message ?? '' };
    }
    for (const name of bad) delete raw[name];
    parsed = searchQuerySchema.safeParse(raw);
    if (!parsed.success) return { kind: 'prompt' };
  }
  return { kind: 'search', query: parsed.data };
}

/**
 * The address of a search page: default values are left out so links stay short. `relativeMatch` is
 * written only when it differs from the type's default.
 */
export function searchPageHref(keyword: string, type: SearchType, page = 1, relativeMatch?: boolean): string {
  const params = new URLSearchParams({ keyword });
  if (type !== 'galgame') params.set('type', type);
  if (relativeMatch !== undefined && relativeMatch !== RELATIVE_MATCH_DEFAULT[type])
    params.set('relative_match', String(relativeMatch));
  if (page > 1) params.set('page', String(page));
  return `/search?${params.toString()}`;
}

/** `text` cut into plain and matched parts, from [start, end) UTF-16 ranges (overlaps merged, out-of-range clipped). */
export function highlightParts(text: string, ranges: readonly [number, number][]): { text: string; mark: boolean }[] {
  const sorted = ranges
    .map(([start, end]) => [Math.max(0, start), Math.min(text.length, end)] as [number, number])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  const parts: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) parts.push({ text: text.slice(at, start), mark: false });
    parts.push({ text: text.slice(start, end), mark: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), mark: false });
  return parts;
}
