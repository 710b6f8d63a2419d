import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef } from 'react';
import { CALENDAR_WEEKDAYS, calendarCells, type CalendarCell } from '../../../shared/checkin/calendar.ts';
import type { CheckIn } from '../../../stores/checkin.ts';
import { Icon } from '../ui/Icon.tsx';
import { Modal } from '../ui/Modal.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

interface CheckInCalendarProps {
  open: boolean;
  onClose: () => void;
  store: CheckIn;
  /** The member's HikariPoint history page. */
  historyHref: string;
}

const ROWS = 6;

/** "2026年11月" / "November 2026" for a `YYYY-MM` month. */
function monthTitle(month: string, locale: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year!, m! - 1, 1)),
  );
}

const cellBase = 'relative mx-auto flex size-9 flex-col items-center justify-center rounded-lg text-sm tabular-nums';

function dayClass(cell: CalendarCell): string {
  const today = cell.isToday ? ' ring-2 ring-accent ring-offset-1 ring-offset-white dark:ring-offset-zinc-900' : '';
  if (cell.state === 'checked') return `${cellBase} bg-accent-strong font-semibold text-on-accent${today}`;
  if (cell.state === 'makeUp') {
    return `${cellBase} bg-amber-100 font-semibold text-amber-900 dark:bg-amber-400/20 dark:text-amber-200${today}`;
  }
  return `${cellBase} text-zinc-700 dark:text-zinc-300${today}`;
}

/** One day of the grid: a button only when it can be made up; otherwise text with its state. */
function Day({ cell, onMakeUp, busy }: { cell: CalendarCell; onMakeUp: (date: string) => void; busy: boolean }) {
  const t = useT();
  if (cell.date === null) return <span className={cellBase} aria-hidden="true" />;
  const states = [
    cell.state === 'checked' && t('checkIn.legend.checked'),
    cell.state === 'makeUp' && t('checkIn.legend.makeUp'),
    cell.isToday && t('checkIn.legend.today'),
  ].filter(Boolean);
  if (cell.canMakeUp) {
    return (
      <button
        type="button"
        className={`${dayClass(cell)} cursor-pointer border border-dashed border-zinc-300 hover:border-accent hover:bg-primary-50 hover:text-accent focus-visible:outline-2 focus-visible:outline-focus disabled:cursor-progress dark:border-zinc-600 dark:hover:bg-primary-900/40`}
        aria-label={t('checkIn.day.makeUp', { date: cell.date })}
        title={t('checkIn.day.makeUp', { date: cell.date })}
        aria-disabled={busy || undefined}
        onClick={() => !busy && onMakeUp(cell.date!)}
        data-date={cell.date}
        data-state="can-make-up"
      >
        {cell.day}
      </button>
    );
  }
  return (
    <span
      className={dayClass(cell)}
      // Focus lands here after a make-up replaces the button the member pressed.
      tabIndex={-1}
      data-date={cell.date}
      data-state={cell.state}
      data-today={cell.isToday || undefined}
    >
      <span aria-hidden={states.length > 0 || undefined} className={cell.state === 'makeUp' ? 'leading-4' : undefined}>
        {cell.day}
      </span>
      {cell.state === 'makeUp' && (
        <span aria-hidden="true" className="text-[9px] leading-none font-medium">
          {t('checkIn.legend.makeUp')}
        </span>
      )}
      {states.length > 0 && <span className="sr-only">{`${cell.day} ${states.join(' ')}`}</span>}
    </span>
  );
}

function Legend() {
  const t = useT();
  const swatch = 'inline-block size-3 rounded';
  return (
    <ul
      aria-label={t('checkIn.legend')}
      className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400"
    >
      <li className="flex items-center gap-1.5">
        <span className={`${swatch} bg-accent-strong`} aria-hidden="true" />
        {t('checkIn.legend.checked')}
      </li>
      <li className="flex items-center gap-1.5">
        <span
          className={`${swatch} bg-amber-100 ring-1 ring-amber-300 dark:bg-amber-400/20 dark:ring-amber-400/40`}
          aria-hidden="true"
        />
        {t('checkIn.legend.makeUp')}
      </li>
      <li className="flex items-center gap-1.5">
        <span className={`${swatch} ring-2 ring-accent`} aria-hidden="true" />
        {t('checkIn.legend.today')}
      </li>
    </ul>
  );
}

