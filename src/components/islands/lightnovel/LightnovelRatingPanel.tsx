import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { RatingSummary } from '../../../shared/catalogue-model.ts';
import { lightnovelRatings, type LightnovelRatingEntry } from '../../../stores/lightnovel-ratings.ts';
import { toast } from '../../../stores/toast.ts';
import { RatingSummaryView } from '../catalogue/RatingPanel.tsx';
import { useViewer } from '../catalogue/use-viewer.ts';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';

interface LightnovelRatingPanelProps {
  lightnovelId: number;
  initialSummary: RatingSummary;
  initialLoggedIn: boolean;
  loginHref: string;
}

/** The viewer's own rating (shown, edited, deleted) loads for a logged-in viewer only. */
const viewerRating = onDemand(() => import('./LightnovelRatingEditor.tsx'));

/**
 * A series' rating card, as a game's: average, stars and the 1–10 distribution (server-rendered), then
 * the viewer's own score and short text to add, edit or delete; visitors get a link to log in.
 */
function LightnovelRatingPanel({
  lightnovelId,
  initialSummary,
  initialLoggedIn,
  loginHref,
}: LightnovelRatingPanelProps) {
  const t = useT();
  const viewer = useViewer(initialLoggedIn);
  const all = useStore(lightnovelRatings.$ratings);
  const [editor, loadEditor] = useOnDemand(viewerRating);

  useEffect(() => lightnovelRatings.seed(lightnovelId, initialSummary), [lightnovelId, initialSummary]);
  useEffect(() => {
    if (!viewer.ready || !viewer.loggedIn) return;
    void loadEditor();
    void lightnovelRatings.loadMine(lightnovelId).then((outcome) => {
      if (!outcome.ok) toast.error(t('galgame.rating.failed', { message: outcome.message }));
    });
  }, [lightnovelId, viewer.ready, viewer.loggedIn]);

  const entry: LightnovelRatingEntry = (viewer.ready ? all[String(lightnovelId)] : undefined) ?? {
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
    mine = <editor.ViewerLightnovelRating lightnovelId={lightnovelId} entry={entry} />;
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

export default withLocale(LightnovelRatingPanel);
