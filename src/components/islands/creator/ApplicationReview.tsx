import { useEffect, useState } from 'react';
import {
  APPLICATION_FILTERS,
  REJECTION_REASON_MAX,
  type ApplicationFilter,
} from '../../../shared/creator/application-model.ts';
import type { ApplicationPage, ReviewedApplicationView } from '../../../shared/creator/application.contract.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import { dateTimeFormat } from '../../../shared/i18n/intl.ts';
import { showsNothing } from '../../../shared/visible-text.ts';
import { ApiError } from '../../../stores/api-client.ts';
import { decideApplication, listApplications } from '../../../stores/creator-application.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { toast } from '../../../stores/toast.ts';
import Avatar from '../display/Avatar.tsx';
import { useImageOptions } from '../media/use-emoji.ts';
import { Icon } from '../ui/Icon.tsx';
import { ReasonForm } from '../ui/ReasonForm.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import { ApplicationImages } from './ApplicationImages.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; page: ApplicationPage };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const STATUS_STYLE: Record<ReviewedApplicationView['status'], string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  approved: 'bg-primary/15 text-accent',
  rejected: 'bg-rose-100 text-rose-800 dark:bg-rose-900/40 dark:text-rose-200',
  withdrawn: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

/** One application: who sent it, what they wrote and showed, and the decision (or the buttons to make it). */
function ApplicationItem({
  item,
  onDecided,
  onStale,
}: {
  item: ReviewedApplicationView;
  onDecided: (item: ReviewedApplicationView) => void;
  onStale: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const imageOptions = useImageOptions();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { applicant } = item;

  const decide = async (decision: { approve: true } | { approve: false; reason: string }) => {
    if (busy) return;
    setBusy(true);
    try {
      onDecided(await decideApplication(item.id, decision));
      toast.success(decision.approve ? t('application.approved') : t('application.rejected'));
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors().reason : undefined;
      if (field) setReasonError(field);
      else toast.error(errorText(error));
      // Decided by someone else meanwhile: show the list as it is now.
      if (error instanceof ApiError && error.code === 'APPLICATION_CLOSED') onStale();
    } finally {
      setBusy(false);
    }
  };
  const approve = async () => {
    if (await confirmDialog(t('application.review.approveConfirm', { name: applicant.name })))
      await decide({ approve: true });
  };
  const reject = () => {
    if (showsNothing(reason)) {
      setReasonError(t('application.review.rejectHint'));
      return;
    }
    void decide({ approve: false, reason });
  };

  return (
    <li className="flex flex-col gap-3 p-4" data-testid="application-item" data-application-id={item.id}>
      <div className="flex flex-wrap items-start gap-3">
        <a href={`/space/${applicant.userId}`} className="shrink-0">
          <Avatar src={applicant.avatar} name={applicant.name} size="large" imageOptions={imageOptions} />
        </a>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <a
              href={`/space/${applicant.userId}`}
              className="font-medium text-zinc-900 hover:text-accent dark:text-white"
            >
              {applicant.name}
            </a>
            <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
              {t(`application.group.${applicant.group}`)}
            </span>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[item.status]}`}
              data-status={item.status}
            >
              {t(`application.status.${item.status}`)}
            </span>
          </p>
          <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
            <span>
              {t('application.review.joined', {
                date: dateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(applicant.joinedAt)),
              })}
            </span>
            <span>{t('application.review.posts', { count: applicant.postCount })}</span>
            <span>{t('application.review.articles', { count: applicant.articleCount })}</span>
            <span>{t('application.submittedAt', { time: timeAgo(item.createdAt, Date.now(), locale) })}</span>
          </p>
        </div>
      </div>
      <p className="text-sm break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">{item.reason}</p>
      <ApplicationImages images={item.images} group={`application-${item.id}`} />
      {item.status === 'rejected' && item.rejectionReason && (
        <p className="rounded-md bg-rose-50 px-3 py-2 text-sm whitespace-pre-wrap text-rose-900 dark:bg-rose-950/50 dark:text-rose-100">
          {t('application.rejectionReason', { reason: item.rejectionReason })}
        </p>
      )}
      {item.reviewer && item.reviewedAt && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {t('application.review.reviewedBy', {
            name: item.reviewer.name,
            time: timeAgo(item.reviewedAt, Date.now(), locale),
          })}
        </p>
      )}
      {item.status === 'pending' && !rejecting && (
        <div className="flex flex-wrap gap-2">
          <button type="button" className="hk-btn hk-btn-primary" disabled={busy} onClick={() => void approve()}>
            <Icon name="check" className="size-4" />
            {t('application.review.approve')}
            <span className="sr-only" data-i18n-content="">
              {' '}
              {applicant.name}
            </span>
          </button>
          <button type="button" className="hk-btn hk-btn-ghost" disabled={busy} onClick={() => setRejecting(true)}>
            <Icon name="x" className="size-4" />
            {t('application.review.reject')}
            <span className="sr-only" data-i18n-content="">
              {' '}
              {applicant.name}
            </span>
          </button>
        </div>
      )}
      {item.status === 'pending' && rejecting && (
        <ReasonForm
          label={t('application.label.rejection')}
          value={reason}
          error={reasonError}
          max={REJECTION_REASON_MAX}
          hint={t('application.review.rejectHint')}
          submitLabel={t('application.review.confirmReject')}
          cancelLabel={t('application.form.cancel')}
          busy={busy}
          onChange={(value) => {
            setReason(value);
            setReasonError(null);
          }}
          onSubmit={reject}
          onCancel={() => setRejecting(false)}
        />
      )}
    </li>
  );
}

/** /create/moderation/applications: the admins' queue of creator applications, pending ones first. */
function ApplicationReview() {
  const t = useT();
  const [filter, setFilter] = useState<ApplicationFilter>('all');
  const [page, setPage] = useState(1);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    listApplications(filter, page).then(
      (result) => current && setLoaded({ state: 'ready', page: result }),
      (error: unknown) => current && setLoaded({ state: 'failed', message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [filter, page, version]);

  const choose = (next: ApplicationFilter) => {
    setFilter(next);
    setPage(1);
  };
  const replace = (item: ReviewedApplicationView) =>
    setLoaded((state) =>
      state.state === 'ready'
        ? {
            state: 'ready',
            page: {
              ...state.page,
              items: state.page.items.map((other) => (other.id === item.id ? item : other)),
              pending: Math.max(0, state.page.pending - 1),
            },
          }
        : state,
    );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div role="group" aria-label={t('application.review.filter')} className="flex flex-wrap gap-2">
          {APPLICATION_FILTERS.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={filter === option}
              onClick={() => choose(option)}
              className="rounded-full border border-zinc-300 px-3 py-1 text-sm text-zinc-700 aria-pressed:border-accent aria-pressed:bg-primary/10 aria-pressed:text-accent dark:border-zinc-600 dark:text-zinc-300"
            >
              {option === 'all' ? t('application.review.all') : t(`application.status.${option}`)}
            </button>
          ))}
        </div>
        {loaded.state === 'ready' && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="pending-count">
            {t('application.review.pendingCount', { count: loaded.page.pending })}
          </p>
        )}
      </div>
      {loaded.state === 'loading' && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('application.loading')}
        </p>
      )}
      {loaded.state === 'failed' && (
        <div role="alert" className="hk-card flex flex-wrap items-center gap-3 p-4 text-sm">
          {t('application.loadFailed', { message: loaded.message })}
          <button type="button" className="hk-btn hk-btn-ghost" onClick={() => setVersion((v) => v + 1)}>
            {t('application.retry')}
          </button>
        </div>
      )}
      {loaded.state === 'ready' &&
        (loaded.page.items.length === 0 ? (
          <p className="hk-card p-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {t('application.review.empty')}
          </p>
        ) : (
          <ul className="hk-card divide-y divide-zinc-200 dark:divide-zinc-700">
            {loaded.page.items.map((item) => (
              <ApplicationItem
                key={`${item.id}:${item.status}`}
                item={item}
                onDecided={replace}
                onStale={() => setVersion((v) => v + 1)}
              />
            ))}
          </ul>
        ))}
      {loaded.state === 'ready' && loaded.page.pagination.totalPages > 1 && (
        <nav aria-label={t('application.review.pages')} className="flex items-center justify-center gap-3 text-sm">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)} className="hk-btn hk-btn-ghost">
            {t('application.review.previous')}
          </button>
          <span aria-current="page">
            {t('application.review.page', { page, total: loaded.page.pagination.totalPages })}
          </span>
          <button
            type="button"
            disabled={page >= loaded.page.pagination.totalPages}
            onClick={() => setPage(page + 1)}
            className="hk-btn hk-btn-ghost"
          >
            {t('application.review.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

export default withLocale(ApplicationReview);
