import { useId, useState, type ReactNode } from 'react';
import { RATING_TEXT_MAX, type PlayStatus, type RatingView } from '../../../shared/catalogue-model.ts';
import { labelOf } from '../../../shared/catalogue-format.ts';
import type { MessageKey, Translate } from '../../../shared/i18n/index.ts';
import {
  draftFrom,
  ratings,
  type RatingDraft,
  type RatingEntry,
  type RatingErrors,
} from '../../../stores/catalogue.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import { SCORES } from './RatingPanel.tsx';

/** The order people think in: want to, playing, played, paused, dropped. */
const STATUS_ORDER: readonly PlayStatus[] = ['plan', 'playing', 'completed', 'on_hold', 'dropped'];

const fieldLabel = 'text-xs font-medium text-zinc-500 dark:text-zinc-400';
const errorText = 'text-xs text-rose-600 dark:text-rose-400';

/** The 1–10 score as a row of radio buttons, filled up to the score picked (or hovered), with its words. */
export function ScorePicker({
  name,
  score: picked,
  onPick,
  error,
  t,
}: {
  name: string;
  score: number | null;
  onPick: (score: number) => void;
  error: ReactNode;
  t: Translate;
}) {
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? picked;
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className={`${fieldLabel} mb-1.5 flex w-full justify-between`}>
        <span>{t('galgame.rating.score')}</span>
        <span className="text-accent">
          {shown
            ? `${t('galgame.rating.points', { score: shown })} · ${t(`galgame.score.${shown}` as MessageKey)}`
            : ''}
        </span>
      </legend>
      <div className="grid grid-cols-10 gap-1" onMouseLeave={() => setHover(null)}>
        {SCORES.map((score) => (
          <label key={score} className="relative" onMouseEnter={() => setHover(score)}>
            <input
              type="radio"
              name={name}
              value={score}
              checked={picked === score}
              onChange={() => onPick(score)}
              className="peer sr-only"
              aria-label={`${t('galgame.rating.points', { score })} ${t(`galgame.score.${score}` as MessageKey)}`}
            />
            <span
              className={`flex h-8 cursor-pointer items-center justify-center rounded-md text-xs font-semibold tabular-nums ring-1 transition-colors peer-focus-visible:outline-2 peer-focus-visible:outline-focus ${
                picked !== null && score <= picked
                  ? 'bg-accent-strong text-on-accent ring-primary'
                  : hover !== null && score <= hover
                    ? 'bg-primary-100 text-accent ring-primary-200 dark:bg-primary-900/50 dark:ring-primary-800'
                    : 'bg-white text-zinc-600 ring-zinc-200 dark:bg-zinc-900 dark:text-zinc-300 dark:ring-zinc-700'
              }`}
            >
              {score}
            </span>
          </label>
        ))}
      </div>
      {error}
    </fieldset>
  );
}

