import { useEffect, useId, useState } from 'react';
import { CREATOR_GROUPS } from '../../../shared/auth-model.ts';
import {
  APPLICATION_IMAGES_MAX,
  APPLICATION_REASON_MAX,
  APPLICATION_REASON_MIN,
} from '../../../shared/creator/application-model.ts';
import type { ApplicationStatusData, CreatorApplicationView } from '../../../shared/creator/application.contract.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import { showsNothing } from '../../../shared/visible-text.ts';
import { ApiError } from '../../../stores/api-client.ts';
import {
  loadApplicationStatus,
  submitApplication,
  syncSessionGroup,
  withdrawApplication,
} from '../../../stores/creator-application.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { toast } from '../../../stores/toast.ts';
import ImageUploader from '../media/ImageUploader.tsx';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import { ApplicationImages } from './ApplicationImages.tsx';

export interface CreatorApplicationPanelProps {
  /** The member's public userId: their application images are uploaded under it. */
  userId: number;
}

type Loaded =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: ApplicationStatusData };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const STATUS_STYLE: Record<CreatorApplicationView['status'], string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  approved: 'bg-primary/15 text-accent',
  rejected: 'bg-rose-100 text-rose-800 dark:bg-rose-900/40 dark:text-rose-200',
  withdrawn: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

