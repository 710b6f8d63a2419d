import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isSiteDate,
  monthRange,
  parseSiteDate,
  siteDateOf,
  siteDayEnd,
  siteDayStart,
  siteToday,
  siteYear,
} from './site-day.ts';

describe('the site day (Asia/Shanghai)', () => {
  it('turns over at 16:00 UTC, not at UTC midnight', () => {
    expect(siteDateOf(new Date('2026-11-30T15:59:59.999Z'))).toBe('2026-11-30');
    expect(siteDateOf(new Date('2026-11-30T16:00:00.000Z'))).toBe('2026-12-01');
    // Just after UTC midnight it has long been the same day in Shanghai.
    expect(siteDateOf('2026-12-01T00:00:01Z')).toBe('2026-12-01');
    expect(siteDateOf(Date.parse('2026-11-30T23:59:59Z'))).toBe('2026-12-01');
  });

  it('reads today and the year from the given clock', () => {
    expect(siteToday(new Date('2026-12-31T16:30:00Z'))).toBe('2027-01-01');
    expect(siteYear(new Date('2026-12-31T16:30:00Z'))).toBe(2027);
    expect(siteYear(new Date('2026-12-31T15:30:00Z'))).toBe(2026);
  });

  it('starts a day at 00:00 Shanghai time and ends it at the next start', () => {
    expect(siteDayStart('2026-12-01').toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(siteDayEnd('2026-12-01').toISOString()).toBe('2026-12-01T16:00:00.000Z');
    expect(siteDayEnd('2026-12-31').toISOString()).toBe('2026-12-31T16:00:00.000Z');
    // The start and the last millisecond belong to the day; the end belongs to the next one.
    const start = siteDayStart('2026-12-01');
    expect(siteDateOf(start)).toBe('2026-12-01');
    expect(siteDateOf(new Date(siteDayEnd('2026-12-01').getTime() - 1))).toBe('2026-12-01');
    expect(siteDateOf(siteDayEnd('2026-12-01'))).toBe('2026-12-02');
  });

  it('follows the daylight-saving time China kept until 1991', () => {
    // 1990-07-01 was on UTC+9 in Shanghai.
    expect(siteDayStart('1990-07-01').toISOString()).toBe('1990-06-30T15:00:00.000Z');
    expect(siteDateOf(siteDayStart('1990-07-01'))).toBe('1990-07-01');
  });

  it('counts whole days between dates, across months, years and leap days', () => {
    expect(daysBetween('2026-11-30', '2026-12-01')).toBe(1);
    expect(daysBetween('2026-12-01', '2026-11-30')).toBe(-1);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
    expect(daysBetween('2026-05-05', '2026-05-05')).toBe(0);
  });

  it('counts the days of two instants on either side of UTC midnight by the site day', () => {
    const evening = siteDateOf('2026-11-30T15:00:00Z'); // 23:00 in Shanghai
    const lateNight = siteDateOf('2026-11-30T17:00:00Z'); // 01:00 the next day, same UTC day
    expect(daysBetween(evening, lateNight)).toBe(1);
    const morning = siteDateOf('2026-12-01T01:00:00Z'); // 09:00, a new UTC day but the same site day
    expect(daysBetween(lateNight, morning)).toBe(0);
  });

  it('adds days and gives the bounds of a month', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(monthRange('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthRange('2026-11')).toEqual({ first: '2026-11-01', last: '2026-11-30' });
  });

  it('accepts only real dates', () => {
    expect(parseSiteDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', '20260101', '', '2026-00-10']) {
      expect(isSiteDate(bad)).toBe(false);
      expect(() => parseSiteDate(bad)).toThrow(RangeError);
    }
    expect(() => siteDateOf('yesterday')).toThrow(RangeError);
  });
});
