import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { RatingSummary } from '../../../shared/catalogue-model.ts';
import { formatScore } from '../../../shared/catalogue-format.ts';
import type { Translate } from '../../../shared/i18n/index.ts';
import { ratings, type RatingEntry } from '../../../stores/catalogue.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';
import { useViewer } from './use-viewer.ts';
import { withLocale } from '../ui/locale-context.tsx';

interface RatingPanelProps {
  galgameId: number;
  initialSummary: RatingSummary;
  initialLoggedIn: boolean;
  loginHref: string;
}

export const SCORES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** Five stars filled to the average (out of 10). */
function Stars({ avg }: { avg: number | null }) {
  const row = (className: string) => (
    <span className={`flex ${className}`}>
      {[0, 1, 2, 3, 4].map((i) => (
        <Icon key={i} name="star" className="size-4 shrink-0 fill-current" strokeWidth={1.2} />
      ))}
    </span>
  );
  return (
    <span className="relative inline-flex" aria-hidden="true">
      {row('text-zinc-200 dark:text-zinc-700')}
      <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${(avg ?? 0) * 10}%` }}>
        {row('text-amber-400')}
      </span>
    </span>
  );
}

/** The 1–10 distribution as bars, with each count on its bar. */
export function ScoreHistogram({ histogram, t }: { histogram: number[]; t: Translate }) {
  const max = Math.max(1, ...histogram);
  return (
    <ol className="flex h-28 items-end gap-1" aria-label={t('galgame.rating.histogram')} data-testid="score-histogram">
      {SCORES.map((score) => {
        const count = histogram[score - 1] ?? 0;
        return (
          <li
            key={score}
            className="flex h-full flex-1 flex-col items-center justify-end gap-1"
            aria-label={t('galgame.rating.bar', { score, count })}
            title={t('galgame.rating.bar', { score, count })}
          >
            <span className="text-[10px] leading-none text-zinc-500 dark:text-zinc-400 tabular-nums">
              {count > 0 ? count : ''}
            </span>
            <span
              className={`w-full rounded-t-sm ${count > 0 ? 'bg-primary-400 dark:bg-primary-500' : 'bg-zinc-100 dark:bg-zinc-800'}`}
              style={{ height: `${Math.max(4, (count / max) * 100)}%` }}
            />
            <span className="text-[10px] leading-none text-zinc-500 tabular-nums">{score}</span>
          </li>
        );
      })}
    </ol>
  );
}

/** The average with its stars and count, and the 1–10 distribution; "no ratings" when there are none. */
export function RatingSummaryView({ summary, t }: { summary: RatingSummary; t: Translate }) {
  if (summary.ratingAvg === null || summary.ratingCount === 0) {
    return (
      <div className="flex items-center gap-3" data-testid="rating-empty">
        <Stars avg={null} />
        <span className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="rating-count">
          {t('galgame.rating.none')}
        </span>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-end gap-3">
        <span
          className="text-4xl leading-none font-bold text-zinc-900 tabular-nums dark:text-white"
          data-testid="rating-average"
        >
          {formatScore(summary.ratingAvg)}
        </span>
        <span className="flex flex-col gap-1 pb-0.5">
          <Stars avg={summary.ratingAvg} />
          <span className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="rating-count">
            {t('galgame.rating.count', { count: summary.ratingCount })}
          </span>
        </span>
      </div>
      <ScoreHistogram histogram={summary.scoreHistogram} t={t} />
    </div>
  );
}

/** The viewer's own rating (shown, edited, deleted) loads for a logged-in viewer only. */
const viewerRating = onDemand(() => import('./RatingEditor.tsx'));

/**
 * The rating card: average, stars and the 1–10 distribution (server-rendered), then the viewer's own
 * rating to add, edit or delete. Saving updates the distribution shown.
 */
function RatingPanel({ galgameId, initialSummary, initialLoggedIn, loginHref }: RatingPanelProps) {
  const t = useT();
  const viewer = useViewer(initialLoggedIn);
  const all = useStore(ratings.$ratings);
  const [editor, loadEditor] = useOnDemand(viewerRating);

  useEffect(() => ratings.seed(galgameId, initialSummary), [galgameId, initialSummary]);
  useEffect(() => {
    if (!viewer.ready || !viewer.loggedIn) return;
    void loadEditor();
    void ratings.loadMine(galgameId).then((outcome) => {
      if (!outcome.ok) toast.error(t('galgame.rating.failed', { message: outcome.message }));
    });
  }, [galgameId, viewer.ready, viewer.loggedIn]);

  const entry: RatingEntry = (viewer.ready ? all[String(galgameId)] : undefined) ?? {
    summary: initialSummary,
    mine: null,
    loaded: false,
    pending: false,
  };

  let mine;
  if (!viewer.loggedIn) {
    mine = (
      <a href={loginHref} className="hk-btn hk-btn-ghost w-full" data-testid="rating-login">
        <Icon name="log-in" className="size-4" />
        {t('galgame.rating.login')}
      </a>
    );
  } else if (!entry.loaded || !editor) {
    mine = <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('galgame.rating.loading')}</p>;
  } else {
    mine = <editor.ViewerRating galgameId={galgameId} entry={entry} />;
  }

  return (
    <div className="flex flex-col gap-5" data-testid="rating-panel">
      <RatingSummaryView summary={entry.summary} t={t} />
      <div className="flex flex-col gap-3 border-t border-zinc-100 pt-4 dark:border-zinc-800">
        <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t('galgame.rating.mine')}</h3>
        {mine}
      </div>
    </div>
  );
}

export default withLocale(RatingPanel);
