import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { GALGAME_STATUSES, type GalgameStatus } from '../../../shared/catalogue-model.ts';
import type { EditType } from '../../../shared/creator/creator-model.ts';
import { isPublishable } from '../../../shared/creator/items-model.ts';
import type { ManagePage, ManageRow } from '../../../shared/creator/manage.contract.ts';
import type { MessageKey } from '../../../shared/i18n/index.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { editorPath, loadManageApi } from '../../../stores/item-editor.ts';
import { toast } from '../../../stores/toast.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import { inputClass } from './item-editor-fields.tsx';

interface Props {
  type: EditType;
  keyword: string;
  status: GalgameStatus | null;
  page: number;
}

const statusClass: Record<GalgameStatus, string> = {
  draft: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  pending: 'bg-amber-100 text-amber-900 dark:bg-amber-900/30 dark:text-amber-200',
  published: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/30 dark:text-emerald-200',
  rejected: 'bg-red-100 text-red-800 dark:bg-red-900/30 dark:text-red-200',
};

/**
 * /create/item/manage/{type} and /create/entity/manage/{type}: the entries of a type, newest first,
 * with a name filter, a status filter for games and series, and pages; each opens in the editor.
 * Editors also publish, unpublish and delete volumes here. The filters stay in the address.
 */
