import { useEffect, useId, useRef, useState } from 'react';
import type { ReportTargetType } from '../../../shared/reactions/reactions.ts';
import {
  REPORT_REASON_ORDER,
  REPORT_TEXT_LIMIT,
  reportProblem,
  reports,
  type ReportDraft,
} from '../../../stores/reactions.ts';
import { toast } from '../../../stores/toast.ts';
import { Modal } from '../ui/Modal.tsx';
import { useT } from '../ui/use-t.ts';

export interface ReportDialogProps {
  open: boolean;
  onClose: () => void;
  targetType: ReportTargetType;
  targetId: number;
}

const EMPTY: ReportDraft = { reason: '', text: '' };

/**
 * The report form in a modal: a reason (radio group) and optional details. Loaded when a report button is
 * first used (it brings the modal's Radix code). Sent once at a time; the server's answer shows as a toast.
 */
export function ReportDialog({ open, onClose, targetType, targetId }: ReportDialogProps) {
  const t = useT();
  const [draft, setDraft] = useState<ReportDraft>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const formId = useId();
  const errorId = useId();
  const textId = useId();
  const firstReason = useRef<HTMLInputElement>(null);

  // Each opening starts with an empty form.
  useEffect(() => {
    if (!open) return;
    setDraft(EMPTY);
    setProblem(null);
  }, [open]);

  const submit = async () => {
    const found = reportProblem(draft);
    if (found) {
      setProblem(t(found, { max: REPORT_TEXT_LIMIT }));
      if (found === 'discussion.report.pickReason') firstReason.current?.focus();
      return;
    }
    setSending(true);
    const outcome = await reports.send(targetType, targetId, draft);
    setSending(false);
    if (outcome.ok) {
      toast.success(outcome.message);
      onClose();
    } else if (!('busy' in outcome)) {
      toast.error(outcome.message);
      // A second report of the same item waits for the moderators: nothing to change in the form.
      if (outcome.code === 'ALREADY_REPORTED') onClose();
    }
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('discussion.report.title')}
      footer={
        <>
          <button type="button" className="hk-btn hk-btn-ghost" onClick={onClose}>
            {t('discussion.report.cancel')}
          </button>
          <button type="submit" form={formId} className="hk-btn hk-btn-primary" disabled={sending}>
            {sending ? t('discussion.report.sending') : t('discussion.report.send')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="flex flex-col gap-4 pb-2"
        noValidate
      >
        <fieldset aria-describedby={problem ? errorId : undefined}>
          <legend className="mb-2 text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('discussion.report.reason')}
          </legend>
          <div className="grid grid-cols-1 gap-2 xs:grid-cols-2" data-testid="report-reasons">
            {REPORT_REASON_ORDER.map((reason, index) => (
              <label
                key={reason}
                className="flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-zinc-200 has-[:checked]:bg-primary-50 has-[:checked]:ring-accent dark:ring-zinc-700 dark:has-[:checked]:bg-primary-900/40"
              >
                <input
                  ref={index === 0 ? firstReason : undefined}
                  type="radio"
                  name={`${formId}-reason`}
                  value={reason}
                  checked={draft.reason === reason}
                  onChange={() => {
                    setDraft((current) => ({ ...current, reason }));
                    setProblem(null);
                  }}
                  className="size-4 accent-[var(--hk-accent-strong)]"
                />
                {t(`discussion.report.reason.${reason}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={textId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('discussion.report.text')}
          </label>
          <textarea
            id={textId}
            rows={3}
            maxLength={REPORT_TEXT_LIMIT}
            value={draft.text}
            onChange={(event) => {
              const text = event.target.value;
              setDraft((current) => ({ ...current, text }));
            }}
            className="block w-full resize-y rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900"
          />
          <span className="self-end text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
            {t('discussion.report.counter', { length: draft.text.length, max: REPORT_TEXT_LIMIT })}
          </span>
        </div>
        {problem && (
          <p id={errorId} role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {problem}
          </p>
        )}
      </form>
    </Modal>
  );
}