/** The application form: a reason with its count, and up to nine images through the uploader. */
function ApplicationForm({
  userId,
  onSubmitted,
  onCancel,
}: {
  userId: number;
  onSubmitted: (data: ApplicationStatusData) => void;
  onCancel: (() => void) | null;
}) {
  const t = useT();
  const ids = { reason: useId(), reasonHint: useId(), reasonError: useId(), imagesError: useId() };
  const [reason, setReason] = useState('');
  const [images, setImages] = useState<string[]>([]);
  const [imagesBusy, setImagesBusy] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<{ reason?: string; images?: string }>({});
  const length = reason.trim().length;

  const submit = async () => {
    if (submitting) return;
    if (imagesBusy) {
      setErrors({ images: t('application.form.imagesBusy') });
      return;
    }
    if (length < APPLICATION_REASON_MIN || showsNothing(reason)) {
      setErrors({ reason: t('application.form.reasonShort', { min: APPLICATION_REASON_MIN }) });
      return;
    }
    setSubmitting(true);
    setErrors({});
    try {
      const data = await submitApplication({ reason, images });
      toast.success(t('application.submitted'));
      onSubmitted(data);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      const imageError = Object.entries(fields).find(([path]) => path.startsWith('images'))?.[1];
      if (fields.reason || imageError) setErrors({ reason: fields.reason, images: imageError });
      else toast.error(errorText(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      className="hk-card flex flex-col gap-5 p-5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div>
        <label htmlFor={ids.reason} className="mb-1 block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('application.label.reason')}
        </label>
        <textarea
          id={ids.reason}
          name="reason"
          value={reason}
          rows={6}
          maxLength={APPLICATION_REASON_MAX}
          required
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={`${ids.reasonHint}${errors.reason ? ` ${ids.reasonError}` : ''}`}
          onChange={(event) => setReason(event.target.value)}
          className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900"
        />
        <div className="mt-1 flex justify-between gap-3 text-xs text-zinc-600 dark:text-zinc-400">
          <p id={ids.reasonHint}>
            {t('application.form.reasonHint', { min: APPLICATION_REASON_MIN, max: APPLICATION_REASON_MAX })}
          </p>
          <p className="shrink-0 tabular-nums" aria-hidden="true">
            {length} / {APPLICATION_REASON_MAX}
          </p>
        </div>
        {errors.reason && (
          <p id={ids.reasonError} role="alert" className="mt-1 text-sm text-rose-700 dark:text-rose-300">
            {errors.reason}
          </p>
        )}
      </div>
      <div>
        <p className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('application.form.images', { max: APPLICATION_IMAGES_MAX })}
        </p>
        <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">{t('application.form.imagesHint')}</p>
        <ImageUploader
          target={{ type: 'creator_application', id: userId }}
          mode="multiple"
          max={APPLICATION_IMAGES_MAX}
          size={120}
          onChange={setImages}
          onBusyChange={setImagesBusy}
          label={t('application.form.imagesLabel')}
        />
        {errors.images && (
          <p id={ids.imagesError} role="alert" className="mt-1 text-sm text-rose-700 dark:text-rose-300">
            {errors.images}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="hk-btn hk-btn-primary" disabled={submitting} aria-busy={submitting}>
          <Icon name="send" className="size-4" />
          {submitting ? t('application.form.submitting') : t('application.form.submit')}
        </button>
        {onCancel && (
          <button type="button" className="hk-btn hk-btn-ghost" onClick={onCancel}>
            {t('application.form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

/** The member's latest application: its state, what they wrote, and what they can do next. */
function ApplicationCard({
  application,
  onWithdraw,
  onApplyAgain,
}: {
  application: CreatorApplicationView;
  onWithdraw: () => void;
  onApplyAgain: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const now = Date.now();
  const body = {
    pending: t('application.pendingBody'),
    approved: t('application.approvedBody'),
    rejected: t('application.rejectedBody'),
    withdrawn: '',
  }[application.status];
  return (
    <section className="hk-card flex flex-col gap-4 p-5" aria-labelledby="application-status">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="application-status" className="text-lg font-semibold text-zinc-900 dark:text-white">
          {t('application.title')}
        </h2>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS_STYLE[application.status]}`}
          data-status={application.status}
        >
          {t(`application.status.${application.status}`)}
        </span>
      </div>
      {body && <p className="text-sm text-zinc-700 dark:text-zinc-200">{body}</p>}
      {application.status === 'rejected' && application.rejectionReason && (
        <p className="rounded-md bg-rose-50 px-3 py-2 text-sm whitespace-pre-wrap text-rose-900 dark:bg-rose-950/50 dark:text-rose-100">
          {t('application.rejectionReason', { reason: application.rejectionReason })}
        </p>
      )}
      <div>
        <h3 className="mb-1 text-sm font-medium text-zinc-600 dark:text-zinc-400">{t('application.yourReason')}</h3>
        <p className="text-sm break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">{application.reason}</p>
      </div>
      <ApplicationImages images={application.images} group={`application-${application.id}`} />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {t('application.submittedAt', { time: timeAgo(application.createdAt, now, locale) })}
        {application.reviewedAt &&
          ` · ${t('application.reviewedAt', { time: timeAgo(application.reviewedAt, now, locale) })}`}
      </p>
      <div className="flex flex-wrap gap-3">
        {application.status === 'pending' && (
          <button type="button" className="hk-btn hk-btn-ghost" onClick={onWithdraw}>
            <Icon name="undo" className="size-4" />
            {t('application.withdraw')}
          </button>
        )}
        {application.status === 'rejected' && (
          <button type="button" className="hk-btn hk-btn-primary" onClick={onApplyAgain}>
            {t('application.applyAgain')}
          </button>
        )}
      </div>
    </section>
  );
}

/** For the creator group and above: nothing to apply for, the creator centre is open. */
function AlreadyCreator({ approved }: { approved: boolean }) {
  const t = useT();
  return (
    <section className="hk-card flex flex-col items-start gap-3 p-5" data-testid="already-creator">
      <h2 className="text-lg font-semibold text-zinc-900 dark:text-white">{t('application.already.title')}</h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-200">
        {approved ? t('application.approvedBody') : t('application.already.body')}
      </p>
      <a href="/create/home" className="hk-btn hk-btn-primary">
        <Icon name="pen" className="size-4" />
        {t('application.goCreate')}
      </a>
    </section>
  );
}

/**
 * /creator-application: the member's latest application and what to do next (spec §2.1, §7). The status
 * answer carries the member's group as the server stores it; when the session says otherwise (an admin
 * decided meanwhile), the token is refreshed and the avatar menu follows at once.
 */
function CreatorApplicationPanel({ userId }: CreatorApplicationPanelProps) {
  const t = useT();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [editing, setEditing] = useState(false);

  const show = (data: ApplicationStatusData) => {
    setLoaded({ state: 'ready', data });
    void syncSessionGroup(data.group).then((changed) => changed && toast.info(t('application.roleUpdated')));
  };
  const load = () => {
    setLoaded({ state: 'loading' });
    loadApplicationStatus().then(show, (error: unknown) => setLoaded({ state: 'failed', message: errorText(error) }));
  };
  // Once, when the page opens.
  useEffect(load, []);

  if (loaded.state === 'loading')
    return (
      <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
        {t('application.loading')}
      </p>
    );
  if (loaded.state === 'failed')
    return (
      <div role="alert" className="hk-card flex flex-wrap items-center gap-3 p-4 text-sm">
        {t('application.loadFailed', { message: loaded.message })}
        <button type="button" className="hk-btn hk-btn-ghost" onClick={load}>
          {t('application.retry')}
        </button>
      </div>
    );

  const { application, group } = loaded.data;
  if (CREATOR_GROUPS.includes(group)) return <AlreadyCreator approved={application?.status === 'approved'} />;

  const withdraw = async (id: number) => {
    if (!(await confirmDialog(t('application.withdrawConfirm')))) return;
    try {
      show(await withdrawApplication(id));
      toast.success(t('application.withdrawn'));
    } catch (error) {
      toast.error(errorText(error));
      load();
    }
  };
  const submitted = (data: ApplicationStatusData) => {
    setEditing(false);
    show(data);
  };

  const showCard = application && (application.status === 'pending' || (application.status === 'rejected' && !editing));
  return showCard ? (
    <ApplicationCard
      application={application}
      onWithdraw={() => void withdraw(application.id)}
      onApplyAgain={() => setEditing(true)}
    />
  ) : (
    <ApplicationForm
      userId={userId}
      onSubmitted={submitted}
      onCancel={application?.status === 'rejected' ? () => setEditing(false) : null}
    />
  );
}

export default withLocale(CreatorApplicationPanel);