function ManageList({ type, keyword: initialKeyword, status: initialStatus, page: initialPage }: Props) {
  const t = useT();
  const zh = useLocale() === 'zh-CN';
  const [keyword, setKeyword] = useState(initialKeyword);
  const [query, setQuery] = useState({ keyword: initialKeyword, status: initialStatus, page: initialPage });
  const [result, setResult] = useState<ManagePage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const keywordId = useId();
  const statusId = useId();
  const request = useRef(0);
  const publishable = isPublishable(type);

  const load = async () => {
    const mine = ++request.current;
    try {
      const { client, contract } = await loadManageApi();
      const answer = await client.call(contract.list, {
        params: { type },
        query: {
          ...(query.keyword ? { keyword: query.keyword } : {}),
          ...(query.status ? { status: query.status } : {}),
          page: query.page,
        },
      });
      if (mine !== request.current) return;
      setResult(answer.data);
      setError(null);
    } catch (failure) {
      if (mine === request.current) setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  useEffect(() => {
    void load();
    const url = new URL(window.location.href);
    for (const [name, value] of Object.entries({
      keyword: query.keyword,
      status: query.status ?? '',
      page: query.page > 1 ? String(query.page) : '',
    })) {
      if (value) url.searchParams.set(name, value);
      else url.searchParams.delete(name);
    }
    window.history.replaceState(window.history.state, '', url);
  }, [query]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery((q) => ({ ...q, keyword: keyword.trim(), page: 1 }));
  };

  const act = async (row: ManageRow, action: 'publish' | 'unpublish' | 'delete') => {
    if (busy !== null) return;
    if (action === 'delete') {
      const sure = await confirmDialog({
        message: t('itemEditor.manage.deleteConfirm'),
        confirmText: t('itemEditor.manage.delete'),
      });
      if (!sure) return;
    }
    setBusy(row.id);
    try {
      const { client, contract } = await loadManageApi();
      if (action === 'delete') {
        await client.call(contract.deleteVolume, { params: { id: row.id } });
        toast.success(t('itemEditor.volumeDeleted'));
      } else if (isPublishable(type)) {
        await client.call(action === 'publish' ? contract.publish : contract.unpublish, {
          params: { type, id: row.id },
        });
        toast.success(t(action === 'publish' ? 'itemEditor.published' : 'itemEditor.unpublished'));
      }
      await load();
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : t('itemEditor.manage.failed'));
    } finally {
      setBusy(null);
    }
  };

  const pagination = result?.pagination;
  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={search} className="hk-card flex flex-wrap items-end gap-3 p-4" role="search">
        <div className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
          <label htmlFor={keywordId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('itemEditor.manage.keyword')}
          </label>
          <input
            id={keywordId}
            type="search"
            className={inputClass}
            value={keyword}
            maxLength={100}
            onChange={(event) => setKeyword(event.target.value)}
          />
        </div>
        {publishable && (
          <div className="flex flex-col gap-1">
            <label htmlFor={statusId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('itemEditor.manage.status')}
            </label>
            <select
              id={statusId}
              className={`${inputClass} w-auto`}
              value={query.status ?? ''}
              onChange={(event) =>
                setQuery((q) => ({ ...q, status: (event.target.value || null) as GalgameStatus | null, page: 1 }))
              }
            >
              <option value="">{t('itemEditor.manage.allStatuses')}</option>
              {GALGAME_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`itemEditor.status.${s}` as MessageKey)}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="submit" className="hk-btn hk-btn-ghost">
          {t('itemEditor.manage.search')}
        </button>
        <a href={editorPath(type, null)} className="hk-btn hk-btn-primary">
          {t('itemEditor.manage.new')}
        </a>
      </form>

      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t('itemEditor.loadFailed', { reason: error })}
        </p>
      ) : !result ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('itemEditor.loading')}</p>
      ) : result.items.length === 0 ? (
        <p className="hk-card p-6 text-center text-sm text-zinc-600 dark:text-zinc-300">
          {t('itemEditor.manage.empty')}
        </p>
      ) : (
        <ul
          className="hk-card divide-y divide-zinc-200 dark:divide-zinc-800"
          aria-busy={busy !== null}
          data-manage-list
        >
          {result.items.map((row) => {
            const name = (zh && row.nameZh) || row.name || row.nameZh;
            const other = name === row.name ? row.nameZh : row.name;
            return (
              <li key={row.id} className="flex flex-wrap items-center gap-3 p-3 sm:p-4">
                {row.image ? (
                  <img src={row.image} alt="" className="size-12 shrink-0 rounded-lg object-cover" loading="lazy" />
                ) : (
                  <span aria-hidden="true" className="size-12 shrink-0 rounded-lg bg-zinc-100 dark:bg-zinc-800" />
                )}
                <div className="min-w-0 flex-1 basis-40">
                  <a
                    href={editorPath(type, row.id)}
                    className="block truncate font-medium text-zinc-900 hover:text-accent dark:text-white"
                  >
                    {name || `#${row.id}`}
                  </a>
                  <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">
                    #{row.id}
                    {other ? ` · ${other}` : ''}
                    {row.series
                      ? ` · ${row.series.name} · ${t('itemEditor.manage.volumeNumber', { number: row.number ?? 0 })}`
                      : ''}
                  </p>
                </div>
                {row.status && (
                  <span className={`rounded-full px-2 py-0.5 text-xs ${statusClass[row.status]}`}>
                    {t(`itemEditor.status.${row.status}` as MessageKey)}
                  </span>
                )}
                <div className="flex flex-wrap gap-2">
                  <a href={editorPath(type, row.id)} className="hk-btn hk-btn-ghost h-8 px-3">
                    {t('itemEditor.manage.edit')}
                  </a>
                  {result.canModerate && publishable && row.status !== 'published' && (
                    <button
                      type="button"
                      className="hk-btn hk-btn-ghost h-8 px-3"
                      disabled={busy !== null}
                      onClick={() => void act(row, 'publish')}
                    >
                      {t('itemEditor.manage.publish')}
                    </button>
                  )}
                  {result.canModerate && publishable && row.status === 'published' && (
                    <button
                      type="button"
                      className="hk-btn hk-btn-ghost h-8 px-3"
                      disabled={busy !== null}
                      onClick={() => void act(row, 'unpublish')}
                    >
                      {t('itemEditor.manage.unpublish')}
                    </button>
                  )}
                  {result.canModerate && type === 'volume' && (
                    <button
                      type="button"
                      className="hk-btn h-8 px-3 text-red-700 ring-1 ring-red-200 hover:bg-red-50 dark:text-red-400 dark:ring-red-900 dark:hover:bg-red-950"
                      disabled={busy !== null}
                      onClick={() => void act(row, 'delete')}
                    >
                      {t('itemEditor.manage.delete')}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {pagination && pagination.totalPages > 1 && (
        <nav className="flex items-center justify-center gap-3" aria-label={t('itemEditor.manage.pages')}>
          <button
            type="button"
            className="hk-btn hk-btn-ghost"
            disabled={pagination.page <= 1}
            onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}
          >
            {t('itemEditor.manage.prev')}
          </button>
          <span className="text-sm text-zinc-600 dark:text-zinc-300">
            {t('itemEditor.manage.pageOf', { page: pagination.page, total: pagination.totalPages })}
          </span>
          <button
            type="button"
            className="hk-btn hk-btn-ghost"
            disabled={pagination.page >= pagination.totalPages}
            onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}
          >
            {t('itemEditor.manage.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

export default withLocale(ManageList);
