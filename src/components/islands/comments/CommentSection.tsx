import { useEffect, useState } from 'react';
import type { CommentPage, CommentSort } from '../../../shared/comments/comments.ts';
import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import type { TargetType } from '../../../shared/targets.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { deferredPart, useFirstUse } from '../reactions/deferred.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { onDemand } from '../ui/on-demand.ts';
import type * as BodyModule from './CommentSectionBody.tsx';
import type { CommentSectionBodyProps } from './CommentSectionBody.tsx';

export interface CommentSectionProps {
  targetType: TargetType;
  targetId: number;
  /** The first page as the server read it for everyone (no viewer flags), or null to read it here. */
  initial: CommentPage | null;
  sort?: CommentSort;
  /** /login with the way back to this section. */
  loginHref?: string;
  /** Whether the request that rendered the page had a login (the composer or the login prompt first). */
  initialLoggedIn?: boolean;
  /** When the page was rendered (ms): "3 分钟前" reads the same on the server and in the first render. */
  renderedAt?: number;
  /** The page's image bed, as the server knows it (avatars and emoji get the same addresses on both sides). */
  imageOptions?: ImageUrlOptions;
  /** Emoji of the first page the server resolved (code → image address). */
  emoji?: Readonly<Record<string, string>>;
}

// A visitor reads comments far more often than writing one, and the server already rendered them: the
// section's code (its store, the threads, likes, dialogs, dates) loads when they reach for it, when the
// address names a comment, or at once for a member (deferred.tsx).
const body = deferredPart<CommentSectionBodyProps>(
  onDemand<typeof BodyModule>(() => import('./CommentSectionBody.tsx')),
  import.meta.env.SSR ? await import('./CommentSectionBody.tsx') : null,
);

const NO_EMOJI: Readonly<Record<string, string>> = {};
const NO_IMAGE_OPTIONS: ImageUrlOptions = { imageBedUrl: '', allowedHosts: [] };
const COMMENT_HASH = /^#comment-\d+$/;

/**
 * The comments of one target (decision 018): count, sort (hot/new), the composer (a login prompt for
 * visitors), roots page by page with their replies, likes, replies, delete, pin and report
 * (CommentSectionBody). This island decides when that code loads.
 */
function CommentSection({
  targetType,
  targetId,
  initial,
  sort = 'hot',
  loginHref = '/login',
  initialLoggedIn = false,
  renderedAt,
  imageOptions = NO_IMAGE_OPTIONS,
  emoji = NO_EMOJI,
}: CommentSectionProps) {
  const viewer = useViewer(initialLoggedIn);
  const [rendered] = useState(() => renderedAt ?? Date.now());
  const { region, onReady } = useFirstUse<HTMLDivElement>(
    body.load,
    // A member's likes and rights and the composer; a section the server did not read.
    viewer.ready && (viewer.loggedIn || initial === null),
  );
  useEffect(() => {
    const named = () => {
      if (COMMENT_HASH.test(window.location.hash)) body.load();
    };
    named();
    window.addEventListener('hashchange', named);
    return () => window.removeEventListener('hashchange', named);
  }, []);

  return (
    <div ref={region}>
      <body.Part
        targetType={targetType}
        targetId={targetId}
        initial={initial}
        sort={sort}
        loginHref={loginHref}
        initialLoggedIn={initialLoggedIn}
        renderedAt={rendered}
        imageOptions={imageOptions}
        emoji={emoji}
        onReady={onReady}
      />
    </div>
  );
}

export default withLocale(CommentSection);
