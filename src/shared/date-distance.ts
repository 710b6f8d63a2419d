import { formatDistance, isValid } from 'date-fns';
import { zhCN } from 'date-fns/locale';

// zh-CN hedges whole hours, months and years ("大约 1 小时前"); the site shows the plain distance.
const ABOUT = /^大约\s*/;

/**
 * "3 天前", "1 小时前", "不到 1 分钟前"; a future date reads as date-fns words it ("3 天内").
 * Invalid input gives ''.
 */
export function timeAgo(date: Date | string | number, now: Date | number = Date.now()): string {
  const then = date instanceof Date ? date : new Date(date);
  if (!isValid(then) || !isValid(now)) return '';
  return formatDistance(then, now, { locale: zhCN, addSuffix: true }).replace(ABOUT, '');
}
