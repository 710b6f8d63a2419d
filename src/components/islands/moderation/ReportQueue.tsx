import { useEffect, useState } from 'react';
import type {
  QueueKind,
  ReportedItem,
  ReportedLink,
  ReportQueue as Queue,
  ResolveAction,
} from '../../../shared/moderation/moderation.contract.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import { ApiError } from '../../../stores/api-client.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { closeReports, contentReports, linkReports } from '../../../stores/moderation.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

type Loaded<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; queue: Queue<T> };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const STATUS_STYLE: Record<string, string> = {
  published: 'bg-primary/15 text-accent',
  visible: 'bg-primary/15 text-accent',
  draft: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  hidden: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  deleted: 'bg-rose-100 text-rose-800 dark:bg-rose-900/40 dark:text-rose-200',
};

/** The buttons of one queue entry; a click closes every open report of the item. */
function Decisions({
  type,
  id,
  name,
  actions,
  onDone,
}: {
  type: ReportedItem['targetType'] | 'link';
  id: number;
  name: string;
  actions: { action: ResolveAction | null; label: string; confirm?: string; primary?: boolean }[];
  onDone: () => void;
}) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const run = async (action: ResolveAction | null, confirm: string | undefined) => {
    if (busy) return;
    if (confirm && !(await confirmDialog({ title: t('moderation.confirm.title'), message: confirm }))) return;
    setBusy(true);
    try {
      const closed = await closeReports(type, id, action);
      toast.success(t(action === null ? 'moderation.queue.dismissed' : 'moderation.queue.resolved', { count: closed }));
      onDone();
    } catch (error) {
      toast.error(errorText(error));
      if (error instanceof ApiError && error.code === 'REPORT_CLOSED') onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      {actions.map(({ action, label, confirm, primary }) => (
        <button
          key={action ?? 'dismiss'}
          type="button"
          disabled={busy}
          onClick={() => void run(action, confirm)}
          className={`hk-btn ${primary ? 'hk-btn-primary' : 'hk-btn-ghost'}`}
        >
          {label}
          {/* The item's own title (content, in its language) names which item the button acts on. */}
          <span className="sr-only" data-i18n-content>
            {' '}
            {name}
          </span>
        </button>
      ))}
    </div>
  );
}