/**
 * The check-in calendar (spec §2.4, §4, §5): titled with the current streak, this month's 42 cells
 * Monday first, a legend, the balance and the next make-up's cost. A past day of this month without a
 * record is a button that makes it up after confirmation; any other cell does nothing.
 */
export function CheckInCalendar({ open, onClose, store, historyHref }: CheckInCalendarProps) {
  const t = useT();
  const locale = useLocale();
  const status = useStore(store.$status);
  const data = useStore(store.$calendar);
  const loading = useStore(store.$calendarLoading);
  const error = useStore(store.$calendarError);
  const busy = useStore(store.$busy);

  useEffect(() => {
    if (open) void store.loadCalendar();
  }, [open, store]);

  const grid = useRef<HTMLTableElement>(null);
  // The pressed day becomes text after a make-up: focus goes to it rather than to nowhere.
  const makeUp = async (date: string) => {
    const outcome = await store.makeUp(date);
    if (outcome.ok) grid.current?.querySelector<HTMLElement>(`[data-date="${date}"]`)?.focus();
  };
  const cells = useMemo(() => (data ? calendarCells(data.month, data.records, data.detail.today) : []), [data]);
  const streak = data?.detail.checkInStreak ?? status?.checkInStreak ?? 0;
  const detail = data?.detail;
  const usedUp = detail ? detail.makeUpCount >= detail.makeUpLimit : false;

  return (
    <Modal open={open} onClose={onClose} title={t('checkIn.title', { count: streak })}>
      <div className="flex flex-col gap-4 pb-2" data-testid="check-in-calendar">
        {!data && error ? (
          <div className="flex flex-col items-start gap-3 py-6" role="alert">
            <p className="text-sm text-red-600 dark:text-red-400">{t('checkIn.loadFailed', { message: error })}</p>
            <button type="button" className="hk-btn hk-btn-ghost" onClick={() => void store.loadCalendar()}>
              {t('checkIn.retry')}
            </button>
          </div>
        ) : !data ? (
          <p className="py-10 text-center text-sm text-zinc-500 dark:text-zinc-400" role="status">
            {t('checkIn.loading')}
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="text-lg font-semibold text-zinc-900 dark:text-zinc-100" data-testid="check-in-month">
                {monthTitle(data.month, locale)}
              </h3>
              <span className="text-xs text-zinc-500 dark:text-zinc-400">
                {t('checkIn.longest', { count: data.detail.longestCheckInStreak })}
              </span>
            </div>
            <table
              ref={grid}
              className="w-full table-fixed border-separate border-spacing-y-1"
              aria-busy={loading || busy || undefined}
            >
              <caption className="sr-only">{monthTitle(data.month, locale)}</caption>
              <thead>
                <tr>
                  {CALENDAR_WEEKDAYS.map((day) => (
                    <th
                      key={day}
                      scope="col"
                      className="pb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400"
                      data-testid="check-in-weekday"
                    >
                      {t(`checkIn.weekday.${day}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: ROWS }, (_, row) => (
                  <tr key={row}>
                    {cells.slice(row * 7, row * 7 + 7).map((cell, column) => (
                      <td
                        key={cell.date ?? `empty-${row}-${column}`}
                        className="p-0 text-center"
                        data-testid="check-in-cell"
                      >
                        <Day
                          cell={usedUp ? { ...cell, canMakeUp: false } : cell}
                          busy={busy}
                          onMakeUp={(date) => void makeUp(date)}
                        />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <Legend />
            <div className="flex flex-col gap-1 rounded-xl bg-zinc-50 px-3 py-2.5 text-sm text-zinc-700 dark:bg-zinc-800/60 dark:text-zinc-300">
              <p className="font-medium text-zinc-900 dark:text-zinc-100" data-testid="check-in-balance">
                {t('checkIn.balance', { points: data.detail.hikariPoint })}
              </p>
              <p data-testid="check-in-make-ups">
                {t('checkIn.makeUps', { used: data.detail.makeUpCount, limit: data.detail.makeUpLimit })}
                {' · '}
                {usedUp ? t('checkIn.makeUpUsedUp') : t('checkIn.makeUpCost', { cost: data.detail.makeUpCost })}
              </p>
              {!usedUp && <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('checkIn.makeUpHint')}</p>}
            </div>
            <a href={historyHref} className="hk-link inline-flex items-center gap-1 self-start text-sm">
              <Icon name="list" className="size-4" />
              {t('checkIn.history')}
            </a>
          </>
        )}
      </div>
    </Modal>
  );
}
