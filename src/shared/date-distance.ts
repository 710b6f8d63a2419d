import type { Locale as DateLocale } from 'date-fns';
import { formatDistance } from 'date-fns/formatDistance';
import { isValid } from 'date-fns/isValid';
import { enUS } from 'date-fns/locale/en-US';
import { zhCN } from 'date-fns/locale/zh-CN';
import { DEFAULT_LOCALE, type Locale } from './i18n/index.ts';

const dateLocales: Record<Locale, DateLocale> = { 'zh-CN': zhCN, en: enUS };

// date-fns hedges whole hours, months and years ("大约 1 小时前", "about 1 hour ago"); the site shows
// the plain distance.
const ABOUT = /^(大约\s*|about\s+)/;

/**
 * "3 天前", "1 小时前", "不到 1 分钟前" (en: "3 days ago", "1 hour ago", "less than a minute ago");
 * a future date reads as date-fns words it ("3 天内", "in 3 days"). Invalid input gives ''.
 */
export function timeAgo(
  date: Date | string | number,
  now: Date | number = Date.now(),
  locale: Locale = DEFAULT_LOCALE,
): string {
  const then = date instanceof Date ? date : new Date(date);
  if (!isValid(then) || !isValid(now)) return '';
  return formatDistance(then, now, { locale: dateLocales[locale], addSuffix: true }).replace(ABOUT, '');
}
