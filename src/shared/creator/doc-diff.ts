import { formatFileSize } from '../catalogue-format.ts';
import type { DownloadDoc } from './docs.ts';
import type { LinkNames } from './requests.contract.ts';

/**
 * How the diff views show a document's values (decision 028): lists as one readable entry per line with
 * the names of linked tags, people, producers, games and series, and long text compared line by line.
 * Pure, so the update-request pages and the editor's preview show the same thing.
 */

/** Translates a message key with parameters (the islands pass their `t`). */
export type Say = (key: string, params?: Record<string, string | number>) => string;

const NAME_OF: Record<string, keyof LinkNames> = {
  tagId: 'tag',
  producerId: 'producer',
  personId: 'person',
  voicePersonId: 'person',
  characterId: 'character',
  galgameId: 'galgame',
  lightnovelId: 'lightnovel',
};

/** A linked id as "name (#id)", or "#id" when its name is not known. */
export function linkLabel(names: LinkNames | null, key: string, id: number): string {
  const kind = NAME_OF[key];
  const name = kind ? names?.[kind][String(id)] : undefined;
  return name ? `${name} (#${id})` : `#${id}`;
}

/** One entry of a list of links or prices as a line: its link's name first, then its other values. */
function entryLine(entry: unknown, names: LinkNames | null): string {
  if (entry === null || typeof entry !== 'object') return String(entry);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
    if (value === null || value === '' || value === undefined) continue;
    if (NAME_OF[key] && typeof value === 'number') {
      parts.push(key === 'voicePersonId' ? `CV ${linkLabel(names, key, value)}` : linkLabel(names, key, value));
    } else if (key === 'spoiler' && typeof value === 'number') {
      parts.push(`spoiler ${value}`);
    } else parts.push(String(value));
  }
  return parts.join(' · ');
}

/**
 * A value as lines to show: a list one entry a line, text by its lines, a yes/no for booleans, a linked
 * id by its name; an empty value is no line at all.
 */
export function valueLines(field: string, value: unknown, names: LinkNames | null, say: Say): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (field === 'downloads' && Array.isArray(value))
    return (value as DownloadDoc[]).flatMap((d) => downloadLines(d, say));
  if (Array.isArray(value)) return value.map((entry) => entryLine(entry, names));
  if (typeof value === 'boolean') return [say(value ? 'revision.detail.yes' : 'revision.detail.no')];
  if (typeof value === 'number' && NAME_OF[field]) return [linkLabel(names, field, value)];
  if (typeof value === 'string') return value.split('\n');
  return [JSON.stringify(value)];
}

/** A label from the catalogue's messages, or the value itself when there is none. */
function labelLine(say: Say, family: string, value: string): string {
  const key = `galgame.${family}.${value}`;
  const shown = say(key);
  return shown === key ? value : shown;
}

/** A download as lines: the file (language, platform, translation, size, note), then a line per link. */
function downloadLines(d: DownloadDoc, say: Say): string[] {
  const head = [
    labelLine(say, 'language', d.language),
    labelLine(say, 'platform', d.platform),
    labelLine(say, 'translation', d.translationType),
    d.translationGroup,
    formatFileSize(d.sizeBytes, 2),
    d.note,
  ].filter(Boolean);
  const links = d.links.map((l) =>
    ['  ↳', l.label, l.url, l.password ? `${say('revision.field.linkPassword')} ${l.password}` : '']
      .filter(Boolean)
      .join(' '),
  );
  return [head.join(' · '), ...links];
}

export type LineOp = { op: 'same' | 'removed' | 'added'; line: string };

/** Lines compared beyond this many on each side are shown as all removed and all added. */
const LINE_DIFF_MAX = 2000;

/** The lines of `before` and `after` as kept, removed and added (longest common subsequence). */
export function lineDiff(before: readonly string[], after: readonly string[]): LineOp[] {
  if (before.length > LINE_DIFF_MAX || after.length > LINE_DIFF_MAX)
    return [
      ...before.map((line) => ({ op: 'removed' as const, line })),
      ...after.map((line) => ({ op: 'added' as const, line })),
    ];
  const n = before.length;
  const m = after.length;
  // lengths[i][j]: the longest common subsequence of before[i..] and after[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lengths[i]![j] =
        before[i] === after[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const ops: LineOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      ops.push({ op: 'same', line: before[i]! });
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) ops.push({ op: 'removed', line: before[i++]! });
    else ops.push({ op: 'added', line: after[j++]! });
  }
  while (i < n) ops.push({ op: 'removed', line: before[i++]! });
  while (j < m) ops.push({ op: 'added', line: after[j++]! });
  return ops;
}

/** Whether a field is long text shown as a line diff (rather than its values side by side). */
export const isLongText = (before: unknown, after: unknown): boolean =>
  typeof before === 'string' &&
  typeof after === 'string' &&
  (before.includes('\n') || after.includes('\n') || before.length > 120 || after.length > 120);
