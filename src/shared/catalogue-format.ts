import { DOWNLOAD_LANGUAGES, type DownloadView, type GalgameCard } from './catalogue-model.ts';
import type { MessageKey, Translate } from './i18n/index.ts';
import { dateTimeFormat } from './i18n/intl.ts';

/** How catalogue values are shown: labels, titles, dates and sizes. Used by pages and islands alike. */

/** Families of values that have a label in the message catalogue (`galgame.<family>.<value>`). */
export type LabelFamily =
  'platform' | 'translation' | 'language' | 'producerRole' | 'staffRole' | 'characterRole' | 'relation' | 'playStatus';

/** The label of a value, or the value itself when the catalogue has none (imported data may bring new ones). */
export function labelOf(t: Translate, family: LabelFamily | 'entity.gender' | 'entity.kind', value: string): string {
  const key = family.startsWith('entity.') ? `${family}.${value}` : `galgame.${family}.${value}`;
  // A translator gives back the key itself for a key its catalogue lacks.
  const shown = t(key as MessageKey);
  return shown === key ? value : shown;
}

/** The title to show: the Chinese one, else the original. */
export function displayTitle(game: Pick<GalgameCard, 'title' | 'titleZh'>): string {
  return game.titleZh.trim() || game.title;
}

/** A name to show: the Chinese one, else the original. */
export function displayName(entity: { name: string; nameZh: string }): string {
  return entity.nameZh.trim() || entity.name;
}

const initialsOf = new Map<string, string>();

/** The first characters of a title, for a generated cover: two CJK characters or one short word. */
export function coverInitials(title: string): string {
  let initials = initialsOf.get(title);
  if (initials === undefined) {
    initials = findInitials(title);
    // Pages show the same games again and again; the kept titles stay a few thousand at most.
    if (initialsOf.size >= 5000) initialsOf.clear();
    initialsOf.set(title, initials);
  }
  return initials;
}

function findInitials(title: string): string {
  const text = title.replace(/[\s\p{P}\p{S}]+/gu, ' ').trim();
  if (!text) return '?';
  const first = [...text][0] ?? '?';
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(first)) {
    return [...text.replace(/\s+/g, '')].slice(0, 2).join('');
  }
  const word = text.split(' ')[0] ?? '';
  return [...word].slice(0, 2).join('').toUpperCase();
}

const RELEASE_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' };
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A release date for people: "2019 年 8 月 23 日" (locale aware), a partial date as it is, or TBD. */
export function formatReleaseDate(date: string | null, locale: string, t: Translate): string {
  if (!date) return t('galgame.tbd');
  const match = FULL_DATE.exec(date);
  if (!match) return date;
  const value = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(value.getTime())) return date;
  return dateTimeFormat(locale, RELEASE_DATE).format(value);
}

/** "7.8": one decimal, as rating badges show it. */
export const formatScore = (score: number) => score.toFixed(1);

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/**
 * A file size for people, in 1024 steps: 4218734592 → "3.9 GB", 734003200 → "700 MB". `decimals` 2 is
 * the editors' precision (a size typed as 3.93 GB reads 3.93 GB, so a review sees 3.93 → 3.95).
 */
export function formatFileSize(bytes: number | null, decimals: 1 | 2 = 1): string {
  if (bytes === null || !Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : decimals;
  const text = value.toFixed(digits);
  return `${digits ? text.replace(/\.?0+$/, '') : text} ${UNITS[unit]}`;
}

export interface DownloadGroup {
  language: string;
  downloads: DownloadView[];
}

/** Downloads grouped by language: 简体中文, 繁體中文, 日本語, English, then any other, each once. */
export function groupDownloads(downloads: readonly DownloadView[]): DownloadGroup[] {
  const order = (language: string) => {
    const index = (DOWNLOAD_LANGUAGES as readonly string[]).indexOf(language);
    return index === -1 ? DOWNLOAD_LANGUAGES.length : index;
  };
  const groups = new Map<string, DownloadView[]>();
  for (const download of downloads) groups.set(download.language, [...(groups.get(download.language) ?? []), download]);
  return [...groups]
    .map(([language, list]) => ({ language, downloads: list }))
    .sort((a, b) => order(a.language) - order(b.language) || a.language.localeCompare(b.language));
}

/** The /login address that comes back to `path` afterwards (spec §2.1 jumpTo). */
export const loginHref = (path: string) => `/login?jumpTo=${encodeURIComponent(path)}`;