function RatingForm({
  initial,
  pending,
  editing,
  onSubmit,
  onCancel,
  t,
}: {
  initial: RatingDraft;
  pending: boolean;
  editing: boolean;
  onSubmit: (draft: RatingDraft) => Promise<RatingErrors | null>;
  onCancel: () => void;
  t: Translate;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<RatingErrors>({});
  const id = useId();
  const set = (patch: Partial<RatingDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = async () => setErrors((await onSubmit(draft)) ?? {});
  const error = (key: MessageKey | undefined, params?: Record<string, number>) =>
    key ? <p className={errorText}>{t(key, params)}</p> : null;

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <ScorePicker
        name={`${id}-score`}
        score={draft.score}
        onPick={(score) => set({ score })}
        error={error(errors.score)}
        t={t}
      />

      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-status`} className={fieldLabel}>
          {t('galgame.rating.status')}
        </label>
        <select
          id={`${id}-status`}
          value={draft.status}
          onChange={(event) => set({ status: event.target.value as RatingDraft['status'] })}
          className="h-9 rounded-lg border-0 bg-white px-2.5 text-sm ring-1 ring-zinc-200 focus:ring-2 focus:ring-focus dark:bg-zinc-900 dark:ring-zinc-700"
        >
          <option value="" disabled>
            {t('galgame.rating.pickStatus')}
          </option>
          {STATUS_ORDER.map((status) => (
            <option key={status} value={status}>
              {labelOf(t, 'playStatus', status)}
            </option>
          ))}
        </select>
        {error(errors.status)}
      </div>

      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-text`} className={`${fieldLabel} flex justify-between`}>
          <span>{t('galgame.rating.text')}</span>
          <span className="font-normal tabular-nums">
            {t('galgame.rating.chars', { count: [...draft.text].length, max: RATING_TEXT_MAX })}
          </span>
        </label>
        <textarea
          id={`${id}-text`}
          rows={3}
          value={draft.text}
          maxLength={RATING_TEXT_MAX}
          placeholder={t('galgame.rating.textPlaceholder')}
          onChange={(event) => set({ text: event.target.value })}
          className="resize-y rounded-lg border-0 bg-white px-3 py-2 text-sm leading-6 ring-1 ring-zinc-200 placeholder:text-zinc-500 focus:ring-2 focus:ring-focus dark:bg-zinc-900 dark:ring-zinc-700"
        />
        {error(errors.text, { max: RATING_TEXT_MAX })}
        <label className="flex w-fit cursor-pointer items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300">
          <input
            type="checkbox"
            checked={draft.spoiler}
            onChange={(event) => set({ spoiler: event.target.checked })}
            className="size-4 rounded accent-primary"
          />
          {t('galgame.rating.spoiler')}
        </label>
      </div>

      <div className="flex gap-2">
        <button type="submit" className="hk-btn hk-btn-primary flex-1" disabled={pending}>
          {pending ? t('galgame.rating.saving') : t('galgame.rating.save')}
        </button>
        {editing && (
          <button type="button" className="hk-btn hk-btn-ghost" onClick={onCancel} disabled={pending}>
            {t('galgame.rating.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

function MyRating({
  rating,
  pending,
  onEdit,
  onDelete,
  t,
}: {
  rating: RatingView;
  pending: boolean;
  onEdit: () => void;
  onDelete: () => void;
  t: Translate;
}) {
  return (
    <div className="flex flex-col gap-3" data-testid="my-rating">
      <div className="flex flex-wrap items-center gap-2">
        <span className="inline-flex items-center gap-1 rounded-lg bg-primary/10 px-2.5 py-1 text-sm font-semibold text-accent">
          <Icon name="star" className="size-3.5 fill-current" />
          {t('galgame.rating.points', { score: rating.score })}
          <span className="font-normal">· {t(`galgame.score.${rating.score}` as MessageKey)}</span>
        </span>
        <span className="rounded-lg bg-zinc-100 px-2 py-1 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          {labelOf(t, 'playStatus', rating.status)}
        </span>
        {rating.spoiler && (
          <span className="rounded-lg bg-amber-50 px-2 py-1 text-xs text-amber-700 dark:bg-amber-500/10 dark:text-amber-300">
            {t('galgame.rating.spoilerMark')}
          </span>
        )}
      </div>
      {rating.text && (
        <p className="text-sm leading-6 break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">
          {rating.text}
        </p>
      )}
      <div className="flex gap-2">
        <button type="button" className="hk-btn hk-btn-ghost h-8 px-3" onClick={onEdit} disabled={pending}>
          <Icon name="pencil" className="size-3.5" />
          {t('galgame.rating.edit')}
        </button>
        <button
          type="button"
          className="hk-btn h-8 px-3 text-rose-600 ring-1 ring-rose-200 hover:bg-rose-50 dark:text-rose-400 dark:ring-rose-500/30 dark:hover:bg-rose-500/10"
          onClick={onDelete}
          disabled={pending}
        >
          <Icon name="trash" className="size-3.5" />
          {t('galgame.rating.delete')}
        </button>
      </div>
    </div>
  );
}

/**
 * The logged-in viewer's own rating in the rating card: shown with edit and delete, or the form to
 * add or change it. Loaded by the card for a logged-in viewer only.
 */
export function ViewerRating({ galgameId, entry }: { galgameId: number; entry: RatingEntry }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const save = async (draft: RatingDraft): Promise<RatingErrors | null> => {
    const outcome = await ratings.save(galgameId, draft);
    if (outcome.ok) {
      toast.success(t('galgame.rating.saved'));
      setEditing(false);
      return null;
    }
    if ('errors' in outcome) return outcome.errors;
    if (outcome.message) toast.error(t('galgame.rating.failed', { message: outcome.message }));
    return null;
  };
  const remove = async () => {
    if (!(await confirmDialog(t('galgame.rating.deleteConfirm')))) return;
    const outcome = await ratings.remove(galgameId);
    if (outcome.ok) {
      toast.success(t('galgame.rating.deleted'));
      setEditing(false);
    } else if (outcome.message) toast.error(t('galgame.rating.failed', { message: outcome.message }));
  };

  if (entry.mine && !editing) {
    return (
      <MyRating
        rating={entry.mine}
        pending={entry.pending}
        onEdit={() => setEditing(true)}
        onDelete={() => void remove()}
        t={t}
      />
    );
  }
  return (
    <RatingForm
      key={entry.mine?.updatedAt ?? 'new'}
      initial={draftFrom(entry.mine)}
      pending={entry.pending}
      editing={editing}
      onSubmit={save}
      onCancel={() => setEditing(false)}
      t={t}
    />
  );
}
