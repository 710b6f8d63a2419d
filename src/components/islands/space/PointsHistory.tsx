import { useStore } from '@nanostores/react';
import { useEffect, useMemo } from 'react';
import type { PointEntry } from '../../../shared/checkin/checkin-model.ts';
import type { Translate } from '../../../shared/i18n/index.ts';
import { SITE_TIME_ZONE } from '../../../shared/site-day.ts';
import { pointHistory } from '../../../stores/points-history.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

/** What a ledger row is about, in words: 签到 2026-11-24, 补签 2026-11-20, 初始余额, 系统发放. */
export function reasonText(t: Translate, entry: Pick<PointEntry, 'reason' | 'reference'>): string {
  switch (entry.reason) {
    case 'check_in':
      return t('space.points.reason.check_in', { date: entry.reference ?? '' }).trim();
    case 'make_up':
      return t('space.points.reason.make_up', { date: entry.reference ?? '' }).trim();
    case 'opening':
      return t('space.points.reason.opening');
    case 'grant':
      return t('space.points.reason.grant');
  }
}

/** The reason, its date kept on one line (a narrow column wraps before it, never inside it). */
function Reason({ t, entry }: { t: Translate; entry: Pick<PointEntry, 'reason' | 'reference'> }) {
  const text = reasonText(t, entry);
  const at = entry.reference ? text.indexOf(entry.reference) : -1;
  if (!entry.reference || at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <span className="whitespace-nowrap">{entry.reference}</span>
      {text.slice(at + entry.reference.length)}
    </>
  );
}

const signed = (amount: number) => (amount > 0 ? `+${amount}` : amount < 0 ? `−${Math.abs(amount)}` : '0');

/** The owner's HikariPoint ledger on /space/{id}/setting/points: when, how much, why, and the balance after. */
function PointsHistory() {
  const t = useT();
  const locale = useLocale();
  const state = useStore(pointHistory.$history);
  useEffect(() => void pointHistory.load(1), []);
  const when = useMemo(
    () => ({
      date: new Intl.DateTimeFormat(locale, {
        timeZone: SITE_TIME_ZONE,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }),
      time: new Intl.DateTimeFormat(locale, { timeZone: SITE_TIME_ZONE, timeStyle: 'short' }),
    }),
    [locale],
  );

  const { data, loading, error } = state;
  if (!data) {
    return error ? (
      <p className="hk-card p-6 text-sm text-red-600 dark:text-red-400" role="alert">
        {t('space.points.loadFailed', { message: error })}
      </p>
    ) : (
      <p className="hk-card p-6 text-sm text-zinc-500 dark:text-zinc-400" role="status">
        {t('space.points.loading')}
      </p>
    );
  }
  const { page, totalPages, total } = data.pagination;
  const go = (next: number) => void pointHistory.load(next);

  return (
    <div className="flex flex-col gap-4" data-testid="points-history">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('space.points.balance')}{' '}
          <strong className="text-2xl font-semibold text-accent tabular-nums" data-testid="points-balance">
            {data.hikariPoint}
          </strong>{' '}
          HikariPoint
        </p>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('space.points.total', { count: total })}</p>
      </div>
      {error && (
        <p className="text-sm text-red-600 dark:text-red-400" role="alert">
          {t('space.points.loadFailed', { message: error })}
        </p>
      )}
      {data.items.length === 0 ? (
        <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('space.points.empty')}</p>
      ) : (
        <div className="-mx-2 overflow-x-auto sm:mx-0">
          <table className="w-full text-left text-sm" aria-busy={loading || undefined}>
            <caption className="sr-only">{t('space.points.title')}</caption>
            <thead>
              <tr className="border-b border-zinc-200 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
                <th scope="col" className="px-2 py-2 font-medium whitespace-nowrap sm:px-4">
                  {t('space.points.date')}
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium whitespace-nowrap sm:px-4">
                  {t('space.points.change')}
                </th>
                <th scope="col" className="px-2 py-2 font-medium whitespace-nowrap sm:px-4">
                  {t('space.points.reason')}
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium whitespace-nowrap sm:px-4">
                  {t('space.points.balanceAfter')}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((entry) => (
                <tr
                  key={entry._id}
                  className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/70"
                  data-testid="points-entry"
                  data-reason={entry.reason}
                >
                  <td className="px-2 py-2.5 text-zinc-600 sm:px-4 sm:whitespace-nowrap tabular-nums dark:text-zinc-400">
                    <time dateTime={entry.createdAt}>
                      {/* Date over time on a phone, side by side from `sm`. */}
                      <span className="block sm:inline">{when.date.format(new Date(entry.createdAt))}</span>{' '}
                      <span className="text-xs sm:text-sm">{when.time.format(new Date(entry.createdAt))}</span>
                    </time>
                  </td>
                  <td
                    className={`px-2 py-2.5 text-right font-semibold whitespace-nowrap sm:px-4 tabular-nums ${
                      entry.amount > 0
                        ? 'text-emerald-700 dark:text-emerald-400'
                        : entry.amount < 0
                          ? 'text-rose-700 dark:text-rose-400'
                          : 'text-zinc-600 dark:text-zinc-400'
                    }`}
                    data-testid="points-amount"
                  >
                    {signed(entry.amount)}
                  </td>
                  <td
                    className="px-2 py-2.5 text-zinc-800 sm:px-4 sm:whitespace-nowrap dark:text-zinc-200"
                    data-testid="points-reason"
                  >
                    <Reason t={t} entry={entry} />
                  </td>
                  <td className="px-2 py-2.5 text-right whitespace-nowrap text-zinc-700 sm:px-4 tabular-nums dark:text-zinc-300">
                    {entry.balanceAfter}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {totalPages > 1 && (
        <nav aria-label={t('space.points.pages')} className="flex items-center justify-center gap-3 text-sm">
          <button
            type="button"
            disabled={page <= 1 || loading}
            onClick={() => go(page - 1)}
            className="hk-btn hk-btn-ghost"
          >
            {t('space.points.previous')}
          </button>
          <span aria-current="page" className="tabular-nums">
            {t('space.points.pageOf', { page, pages: totalPages })}
          </span>
          <button
            type="button"
            disabled={page >= totalPages || loading}
            onClick={() => go(page + 1)}
            className="hk-btn hk-btn-ghost"
          >
            {t('space.points.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

export default withLocale(PointsHistory);
