import { describe, expect, it } from 'vitest';
import { CALENDAR_CELLS, calendarCells, daysInMonth, mondayIndex } from './calendar.ts';

const days = (cells: ReturnType<typeof calendarCells>) => cells.map((cell) => cell.day);

describe('the check-in calendar', () => {
  it('starts a month that begins on a Monday in the first cell', () => {
    expect(mondayIndex('2026-06-01')).toBe(0);
    const cells = calendarCells('2026-06', [], '2026-07-10');
    expect(cells).toHaveLength(CALENDAR_CELLS);
    expect(cells[0]).toMatchObject({ date: '2026-06-01', day: 1 });
    expect(cells[29]).toMatchObject({ date: '2026-06-30', day: 30 });
    expect(cells.slice(30).every((cell) => cell.date === null)).toBe(true);
  });

  it('puts the 1st of a month that begins on a Sunday in the seventh cell and uses six rows for 31 days', () => {
    expect(mondayIndex('2026-03-01')).toBe(6);
    const cells = calendarCells('2026-03', [], '2026-04-02');
    expect(days(cells).slice(0, 7)).toEqual([null, null, null, null, null, null, 1]);
    expect(cells[36]).toMatchObject({ date: '2026-03-31', day: 31 });
    expect(days(cells).slice(37)).toEqual([null, null, null, null, null]);
    expect(cells.filter((cell) => cell.date !== null)).toHaveLength(31);
  });

  it('gives February of a leap year 29 days', () => {
    expect(daysInMonth('2024-02')).toBe(29);
    expect(daysInMonth('2026-02')).toBe(28);
    const cells = calendarCells('2024-02', [], '2024-03-01');
    // 2024-02-01 was a Thursday.
    expect(days(cells).slice(0, 4)).toEqual([null, null, null, 1]);
    expect(cells.filter((cell) => cell.date !== null).map((cell) => cell.date)).toContain('2024-02-29');
    expect(cells[3 + 28]).toMatchObject({ date: '2024-02-29', day: 29 });
    expect(cells[3 + 29]!.date).toBeNull();
  });

  it('marks records, today and the past days of this month that can be made up', () => {
    const cells = calendarCells(
      '2026-11',
      [
        { date: '2026-11-02', isMakeUp: false },
        { date: '2026-11-03', isMakeUp: true },
        { date: '2026-11-24', isMakeUp: false },
      ],
      '2026-11-24',
    );
    const at = (date: string) => cells.find((cell) => cell.date === date)!;
    expect(cells[0]!.date).toBeNull();
    expect(at('2026-11-01')).toMatchObject({ state: 'none', isToday: false, canMakeUp: true });
    expect(at('2026-11-02')).toMatchObject({ state: 'checked', canMakeUp: false });
    expect(at('2026-11-03')).toMatchObject({ state: 'makeUp', canMakeUp: false });
    expect(at('2026-11-23')).toMatchObject({ state: 'none', canMakeUp: true });
    expect(at('2026-11-24')).toMatchObject({ state: 'checked', isToday: true, canMakeUp: false });
    expect(at('2026-11-25')).toMatchObject({ state: 'none', isToday: false, canMakeUp: false });
    expect(cells.filter((cell) => cell.isToday)).toHaveLength(1);
    // Today without a record cannot be made up either: it is checked in from the header.
    expect(calendarCells('2026-11', [], '2026-11-24').find((cell) => cell.isToday)).toMatchObject({
      canMakeUp: false,
    });
  });

  it('lets no day of another month be made up', () => {
    const cells = calendarCells('2026-10', [], '2026-11-24');
    expect(cells.some((cell) => cell.canMakeUp || cell.isToday)).toBe(false);
    expect(calendarCells('2026-11', [], '2026-11-01').some((cell) => cell.canMakeUp)).toBe(false);
  });
});
