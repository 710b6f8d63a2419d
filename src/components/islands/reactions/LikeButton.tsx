import type { LikeTargetType } from '../../../shared/reactions/reactions.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { onDemand } from '../ui/on-demand.ts';
import { deferredPart, useFirstUse } from './deferred.tsx';
import type * as LikeControlModule from './LikeControl.tsx';

export interface LikeButtonProps {
  targetType: LikeTargetType;
  targetId: number;
  /** The like count the page was read with. */
  count: number;
  /** The viewer's like when the page knows it; left out, a logged-in viewer's is asked for (in batches). */
  liked?: boolean;
  size?: 'sm' | 'md';
}

// The button's code (the likes store) loads for a member at once, for a visitor when they reach for it.
const like = deferredPart<LikeButtonProps>(
  onDemand<typeof LikeControlModule>(() => import('./LikeControl.tsx')),
  import.meta.env.SSR ? await import('./LikeControl.tsx') : null,
);

/**
 * Like an item (an island for pages that show one: ratings, posts, articles): optimistic, one request
 * at a time, rolled back with the server's message when refused; visitors are asked to log in
 * (LikeControl). The server renders the count for everyone.
 */
function LikeButton(props: LikeButtonProps) {
  const viewer = useViewer(false);
  const { region, onReady } = useFirstUse<HTMLSpanElement>(like.load, viewer.ready && viewer.loggedIn);
  return (
    <span ref={region} className="contents">
      <like.Part {...props} onReady={onReady} />
    </span>
  );
}

export default withLocale(LikeButton);
