import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { CommentPage, CommentSort } from '../../../shared/comments/comments.ts';
import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import type { TargetType } from '../../../shared/targets.ts';
import { COMMENT_TEXT_LIMIT, commentSection, hasMoreRoots, type CommentSection } from '../../../stores/comments.ts';
import { $session } from '../../../stores/session.ts';
import { toast } from '../../../stores/toast.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import { CommentComposer } from './CommentComposer.tsx';
import CommentList from './CommentList.tsx';

export interface CommentSectionBodyProps {
  targetType: TargetType;
  targetId: number;
  initial: CommentPage | null;
  sort: CommentSort;
  loginHref: string;
  initialLoggedIn: boolean;
  renderedAt: number;
  imageOptions: ImageUrlOptions;
  emoji: Readonly<Record<string, string>>;
}

const SORTS: readonly CommentSort[] = ['hot', 'new'];

/**
 * The comment section itself (see CommentSection.tsx, which loads it): count, sort (hot/new), the
 * composer or the login prompt, and the threads. With a login, page 1 is read again for the viewer's
 * flags (liked, may delete, may pin): the server's HTML is the same for everyone.
 */
export default function CommentSectionBody({
  targetType,
  targetId,
  initial,
  sort,
  loginHref,
  initialLoggedIn,
  renderedAt,
  imageOptions,
  emoji,
}: CommentSectionBodyProps) {
  const t = useT();
  const viewer = useViewer(initialLoggedIn);
  const session = useStore($session);
  const [section] = useState<CommentSection>(() => commentSection({ targetType, targetId, sort, initial }));
  const state = useStore(section.$state);
  const headingId = `comments-${targetType}-${targetId}-title`;

  // The page is the same for everyone: a member's likes and rights come with a second read.
  useEffect(() => {
    if (!viewer.ready) return;
    if (viewer.loggedIn) void section.load({ viewer: true });
    else if (!initial) void section.load({ viewer: false });
  }, [viewer.ready, viewer.loggedIn]);

  const postRoot = async (text: string) => {
    const outcome = await section.post(text);
    if (outcome.ok) {
      toast.success(outcome.message);
      return true;
    }
    if ('problem' in outcome) toast.warning(t(outcome.problem, { max: COMMENT_TEXT_LIMIT }));
    else if (!('busy' in outcome)) toast.error(outcome.message);
    return false;
  };
  const switchSort = async (next: CommentSort) => {
    if (next === state.sort && state.loading === null) return;
    const outcome = await section.load({ sort: next, viewer: viewer.loggedIn });
    if (!outcome.ok) toast.error(outcome.message);
  };
  const more = async () => {
    const outcome = await section.loadMore();
    if (!outcome.ok && !('busy' in outcome)) toast.error(outcome.message);
  };

  const empty = state.threads.length === 0;

  return (
    <section
      id="comments"
      aria-labelledby={headingId}
      className="hk-card scroll-mt-20 p-5 sm:p-6"
      data-testid="comment-section"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} tabIndex={-1} className="hk-panel-title mb-0 focus:outline-none">
          <Icon name="message-circle" className="size-4 text-accent" />
          {t('discussion.title')}
          <span className="hk-panel-aside tabular-nums" data-testid="comment-count">
            {state.total}
          </span>
        </h2>
        <div
          role="group"
          aria-label={t('discussion.sort.label')}
          className="inline-flex rounded-lg bg-zinc-100 p-0.5 text-sm dark:bg-zinc-800"
        >
          {SORTS.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={state.sort === option}
              onClick={() => void switchSort(option)}
              className={`rounded-md px-3 py-1 transition-colors ${
                state.sort === option
                  ? 'bg-white font-medium text-accent shadow-sm dark:bg-zinc-900'
                  : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100'
              }`}
            >
              {t(`discussion.sort.${option}`)}
            </button>
          ))}
        </div>
      </div>

      {viewer.loggedIn ? (
        <CommentComposer
          label={t('discussion.composer.label')}
          sendLabel={t('discussion.composer.send')}
          userId={session?.userId ?? 0}
          sending={state.posting}
          onSend={postRoot}
          testId="comment-composer"
        />
      ) : (
        <p
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-zinc-50 px-4 py-3 text-sm text-zinc-600 ring-1 ring-zinc-200 dark:bg-zinc-800/50 dark:text-zinc-400 dark:ring-zinc-700"
          data-testid="comment-login-prompt"
        >
          {t('discussion.composer.loginPrompt')}
          <a href={loginHref} className="hk-btn hk-btn-primary h-8 px-3">
            {t('discussion.composer.login')}
          </a>
        </p>
      )}

      <CommentList
        section={section}
        headingId={headingId}
        initialLoggedIn={initialLoggedIn}
        renderedAt={renderedAt}
        imageOptions={imageOptions}
        emoji={emoji}
      />

      {state.error && empty ? (
        <div role="alert" className="flex flex-col items-center gap-3 py-8 text-sm text-zinc-600 dark:text-zinc-400">
          {t('discussion.loadFailed', { message: state.error })}
          <button
            type="button"
            className="hk-btn hk-btn-ghost"
            onClick={() => void section.load({ viewer: viewer.loggedIn })}
          >
            {t('discussion.retry')}
          </button>
        </div>
      ) : (
        empty && (
          <p className="py-8 text-center text-sm text-zinc-600 dark:text-zinc-400" data-testid="comments-empty">
            {state.loading === 'replace' || (state.page === 0 && !state.error)
              ? t('discussion.loading')
              : t('discussion.empty')}
          </p>
        )
      )}

      {hasMoreRoots(state) ? (
        <div className="mt-4 flex justify-center">
          <button
            type="button"
            className="hk-btn hk-btn-ghost"
            onClick={() => void more()}
            disabled={state.loading !== null}
            aria-busy={state.loading === 'more' || undefined}
          >
            {state.loading === 'more' ? t('discussion.loading') : t('discussion.more')}
          </button>
        </div>
      ) : (
        state.totalPages > 1 && (
          <p className="mt-4 text-center text-xs text-zinc-600 dark:text-zinc-400">{t('discussion.end')}</p>
        )
      )}
    </section>
  );
}
