import { useEffect, useId, useState } from 'react';
import { AUDIT_ACTIONS, type AuditAction } from '../../../shared/creator/creator-model.ts';
import { USER_GROUPS as ALL_GROUPS } from '../../../shared/auth-model.ts';
import { BAN_PERIODS, RESOLVE_ACTIONS } from '../../../shared/moderation/moderation-model.ts';
import type { AuditEntryView, AuditPage } from '../../../shared/moderation/moderation.contract.ts';
import { dateTimeFormat } from '../../../shared/i18n/intl.ts';
import { readAudit, type AuditQuery } from '../../../stores/moderation.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; page: AuditPage };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const fieldClass =
  'w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900';

const KNOWN_TARGETS = ['post', 'article', 'comment', 'link', 'user'] as const;

/** The details worth a line: reason, period and end, group change, what the report action did. */
function detailLine(entry: AuditEntryView, t: ReturnType<typeof useT>): string {
  const d = entry.detail;
  const group = (value: unknown) => ALL_GROUPS.find((known) => known === value);
  const period = BAN_PERIODS.find((known) => known === d.period);
  const action = RESOLVE_ACTIONS.filter((known) => known !== 'none').find((known) => known === d.action);
  const parts: string[] = [];
  const [from, to] = [group(d.from), group(d.to)];
  if (from && to) parts.push(`${t(`moderation.group.${from}`)} → ${t(`moderation.group.${to}`)}`);
  if (period) parts.push(t('moderation.log.period', { period: t(`moderation.period.${period}`) }));
  if (action) parts.push(t('moderation.log.action', { action: t(`moderation.action.${action}`) }));
  if (d.expired === true) parts.push(t('moderation.log.expired'));
  if (typeof d.reason === 'string' && d.reason !== '')
    parts.push(t('moderation.members.reasonShown', { reason: d.reason }));
  return parts.join(' · ');
}

function Entry({ entry }: { entry: AuditEntryView }) {
  const t = useT();
  const locale = useLocale();
  const title = typeof entry.detail.title === 'string' ? entry.detail.title : '';
  const kind = KNOWN_TARGETS.find((known) => known === entry.targetType);
  const target = entry.targetUser
    ? entry.targetUser.name
    : `${kind ? t(`moderation.type.${kind}`) : entry.targetType} #${entry.targetId}${title ? ` ${title}` : ''}`;
  const details = detailLine(entry, t);
  return (
    <li className="flex flex-col gap-1 p-4" data-testid="audit-entry" data-action={entry.action}>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="rounded bg-primary/15 px-1.5 py-0.5 text-xs font-medium text-accent">
          {t(`moderation.audit.${entry.action}`)}
        </span>
        <span className="font-medium text-zinc-900 dark:text-white">
          {entry.actor ? entry.actor.name : t('moderation.log.system')}
        </span>
        <span className="text-zinc-500 dark:text-zinc-400">→</span>
        {entry.targetUser ? (
          <a
            href={`/space/${entry.targetUser.userId}`}
            className="break-all text-zinc-800 hover:text-accent dark:text-zinc-200"
          >
            {target}
          </a>
        ) : (
          <span className="break-all text-zinc-800 dark:text-zinc-200">{target}</span>
        )}
      </p>
      {details && <p className="text-sm break-words text-zinc-700 dark:text-zinc-300">{details}</p>}
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        <time dateTime={entry.createdAt}>
          {dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(entry.createdAt))}
        </time>
      </p>
    </li>
  );
}

/** /create/moderation/log: every staff action, newest first, filtered by action, actor or target. */
function AuditLog() {
  const t = useT();
  const ids = { action: useId(), actor: useId(), target: useId() };
  const [form, setForm] = useState({ action: '', actor: '', target: '' });
  const [query, setQuery] = useState<AuditQuery>({ page: 1 });
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    readAudit(query).then(
      (page) => current && setLoaded({ state: 'ready', page }),
      (error: unknown) => current && setLoaded({ state: 'failed', message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [query, version]);

  const apply = () =>
    setQuery({
      page: 1,
      action: (form.action || undefined) as AuditAction | undefined,
      actor: /^\d{1,10}$/.test(form.actor) ? Number(form.actor) : undefined,
      targetId: form.target.trim() || undefined,
    });
  const pages = loaded.state === 'ready' ? loaded.page.pagination.totalPages : 1;

  return (
    <div className="flex flex-col gap-4">
      <form
        className="hk-card grid gap-3 p-4 sm:grid-cols-4 sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.action} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('moderation.log.filterAction')}
          </label>
          <select
            id={ids.action}
            value={form.action}
            onChange={(e) => setForm({ ...form, action: e.target.value })}
            className={fieldClass}
          >
            <option value="">{t('moderation.log.allActions')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`moderation.audit.${action}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.actor} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('moderation.log.filterActor')}
          </label>
          <input
            id={ids.actor}
            inputMode="numeric"
            value={form.actor}
            maxLength={10}
            onChange={(e) => setForm({ ...form, actor: e.target.value })}
            className={fieldClass}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.target} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('moderation.log.filterTarget')}
          </label>
          <input
            id={ids.target}
            value={form.target}
            maxLength={40}
            onChange={(e) => setForm({ ...form, target: e.target.value })}
            className={fieldClass}
          />
        </div>
        <button type="submit" className="hk-btn hk-btn-primary">
          {t('moderation.log.apply')}
        </button>
      </form>
      {loaded.state === 'loading' && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('moderation.loading')}
        </p>
      )}
      {loaded.state === 'failed' && (
        <div role="alert" className="hk-card flex flex-wrap items-center gap-3 p-4 text-sm">
          {t('moderation.loadFailed', { message: loaded.message })}
          <button type="button" className="hk-btn hk-btn-ghost" onClick={() => setVersion((v) => v + 1)}>
            {t('moderation.retry')}
          </button>
        </div>
      )}
      {loaded.state === 'ready' &&
        (loaded.page.items.length === 0 ? (
          <p className="hk-card p-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {t('moderation.log.empty')}
          </p>
        ) : (
          <ul className="hk-card divide-y divide-zinc-200 dark:divide-zinc-700">
            {loaded.page.items.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ul>
        ))}
      {pages > 1 && (
        <nav aria-label={t('moderation.pages')} className="flex items-center justify-center gap-3 text-sm">
          <button
            type="button"
            disabled={query.page <= 1}
            onClick={() => setQuery({ ...query, page: query.page - 1 })}
            className="hk-btn hk-btn-ghost"
          >
            {t('moderation.previous')}
          </button>
          <span aria-current="page">{t('moderation.page', { page: query.page, total: pages })}</span>
          <button
            type="button"
            disabled={query.page >= pages}
            onClick={() => setQuery({ ...query, page: query.page + 1 })}
            className="hk-btn hk-btn-ghost"
          >
            {t('moderation.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

export default withLocale(AuditLog);
