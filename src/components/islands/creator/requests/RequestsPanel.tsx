import { useEffect, useState } from 'react';
import { EDIT_TYPES, REQUEST_STATUSES, type RequestStatus } from '../../../../shared/creator/creator-model.ts';
import type { RequestPage, RequestSummary } from '../../../../shared/creator/requests.contract.ts';
import { timeAgo } from '../../../../shared/date-distance.ts';
import type { MessageKey } from '../../../../shared/i18n/index.ts';
import { listRequests, type RequestFilter, type RequestListMode } from '../../../../stores/update-requests.ts';
import { Icon } from '../../ui/Icon.tsx';
import { withLocale } from '../../ui/locale-context.tsx';
import { useLocale, useT } from '../../ui/use-t.ts';
import RequestDetailView from './RequestDetailView.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; page: RequestPage };

export const STATUS_STYLE: Record<RequestStatus, string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  approved: 'bg-primary/15 text-accent',
  rejected: 'bg-rose-100 text-rose-800 dark:bg-rose-900/40 dark:text-rose-200',
  changes_requested: 'bg-sky-100 text-sky-800 dark:bg-sky-900/40 dark:text-sky-200',
  withdrawn: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

const selectClass =
  'h-9 rounded-md border border-zinc-300 bg-white px-2 text-sm text-zinc-800 focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-200';

/**
 * /create/update-request/requests (mode 'mine': the member's own requests) and /audits (mode 'queue':
 * the editors' review queue, pending first by age): filters, pages, and each request opened in place
 * with its diff and actions.
 */
function RequestsPanel({ mode }: { mode: RequestListMode }) {
  const t = useT();
  const locale = useLocale();
  const [filter, setFilter] = useState<RequestFilter>({
    status: mode === 'queue' ? 'pending' : '',
    type: '',
    page: 1,
  });
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [openId, setOpenId] = useState<number | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    setLoaded((was) => (was.state === 'ready' ? was : { state: 'loading' }));
    listRequests(mode, filter).then(
      (page) => current && setLoaded({ state: 'ready', page }),
      (error: unknown) =>
        current && setLoaded({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [mode, filter, version]);

  const fieldNames = (item: RequestSummary) =>
    item.changes
      .slice(0, 6)
      .map((field) => t(`revision.field.${field}` as MessageKey))
      .join(locale === 'zh-CN' ? '、' : ', ') + (item.changes.length > 6 ? ' …' : '');

  return (
    <section className="hk-card overflow-hidden" data-testid={`requests-${mode}`}>
      <div className="flex flex-wrap items-end gap-3 border-b border-zinc-200 p-3 dark:border-zinc-700">
        <label className="flex flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400">
          {t('revision.filter.status')}
          <select
            className={selectClass}
            value={filter.status}
            onChange={(event) =>
              setFilter({ ...filter, status: event.target.value as RequestFilter['status'], page: 1 })
            }
          >
            {mode === 'mine' && <option value="">{t('revision.filter.all')}</option>}
            {REQUEST_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`revision.status.${status}`)}
              </option>
            ))}
          </select>
        </label>
        {mode === 'queue' && (
          <label className="flex flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400">
            {t('revision.filter.type')}
            <select
              className={selectClass}
              value={filter.type}
              onChange={(event) => setFilter({ ...filter, type: event.target.value as RequestFilter['type'], page: 1 })}
            >
              <option value="">{t('revision.filter.all')}</option>
              {EDIT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`revision.type.${type}`)}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {loaded.state === 'failed' ? (
        <div role="alert" className="flex flex-col items-center gap-3 p-8 text-center text-sm">
          <p className="text-zinc-700 dark:text-zinc-300">
            {t('revision.list.loadFailed', { message: loaded.message })}
          </p>
          <button type="button" className="hk-btn hk-btn-primary" onClick={() => setVersion((v) => v + 1)}>
            {t('revision.list.retry')}
          </button>
        </div>
      ) : loaded.state === 'loading' ? (
        <p className="p-8 text-center text-sm text-zinc-600 dark:text-zinc-400" aria-busy="true">
          …
        </p>
      ) : loaded.page.items.length === 0 ? (
        <p className="p-8 text-center text-sm text-zinc-600 dark:text-zinc-400" data-testid="requests-empty">
          {t('revision.list.empty')}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {loaded.page.items.map((item) => (
            <li key={item.id} data-testid="request-item" data-request-id={item.id} data-status={item.status}>
              <div className="flex flex-wrap items-start gap-3 p-4">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
                      {t(`revision.type.${item.type}`)}
                    </span>
                    <span className="font-medium break-words text-zinc-900 dark:text-white" data-i18n-content>
                      {item.title}
                    </span>
                    {item.itemId === null && (
                      <span className="text-xs text-zinc-600 dark:text-zinc-400">{t('revision.list.new')}</span>
                    )}
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[item.status]}`}>
                      {t(`revision.status.${item.status}`)}
                    </span>
                  </p>
                  <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-i18n-content>
                    {t('revision.list.by', {
                      name: item.user?.name ?? t('revision.history.system'),
                      time: timeAgo(item.updatedAt, Date.now(), locale),
                    })}
                  </p>
                  {item.changes.length > 0 && (
                    <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
                      {t('revision.list.changed', { fields: fieldNames(item) })}
                    </p>
                  )}
                  {item.reviewNote && (
                    <p className="mt-1 text-sm whitespace-pre-wrap text-zinc-700 dark:text-zinc-300" data-i18n-content>
                      {t('revision.list.reviewNote', { note: item.reviewNote })}
                    </p>
                  )}
                </div>
                <button
                  type="button"
                  className="hk-btn hk-btn-ghost h-8 px-3 text-sm"
                  aria-expanded={openId === item.id}
                  onClick={() => setOpenId(openId === item.id ? null : item.id)}
                  data-testid="request-open"
                >
                  {t(openId === item.id ? 'revision.action.close' : 'revision.list.open')}
                  <Icon name={openId === item.id ? 'chevron-down' : 'chevron-right'} className="size-4" />
                </button>
              </div>
              {openId === item.id && (
                <div className="border-t border-zinc-100 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900/40">
                  <RequestDetailView id={item.id} onChanged={() => setVersion((v) => v + 1)} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {loaded.state === 'ready' && loaded.page.pagination.totalPages > 1 && (
        <nav className="flex items-center justify-between gap-2 border-t border-zinc-200 px-4 py-2 text-sm dark:border-zinc-700">
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={filter.page <= 1}
            onClick={() => setFilter({ ...filter, page: filter.page - 1 })}
          >
            <Icon name="chevron-left" />
            {t('revision.list.previous')}
          </button>
          <span className="text-zinc-600 tabular-nums dark:text-zinc-400">
            {t('revision.list.pageOf', { page: filter.page, pages: loaded.page.pagination.totalPages })}
          </span>
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={filter.page >= loaded.page.pagination.totalPages}
            onClick={() => setFilter({ ...filter, page: filter.page + 1 })}
          >
            {t('revision.list.next')}
            <Icon name="chevron-right" />
          </button>
        </nav>
      )}
    </section>
  );
}

export default withLocale(RequestsPanel);
