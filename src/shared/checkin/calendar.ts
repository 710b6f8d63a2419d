import { addDays, parseSiteDate, type SiteDate } from '../site-day.ts';
import type { CheckInRecord } from './checkin-model.ts';

/** Spec §2.4, §9: the check-in calendar is a 6 × 7 grid, Monday first. */
export const CALENDAR_CELLS = 42;
export const CALENDAR_WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type CalendarWeekday = (typeof CALENDAR_WEEKDAYS)[number];

export type CalendarDayState = 'checked' | 'makeUp' | 'none';

/** One cell of the grid: empty (a day of another month) or a day of the month shown. */
export type CalendarCell =
  | { date: null; day: null; state: 'none'; isToday: false; canMakeUp: false }
  | { date: SiteDate; day: number; state: CalendarDayState; isToday: boolean; canMakeUp: boolean };

const EMPTY: CalendarCell = { date: null, day: null, state: 'none', isToday: false, canMakeUp: false };

/** `YYYY-MM` of a site date. */
export const monthOf = (date: SiteDate): string => date.slice(0, 7);

/** 0 for Monday … 6 for Sunday. */
export function mondayIndex(date: SiteDate): number {
  const { year, month, day } = parseSiteDate(date);
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

/** How many days the month (`YYYY-MM`) has. */
export function daysInMonth(month: string): number {
  const { year, month: m } = parseSiteDate(`${month}-01`);
  return new Date(Date.UTC(year, m, 0)).getUTCDate();
}

/**
 * The 42 cells of a month (`YYYY-MM`), Monday first; cells before the 1st and after the last day are
 * empty. A day with a record is checked or made up; a past day of the current month without a record
 * (`today` is the site's today) can be made up; today and later days cannot.
 */
export function calendarCells(month: string, records: readonly CheckInRecord[], today: SiteDate): CalendarCell[] {
  const first = `${month}-01`;
  const lead = mondayIndex(first);
  const length = daysInMonth(month);
  const byDate = new Map(records.map((record) => [record.date, record]));
  const current = monthOf(today) === month;
  const cells: CalendarCell[] = [];
  for (let index = 0; index < CALENDAR_CELLS; index++) {
    const day = index - lead + 1;
    if (day < 1 || day > length) {
      cells.push(EMPTY);
      continue;
    }
    const date = addDays(first, day - 1);
    const record = byDate.get(date);
    const state: CalendarDayState = record ? (record.isMakeUp ? 'makeUp' : 'checked') : 'none';
    cells.push({ date, day, state, isToday: date === today, canMakeUp: current && !record && date < today });
  }
  return cells;
}
