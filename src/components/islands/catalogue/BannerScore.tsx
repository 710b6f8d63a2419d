import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { RatingSummary } from '../../../shared/catalogue-model.ts';
import { formatScore } from '../../../shared/catalogue-format.ts';
import { ratingSummaryFor, ratings, scoreLine } from '../../../stores/catalogue.ts';
import { useT } from '../ui/use-t.ts';
import { withLocale } from '../ui/locale-context.tsx';

interface BannerScoreProps {
  galgameId: number;
  initialSummary: RatingSummary;
}

/**
 * The average score in a game page's hero. It reads the same store as the rating card, so a rating
 * saved or deleted there shows here at once.
 */
function BannerScore({ galgameId, initialSummary }: BannerScoreProps) {
  const t = useT();
  const all = useStore(ratings.$ratings);
  // Until hydrated, exactly what the server rendered.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    ratings.seed(galgameId, initialSummary);
    setReady(true);
  }, [galgameId, initialSummary]);
  const line = scoreLine(ready ? ratingSummaryFor(all, galgameId, initialSummary) : initialSummary);

  return (
    <span aria-live="polite" data-testid="banner-score">
      {line ? (
        <>
          <span className="text-lg font-bold text-zinc-900 tabular-nums dark:text-white">
            {formatScore(line.average)}
          </span>{' '}
          {t('galgame.ratingCount', { count: line.count })}
        </>
      ) : (
        t('galgame.rating.none')
      )}
    </span>
  );
}

export default withLocale(BannerScore);
