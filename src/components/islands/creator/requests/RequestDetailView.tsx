import { useEffect, useState } from 'react';
import { REVIEW_REASON_MAX } from '../../../../shared/creator/items-model.ts';
import type { RequestDetail } from '../../../../shared/creator/requests.contract.ts';
import { showsNothing } from '../../../../shared/visible-text.ts';
import { ApiError } from '../../../../stores/api-client.ts';
import { confirmDialog } from '../../../../stores/dialog.ts';
import { editorPath } from '../../../../stores/item-editor.ts';
import { toast } from '../../../../stores/toast.ts';
import {
  approveRequest,
  closeRequest,
  itemPageHref,
  loadRequest,
  withdrawRequest,
} from '../../../../stores/update-requests.ts';
import { Icon } from '../../ui/Icon.tsx';
import { ReasonForm } from '../../ui/ReasonForm.tsx';
import { useT } from '../../ui/use-t.ts';
import DocDiff from './DocDiff.tsx';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Props {
  id: number;
  /** Called after the request changed (decided, withdrawn), so the list shows its new state. */
  onChanged: () => void;
}

/**
 * One update request opened: its note, the reviewer's note, the side-by-side diff of its fields (with the
 * current values and the conflicts when the item changed since), and what the viewer may do: review it
 * (approve, reject or send back with a reason; after a conflict, approve over it), or, its author,
 * withdraw it or edit and resubmit it.
 */
export default function RequestDetailView({ id, onChanged }: Props) {
  const t = useT();
  const [detail, setDetail] = useState<RequestDetail | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [closing, setClosing] = useState<'reject' | 'changes' | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [conflicted, setConflicted] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    loadRequest(id).then(
      (loaded) => current && setDetail(loaded),
      (error: unknown) => current && setFailed(errorText(error)),
    );
    return () => {
      current = false;
    };
  }, [id, version]);

  const act = async (work: () => Promise<unknown>, done: string) => {
    if (busy) return;
    setBusy(true);
    try {
      await work();
      toast.success(done);
      setClosing(null);
      setConflicted(false);
      onChanged();
      setVersion((v) => v + 1);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'EDIT_CONFLICT') {
        setConflicted(true);
        setVersion((v) => v + 1);
      } else if (error instanceof ApiError && error.fieldErrors().reason) setReasonError(error.fieldErrors().reason!);
      else toast.error(t('revision.action.failed', { message: errorText(error) }));
      if (error instanceof ApiError && error.code === 'REQUEST_CLOSED') {
        onChanged();
        setVersion((v) => v + 1);
      }
    } finally {
      setBusy(false);
    }
  };

  if (failed)
    return (
      <p role="alert" className="p-4 text-sm text-rose-700 dark:text-rose-300">
        {t('revision.list.loadFailed', { message: failed })}
      </p>
    );
  if (!detail) return <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400">…</p>;

  const conflicts = detail.fields.filter((f) => f.conflict).map((f) => f.field);
  const changed = detail.fields.some((f) => JSON.stringify(f.current) !== JSON.stringify(f.base));
  const page = detail.itemId !== null ? itemPageHref(detail.type, detail.itemId) : null;
  const submitReason = () => {
    if (showsNothing(reason)) {
      setReasonError(t('revision.action.reasonLabel'));
      return;
    }
    const decision = closing ?? 'reject';
    void act(
      () => closeRequest(detail.id, decision, reason),
      t(decision === 'reject' ? 'revision.rejected' : 'revision.changesRequested'),
    );
  };

  return (
    <div className="flex flex-col gap-4 p-4" data-testid="request-detail" data-request-id={detail.id}>
      <div className="flex flex-col gap-1 text-sm">
        <p className="font-medium text-zinc-900 dark:text-white">{t('revision.detail.note')}</p>
        <p
          className="whitespace-pre-wrap text-zinc-700 dark:text-zinc-300"
          data-i18n-content={detail.note ? '' : undefined}
        >
          {detail.note || t('revision.detail.noNote')}
        </p>
        {page && (
          <a href={page} className="hk-link inline-flex items-center gap-1 self-start">
            {t('revision.detail.itemLink')}
            <Icon name="external-link" className="size-3.5" />
          </a>
        )}
      </div>
      {detail.reviewNote && (
        <p
          className="rounded-md bg-amber-50 px-3 py-2 text-sm whitespace-pre-wrap text-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
          data-i18n-content
        >
          {t('revision.list.reviewNote', { note: detail.reviewNote })}
        </p>
      )}
      {conflicts.length > 0 && (
        <p
          role="alert"
          className="flex gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
          data-testid="request-conflict"
        >
          <Icon name="triangle-alert" className="size-4 shrink-0" />
          {t('revision.detail.conflictNotice')}
        </p>
      )}
      <DocDiff
        rows={detail.fields.map((f) => ({
          field: f.field,
          before: f.base,
          after: f.proposed,
          current: f.current,
          conflict: f.conflict,
        }))}
        names={detail.names}
        showCurrent={detail.itemId !== null && detail.status === 'pending' && changed}
        labels={{
          before: 'revision.detail.base',
          current: 'revision.detail.current',
          after: 'revision.detail.proposed',
        }}
      />
      {detail.can.review && closing === null && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="hk-btn hk-btn-primary"
            disabled={busy}
            data-testid="request-approve"
            onClick={() =>
              void act(
                () => approveRequest(detail.id, conflicted || conflicts.length > 0 ? conflicts : undefined),
                t('revision.approved'),
              )
            }
          >
            <Icon name="check" className="size-4" />
            {t(conflicts.length > 0 ? 'revision.action.approveOverwrite' : 'revision.action.approve')}
          </button>
          <button type="button" className="hk-btn hk-btn-ghost" disabled={busy} onClick={() => setClosing('changes')}>
            <Icon name="undo" className="size-4" />
            {t('revision.action.changes')}
          </button>
          <button type="button" className="hk-btn hk-btn-ghost" disabled={busy} onClick={() => setClosing('reject')}>
            <Icon name="x" className="size-4" />
            {t('revision.action.reject')}
          </button>
        </div>
      )}
      {detail.can.review && closing !== null && (
        <ReasonForm
          label={t('revision.action.reasonLabel')}
          value={reason}
          error={reasonError}
          max={REVIEW_REASON_MAX}
          submitLabel={t(closing === 'reject' ? 'revision.action.reject' : 'revision.action.changes')}
          cancelLabel={t('revision.action.cancel')}
          busy={busy}
          submitTestId="request-close-confirm"
          onChange={(value) => {
            setReason(value);
            setReasonError(null);
          }}
          onSubmit={submitReason}
          onCancel={() => setClosing(null)}
        />
      )}
      {(detail.can.withdraw || detail.can.resubmit) && (
        <div className="flex flex-wrap gap-2">
          {detail.can.resubmit && detail.status === 'changes_requested' && (
            <a
              className="hk-btn hk-btn-primary"
              href={`${editorPath(detail.type, detail.itemId)}${detail.itemId === null ? '?' : '&'}request=${detail.id}`}
              data-testid="request-edit"
            >
              <Icon name="pencil" className="size-4" />
              {t('revision.action.edit')}
            </a>
          )}
          {detail.can.withdraw && (
            <button
              type="button"
              className="hk-btn hk-btn-ghost"
              disabled={busy}
              onClick={() =>
                void (async () => {
                  if (await confirmDialog(t('revision.action.withdrawConfirm')))
                    await act(() => withdrawRequest(detail.id), t('revision.withdrawn'));
                })()
              }
            >
              <Icon name="rotate-ccw" className="size-4" />
              {t('revision.action.withdraw')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
