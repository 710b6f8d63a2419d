import { useId, useState } from 'react';
import type { MessageKey, Translate } from '../../../shared/i18n/index.ts';
import { LIGHTNOVEL_RATING_TEXT_MAX } from '../../../shared/lightnovel/lightnovel-model.ts';
import type { LightnovelRatingView } from '../../../shared/lightnovel/ratings.contract.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import {
  lightnovelDraftFrom,
  lightnovelRatings,
  type LightnovelRatingDraft,
  type LightnovelRatingEntry,
  type LightnovelRatingErrors,
} from '../../../stores/lightnovel-ratings.ts';
import { toast } from '../../../stores/toast.ts';
import { ScorePicker } from '../catalogue/RatingEditor.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';

const fieldLabel = 'text-xs font-medium text-zinc-500 dark:text-zinc-400';
const errorText = 'text-xs text-rose-600 dark:text-rose-400';

function RatingForm({
  initial,
  pending,
  editing,
  onSubmit,
  onCancel,
  t,
}: {
  initial: LightnovelRatingDraft;
  pending: boolean;
  editing: boolean;
  onSubmit: (draft: LightnovelRatingDraft) => Promise<LightnovelRatingErrors | null>;
  onCancel: () => void;
  t: Translate;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<LightnovelRatingErrors>({});
  const id = useId();
  const error = (key: MessageKey | undefined, params?: Record<string, number>) =>
    key ? <p className={errorText}>{t(key, params)}</p> : null;

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit(draft).then((found) => setErrors(found ?? {}));
      }}
      noValidate
    >
      <ScorePicker
        name={`${id}-score`}
        score={draft.score}
        onPick={(score) => setDraft((d) => ({ ...d, score }))}
        error={error(errors.score)}
        t={t}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-text`} className={`${fieldLabel} flex justify-between`}>
          <span>{t('galgame.rating.text')}</span>
          <span className="font-normal tabular-nums">
            {t('galgame.rating.chars', { count: draft.text.length, max: LIGHTNOVEL_RATING_TEXT_MAX })}
          </span>
        </label>
        <textarea
          id={`${id}-text`}
          rows={3}
          value={draft.text}
          maxLength={LIGHTNOVEL_RATING_TEXT_MAX}
          placeholder={t('galgame.rating.textPlaceholder')}
          onChange={(event) => setDraft((d) => ({ ...d, text: event.target.value }))}
          className="resize-y rounded-lg border-0 bg-white px-3 py-2 text-sm leading-6 ring-1 ring-zinc-200 placeholder:text-zinc-500 focus:ring-2 focus:ring-focus dark:bg-zinc-900 dark:ring-zinc-700"
        />
        {error(errors.text, { max: LIGHTNOVEL_RATING_TEXT_MAX })}
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
  rating: LightnovelRatingView;
  pending: boolean;
  onEdit: () => void;
  onDelete: () => void;
  t: Translate;
}) {
  return (
    <div className="flex flex-col gap-3" data-testid="my-rating">
      <span className="inline-flex w-fit items-center gap-1 rounded-lg bg-primary/10 px-2.5 py-1 text-sm font-semibold text-accent">
        <Icon name="star" className="size-3.5 fill-current" />
        {t('galgame.rating.points', { score: rating.score })}
        <span className="font-normal">· {t(`galgame.score.${rating.score}` as MessageKey)}</span>
      </span>
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
 * The logged-in viewer's own rating of a series: shown with edit and delete, or the form to add or
 * change it. Loaded by the rating card for a logged-in viewer only.
 */
export function ViewerLightnovelRating({
  lightnovelId,
  entry,
}: {
  lightnovelId: number;
  entry: LightnovelRatingEntry;
}) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const save = async (draft: LightnovelRatingDraft): Promise<LightnovelRatingErrors | null> => {
    const outcome = await lightnovelRatings.save(lightnovelId, draft);
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
    const outcome = await lightnovelRatings.remove(lightnovelId);
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
      initial={lightnovelDraftFrom(entry.mine)}
      pending={entry.pending}
      editing={editing}
      onSubmit={save}
      onCancel={() => setEditing(false)}
      t={t}
    />
  );
}
