import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import type { LightnovelRatingView } from '../../../shared/lightnovel/ratings.contract.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import Avatar from '../display/Avatar.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import { withLocale } from '../ui/locale-context.tsx';

interface LightnovelRatingListProps {
  ratings: LightnovelRatingView[];
  /** The time the page was rendered, for "3 days ago". */
  now: number;
  imageOptions: ImageUrlOptions;
}

/**
 * A series' newest ratings: who, the score, when, and their short text. Rendered on the server only
 * (no client directive): it is plain HTML.
 */
function LightnovelRatingList({ ratings, now, imageOptions }: LightnovelRatingListProps) {
  const t = useT();
  const locale = useLocale();
  if (ratings.length === 0) {
    return <p className="py-6 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('galgame.detail.noRatings')}</p>;
  }
  return (
    <ol className="-my-4 divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="recent-ratings">
      {ratings.map((rating) => (
        <li
          key={rating.id}
          id={`rating-${rating.id}`}
          className="flex scroll-mt-24 gap-3 py-4"
          data-testid="rating-item"
        >
          <a
            href={`/space/${rating.user.userId}`}
            className="shrink-0"
            tabIndex={-1}
            aria-hidden="true"
            data-user-card={rating.user.userId}
          >
            <Avatar src={rating.user.avatar} name="" imageOptions={imageOptions} />
          </a>
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
              <a
                href={`/space/${rating.user.userId}`}
                className="font-medium text-zinc-900 hover:text-accent dark:text-zinc-100"
                data-user-card={rating.user.userId}
                data-testid="rating-author"
              >
                {rating.user.name}
              </a>
              <span className="inline-flex items-center gap-0.5 font-semibold text-amber-700 tabular-nums dark:text-amber-400">
                ★ {rating.score}
              </span>
              <time dateTime={rating.updatedAt} className="ml-auto text-xs text-zinc-500 dark:text-zinc-400">
                {timeAgo(rating.updatedAt, now, locale)}
              </time>
            </div>
            {rating.text && (
              <p className="text-sm leading-6 break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">
                {rating.text}
              </p>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}

export default withLocale(LightnovelRatingList);
