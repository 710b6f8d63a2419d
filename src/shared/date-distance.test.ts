import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeAgo } from './date-distance.ts';

const now = new Date('2025-01-10T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

afterEach(() => {
  vi.useRealTimers();
});

describe('timeAgo', () => {
  it.each([
    [5, '不到 1 分钟前'],
    [45, '1 分钟前'],
    [90, '2 分钟前'],
    [10 * MINUTE, '10 分钟前'],
    [HOUR, '1 小时前'],
    [3 * HOUR, '3 小时前'],
    [DAY, '1 天前'],
    [3 * DAY, '3 天前'],
    [40 * DAY, '1 个月前'],
    [400 * DAY, '1 年前'],
    [800 * DAY, '2 年前'],
  ])('%i seconds ago reads %j', (seconds, expected) => {
    expect(timeAgo(ago(seconds), now)).toBe(expected);
  });

  it('never keeps the leading 大约', () => {
    for (const seconds of [HOUR, 5 * HOUR, 35 * DAY, 366 * DAY, -HOUR, -366 * DAY])
      expect(timeAgo(ago(seconds), now)).not.toMatch(/大约/);
  });

  it('words future dates as date-fns does', () => {
    expect(timeAgo(ago(-30), now)).toBe('1 分钟内');
    expect(timeAgo(ago(-HOUR), now)).toBe('1 小时内');
    expect(timeAgo(ago(-3 * DAY), now)).toBe('3 天内');
  });

  it('accepts ISO strings, timestamps and a numeric now', () => {
    expect(timeAgo('2025-01-07T12:00:00Z', now)).toBe('3 天前');
    expect(timeAgo(now.getTime() - 2 * HOUR * 1000, now.getTime())).toBe('2 小时前');
  });

  it('is the same moment for equal dates', () => {
    expect(timeAgo(now, now)).toBe('不到 1 分钟前');
  });

  it('measures from the current time by default', () => {
    vi.useFakeTimers();
    vi.setSystemTime(now);
    expect(timeAgo(ago(3 * DAY))).toBe('3 天前');
  });

  it.each([['not a date'], [''], [Number.NaN], [new Date('invalid')], [Infinity]])(
    'returns an empty string for %j',
    (input) => {
      expect(timeAgo(input, now)).toBe('');
    },
  );

  it('returns an empty string for an invalid now', () => {
    expect(timeAgo(now, Number.NaN)).toBe('');
    expect(timeAgo(now, new Date('x'))).toBe('');
  });

  it.each([
    [5, 'less than a minute ago'],
    [HOUR, '1 hour ago'],
    [3 * DAY, '3 days ago'],
    [40 * DAY, '1 month ago'],
    [400 * DAY, '1 year ago'],
    [-3 * DAY, 'in 3 days'],
  ])('%i seconds ago reads %j in English', (seconds, expected) => {
    expect(timeAgo(ago(seconds), now, 'en')).toBe(expected);
  });
});
