import { useEffect, useState } from 'react';
import type { EditType } from '../../../../shared/creator/creator-model.ts';
import type { RevisionDetail, RevisionPage } from '../../../../shared/creator/items.contract.ts';
import { timeAgo } from '../../../../shared/date-distance.ts';
import type { MessageKey } from '../../../../shared/i18n/index.ts';
import { confirmDialog } from '../../../../stores/dialog.ts';
import { toast } from '../../../../stores/toast.ts';
import { itemPageHref, listRevisions, loadRevision, restoreRevision } from '../../../../stores/update-requests.ts';
import { Icon } from '../../ui/Icon.tsx';
import { withLocale } from '../../ui/locale-context.tsx';
import { useLocale, useT } from '../../ui/use-t.ts';
import DocDiff from './DocDiff.tsx';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Props {
  type: EditType;
  id: number;
  /** The item's title or name, for the heading. */
  title: string;
  /** Admins: a restore button on each revision but the newest. */
  canRestore: boolean;
}

function RevisionDiff({ type, id, number }: { type: EditType; id: number; number: number }) {
  const t = useT();
  const [detail, setDetail] = useState<RevisionDetail | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    loadRevision(type, id, number).then(
      (loaded) => current && setDetail(loaded),
      (error: unknown) => current && setFailed(errorText(error)),
    );
    return () => {
      current = false;
    };
  }, [type, id, number]);
  if (failed) return <p role="alert">{t('revision.list.loadFailed', { message: failed })}</p>;
  if (!detail) return <p className="text-sm text-zinc-600 dark:text-zinc-400">…</p>;
  if (detail.number === 1 || detail.diff.length === 0)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('revision.history.noDiff')}</p>;
  return <DocDiff rows={detail.diff} names={detail.names} />;
}

/**
 * /create/update-request/history?type=&id=: an item's revisions, newest first, each with who, when, its
 * note and changed fields; any one opened shows its diff against the one before; admins restore one
 * (after a confirmation) as a new revision.
 */
function RevisionHistory({ type, id, title, canRestore }: Props) {
  const t = useT();
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const [loaded, setLoaded] = useState<RevisionPage | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [openNumber, setOpenNumber] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    listRevisions(type, id, page).then(
      (result) => current && (setLoaded(result), setFailed(null)),
      (error: unknown) => current && setFailed(errorText(error)),
    );
    return () => {
      current = false;
    };
  }, [type, id, page, version]);

  const restore = async (number: number) => {
    if (busy || !(await confirmDialog(t('revision.history.restoreConfirm', { number })))) return;
    setBusy(true);
    try {
      await restoreRevision(type, id, number);
      toast.success(t('revision.restored'));
      setPage(1);
      setOpenNumber(null);
      setVersion((v) => v + 1);
    } catch (error) {
      toast.error(t('revision.action.failed', { message: errorText(error) }));
    } finally {
      setBusy(false);
    }
  };

  const latest = loaded && page === 1 ? loaded.items[0]?.number : undefined;
  const href = itemPageHref(type, id);
  return (
    <section className="hk-card overflow-hidden" data-testid="revision-history">
      <header className="flex flex-wrap items-center gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-700">
        <h2 className="font-medium break-words text-zinc-900 dark:text-white">
          <span data-i18n-content>{title}</span>{' '}
          <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">
            {t('revision.history.item', { type: t(`revision.type.${type}`), id })}
          </span>
        </h2>
        {href && (
          <a href={href} className="hk-link inline-flex items-center gap-1 text-sm">
            {t('revision.detail.itemLink')}
            <Icon name="external-link" className="size-3.5" />
          </a>
        )}
      </header>
      {failed ? (
        <p role="alert" className="p-6 text-sm text-rose-700 dark:text-rose-300">
          {t('revision.list.loadFailed', { message: failed })}
        </p>
      ) : !loaded ? (
        <p className="p-6 text-sm text-zinc-600 dark:text-zinc-400">…</p>
      ) : loaded.items.length === 0 ? (
        <p className="p-6 text-sm text-zinc-600 dark:text-zinc-400">{t('revision.history.empty')}</p>
      ) : (
        <ol className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {loaded.items.map((item) => (
            <li key={item.number} data-testid="revision-item" data-number={item.number}>
              <div className="flex flex-wrap items-start gap-3 p-4">
                <div className="min-w-0 flex-1 text-sm">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-zinc-900 tabular-nums dark:text-white">
                      {t('revision.history.number', { number: item.number })}
                    </span>
                    <span className="text-zinc-600 dark:text-zinc-400" data-i18n-content>
                      {item.user?.name ?? t('revision.history.system')} · {timeAgo(item.createdAt, Date.now(), locale)}
                    </span>
                    {item.restoredFrom !== null && (
                      <span className="rounded bg-sky-100 px-1.5 py-0.5 text-xs text-sky-800 dark:bg-sky-900/40 dark:text-sky-200">
                        {t('revision.history.restoredFrom', { number: item.restoredFrom })}
                      </span>
                    )}
                    {item.requestId !== null && (
                      <span className="text-xs text-zinc-600 dark:text-zinc-400">
                        {t('revision.history.byRequest', { id: item.requestId })}
                      </span>
                    )}
                  </p>
                  <p className="mt-1 text-zinc-700 dark:text-zinc-300">
                    {item.number === 1 && item.user === null
                      ? t('revision.history.snapshot')
                      : item.changes.map((field) => t(`revision.field.${field}` as MessageKey)).join(', ')}
                  </p>
                  {item.note && (
                    <p className="mt-1 whitespace-pre-wrap text-zinc-600 dark:text-zinc-400" data-i18n-content>
                      {item.note}
                    </p>
                  )}
                </div>
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="hk-btn hk-btn-ghost h-8 px-3 text-sm"
                    aria-expanded={openNumber === item.number}
                    onClick={() => setOpenNumber(openNumber === item.number ? null : item.number)}
                  >
                    {t(openNumber === item.number ? 'revision.action.close' : 'revision.history.view')}
                  </button>
                  {canRestore && item.number !== latest && (
                    <button
                      type="button"
                      className="hk-btn hk-btn-ghost h-8 px-3 text-sm"
                      disabled={busy}
                      data-testid="revision-restore"
                      onClick={() => void restore(item.number)}
                    >
                      <Icon name="rotate-ccw" className="size-4" />
                      {t('revision.history.restore')}
                    </button>
                  )}
                </div>
              </div>
              {openNumber === item.number && (
                <div className="border-t border-zinc-100 p-4 dark:border-zinc-800">
                  <RevisionDiff type={type} id={id} number={item.number} />
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {loaded && loaded.pagination.totalPages > 1 && (
        <nav className="flex items-center justify-between gap-2 border-t border-zinc-200 px-4 py-2 text-sm dark:border-zinc-700">
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            <Icon name="chevron-left" />
            {t('revision.list.previous')}
          </button>
          <span className="text-zinc-600 tabular-nums dark:text-zinc-400">
            {t('revision.list.pageOf', { page, pages: loaded.pagination.totalPages })}
          </span>
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={page >= loaded.pagination.totalPages}
            onClick={() => setPage(page + 1)}
          >
            {t('revision.list.next')}
            <Icon name="chevron-right" />
          </button>
        </nav>
      )}
    </section>
  );
}

export default withLocale(RevisionHistory);