function ContentEntry({ item, onDone }: { item: ReportedItem; onDone: () => void }) {
  const t = useT();
  const locale = useLocale();
  const kind = t(`moderation.type.${item.targetType}`);
  const name = item.title || kind;
  const shown = item.status === 'published' || item.status === 'visible';
  return (
    <li
      className="flex flex-col gap-2 p-4"
      data-testid="report-item"
      data-target={`${item.targetType}:${item.targetId}`}
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {kind}
        </span>
        {item.url ? (
          <a href={item.url} className="font-medium break-all text-zinc-900 hover:text-accent dark:text-white">
            {name}
          </a>
        ) : (
          <span className="font-medium break-all text-zinc-900 dark:text-white">{name}</span>
        )}
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[item.status] ?? ''}`}>
          {t(`moderation.status.${item.status}`)}
        </span>
      </p>
      <p className="flex flex-wrap gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
        {item.author && (
          <a href={`/space/${item.author.userId}`} className="hover:text-accent">
            {t('moderation.queue.author', { name: item.author.name })}
          </a>
        )}
        <span>{t('moderation.queue.count', { count: item.count })}</span>
        <span>{t('moderation.queue.last', { time: timeAgo(item.lastAt, Date.now(), locale) })}</span>
      </p>
      <ul className="flex flex-wrap gap-1.5" aria-label={t('moderation.queue.reasons')}>
        {item.reasons.map((reason) => (
          <li
            key={reason.reason}
            className="rounded-full border border-zinc-300 px-2 py-0.5 text-xs text-zinc-700 dark:border-zinc-600 dark:text-zinc-300"
          >
            {t(`moderation.reason.${reason.reason}`)} × {reason.count}
          </li>
        ))}
      </ul>
      {item.notes.length > 0 && (
        <ul className="flex flex-col gap-1 rounded-md bg-zinc-50 p-2 text-sm dark:bg-zinc-800/60">
          {item.notes.map((note, index) => (
            <li key={index} className="break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">
              {t('moderation.queue.note', { name: note.reporter, text: note.text })}
            </li>
          ))}
        </ul>
      )}
      <Decisions
        type={item.targetType}
        id={item.targetId}
        name={name}
        onDone={onDone}
        actions={[
          ...(shown ? [{ action: 'hide' as const, label: t('moderation.action.hide'), primary: true }] : []),
          ...(item.status !== 'deleted'
            ? [
                {
                  action: 'delete' as const,
                  label: t('moderation.action.delete'),
                  confirm: t('moderation.confirm.delete', { name }),
                },
              ]
            : []),
          ...(!shown ? [{ action: 'none' as const, label: t('moderation.action.resolve') }] : []),
          { action: null, label: t('moderation.action.dismiss') },
        ]}
      />
    </li>
  );
}

function LinkEntry({ item, onDone }: { item: ReportedLink; onDone: () => void }) {
  const t = useT();
  const locale = useLocale();
  const name = item.label || item.url;
  return (
    <li className="flex flex-col gap-2 p-4" data-testid="report-link" data-target={`link:${item.targetId}`}>
      <p className="flex flex-wrap items-center gap-2">
        <a href={`/galgame/${item.galgameId}`} className="font-medium text-zinc-900 hover:text-accent dark:text-white">
          {item.galgameName}
        </a>
        <span className="text-sm break-all text-zinc-600 dark:text-zinc-400">{name}</span>
      </p>
      <p className="flex flex-wrap gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="break-all">{item.url}</span>
        <span>{t('moderation.queue.count', { count: item.count })}</span>
        <span>{t('moderation.queue.last', { time: timeAgo(item.lastAt, Date.now(), locale) })}</span>
      </p>
      {item.notes.length > 0 && (
        <ul className="flex flex-col gap-1 rounded-md bg-zinc-50 p-2 text-sm dark:bg-zinc-800/60">
          {item.notes.map((note, index) => (
            <li key={index} className="break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">
              {note}
            </li>
          ))}
        </ul>
      )}
      <Decisions
        type="link"
        id={item.targetId}
        name={name}
        onDone={onDone}
        actions={[
          {
            action: 'removeLink',
            label: t('moderation.action.removeLink'),
            confirm: t('moderation.confirm.removeLink', { name }),
            primary: true,
          },
          { action: null, label: t('moderation.action.dismiss') },
        ]}
      />
    </li>
  );
}

/** /create/moderation/reports: open reports per item (content) and per download link, for editors. */
function ReportQueue() {
  const t = useT();
  const [kind, setKind] = useState<QueueKind>('content');
  const [page, setPage] = useState(1);
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<ReportedItem> | Loaded<ReportedLink>>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    const load: Promise<Queue<ReportedItem> | Queue<ReportedLink>> =
      kind === 'content' ? contentReports(page) : linkReports(page);
    load.then(
      (queue) => current && setLoaded({ state: 'ready', queue } as Loaded<ReportedItem>),
      (error: unknown) => current && setLoaded({ state: 'failed', message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [kind, page, version]);

  const reload = () => setVersion((v) => v + 1);
  const pages = loaded.state === 'ready' ? loaded.queue.pagination.totalPages : 1;

  return (
    <div className="flex flex-col gap-4">
      <div role="group" aria-label={t('moderation.queue.kind')} className="flex flex-wrap gap-2">
        {(['content', 'links'] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={kind === option}
            onClick={() => {
              setKind(option);
              setPage(1);
            }}
            className="rounded-full border border-zinc-300 px-3 py-1 text-sm text-zinc-700 aria-pressed:border-accent aria-pressed:bg-primary/10 aria-pressed:text-accent dark:border-zinc-600 dark:text-zinc-300"
          >
            {t(`moderation.queue.${option}`)}
          </button>
        ))}
        <button type="button" className="hk-btn hk-btn-ghost ml-auto" onClick={reload}>
          <Icon name="rotate-ccw" className="size-4" />
          {t('moderation.refresh')}
        </button>
      </div>
      {loaded.state === 'loading' && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('moderation.loading')}
        </p>
      )}
      {loaded.state === 'failed' && (
        <div role="alert" className="hk-card flex flex-wrap items-center gap-3 p-4 text-sm">
          {t('moderation.loadFailed', { message: loaded.message })}
          <button type="button" className="hk-btn hk-btn-ghost" onClick={reload}>
            {t('moderation.retry')}
          </button>
        </div>
      )}
      {loaded.state === 'ready' &&
        (loaded.queue.items.length === 0 ? (
          <p className="hk-card p-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {t('moderation.queue.empty')}
          </p>
        ) : (
          <ul className="hk-card divide-y divide-zinc-200 dark:divide-zinc-700">
            {loaded.queue.items.map((item) =>
              item.targetType === 'link' ? (
                <LinkEntry key={`link:${item.targetId}`} item={item as ReportedLink} onDone={reload} />
              ) : (
                <ContentEntry key={`${item.targetType}:${item.targetId}`} item={item as ReportedItem} onDone={reload} />
              ),
            )}
          </ul>
        ))}
      {pages > 1 && (
        <nav aria-label={t('moderation.pages')} className="flex items-center justify-center gap-3 text-sm">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)} className="hk-btn hk-btn-ghost">
            {t('moderation.previous')}
          </button>
          <span aria-current="page">{t('moderation.page', { page, total: pages })}</span>
          <button
            type="button"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
            className="hk-btn hk-btn-ghost"
          >
            {t('moderation.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

export default withLocale(ReportQueue);
