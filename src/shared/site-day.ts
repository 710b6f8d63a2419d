/**
 * The site's calendar. Every day the product counts or compares (release dates, "today" on the release
 * calendar, the year filter, check-in, trending) is a day in the site's home time zone, never the
 * server's local day or the UTC day: at 07:30 in Shanghai it is still yesterday in UTC.
 *
 * A site date is `YYYY-MM-DD`; comparing two of them as strings compares the days.
 */

export const SITE_TIME_ZONE = 'Asia/Shanghai';

/** `YYYY-MM-DD`, a calendar day in the site's time zone. */
export type SiteDate = string;

const DAY_MS = 86_400_000;
const SITE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const dateParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: SITE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: SITE_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

function toInstant(value: Date | number | string): Date {
  const instant = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not a point in time: ${String(value)}`);
  return instant;
}

// The last minute asked for and its site date: pages ask for "today" several times per render, and a
// day always turns on a whole minute.
let lastMinute = Number.NaN;
let lastDate: SiteDate = '';

/** The site date of an instant (a Date, epoch milliseconds or an ISO-8601 timestamp). */
export function siteDateOf(instant: Date | number | string): SiteDate {
  const minute = Math.floor(toInstant(instant).getTime() / 60_000);
  if (minute !== lastMinute) {
    lastDate = dateParts.format(minute * 60_000);
    lastMinute = minute;
  }
  return lastDate;
}

/** Today's site date. */
export const siteToday = (now: Date | number = Date.now()): SiteDate => siteDateOf(now);

/** The site's current year (the footer's copyright, the newest year the catalogue filters offer). */
export const siteYear = (now: Date | number = Date.now()): number => Number(siteToday(now).slice(0, 4));

/** Year, month (1–12) and day of a valid site date; throws on anything else. */
export function parseSiteDate(date: SiteDate): { year: number; month: number; day: number } {
  const match = SITE_DATE.exec(date);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (!match || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`Not a date (YYYY-MM-DD): ${date}`);
  }
  return { year, month, day };
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isSiteDate(value: string): boolean {
  try {
    parseSiteDate(value);
    return true;
  } catch {
    return false;
  }
}

/** The date as a UTC midnight, the arithmetic base: whole days apart stay whole days apart. */
const utcMidnight = (date: SiteDate) => {
  const { year, month, day } = parseSiteDate(date);
  return Date.UTC(year, month - 1, day);
};

/** How far the site's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(ms: number): number {
  const parts = Object.fromEntries(wallClock.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The first instant of a site day (its 00:00 in the site's time zone). */
export function siteDayStart(date: SiteDate): Date {
  const midnight = utcMidnight(date);
  // Twice, so an offset that changes around that midnight (old daylight-saving rules) is still right.
  const guess = midnight - offsetAt(midnight);
  return new Date(midnight - offsetAt(guess));
}

/** The first instant after a site day (the next day's start): a day is `[siteDayStart, siteDayEnd)`. */
export const siteDayEnd = (date: SiteDate): Date => siteDayStart(addDays(date, 1));

/** The date `days` days after (negative: before) a site date. */
export function addDays(date: SiteDate, days: number): SiteDate {
  return new Date(utcMidnight(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from one site date to another: 1 from today to tomorrow, negative when `to` is earlier. */
export function daysBetween(from: SiteDate, to: SiteDate): number {
  return Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS);
}

/** The first and last date of a month (`YYYY-MM`), for range queries on date columns. */
export function monthRange(month: string): { first: SiteDate; last: SiteDate } {
  const first = `${month}-01`;
  const { year, month: m } = parseSiteDate(first);
  const last = new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
  return { first, last };
}
