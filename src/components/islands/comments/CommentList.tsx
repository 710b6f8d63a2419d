import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommentView } from '../../../shared/comments/comments.ts';
import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import { COMMENT_TEXT_LIMIT, hasMoreReplies, type CommentSection, type PostOutcome } from '../../../stores/comments.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { $session } from '../../../stores/session.ts';
import { toast } from '../../../stores/toast.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { useKnownEmojiRendering } from '../media/use-emoji.ts';
import { useT } from '../ui/use-t.ts';
import { CommentComposer } from './CommentComposer.tsx';
import { CommentItem } from './CommentItem.tsx';

export interface CommentListProps {
  section: CommentSection;
  headingId: string;
  initialLoggedIn: boolean;
  renderedAt: number;
  imageOptions: ImageUrlOptions;
  /** Emoji of the first page the server resolved (code → image address). */
  emoji: Readonly<Record<string, string>>;
}

const HIGHLIGHT_MS = 2500;
const COMMENT_HASH = /^#comment-(\d+)$/;

/** Now, for relative times: the render time until hydrated, then the clock, once a minute. */
function useNow(renderedAt: number): number {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The threads of a comment section: roots with their replies, reply forms, likes, delete, pin and report.
 * Its code loads on first use (or at once with a login); until then the server's HTML of it stays as it
 * is, and the section around it (count, sort, composer) already works.
 */
export default function CommentList({
  section,
  headingId,
  initialLoggedIn,
  renderedAt,
  imageOptions,
  emoji: known,
}: CommentListProps) {
  const t = useT();
  const viewer = useViewer(initialLoggedIn);
  const session = useStore($session);
  const state = useStore(section.$state);
  const [hydrated, setHydrated] = useState(false);
  const now = useNow(renderedAt);
  const emoji = useKnownEmojiRendering(known, imageOptions);
  const [replying, setReplying] = useState<{ rootId: number; parent: CommentView } | null>(null);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const highlightTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const hashShown = useRef(false);

  useEffect(() => {
    setHydrated(true);
    return () => void (highlightTimer.current && clearTimeout(highlightTimer.current));
  }, []);

  const flash = useCallback((id: number) => {
    if (highlightTimer.current) clearTimeout(highlightTimer.current);
    setHighlighted(id);
    highlightTimer.current = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
  }, []);

  // #comment-{id}: scroll to it and mark it, once it is shown (after a member's second read, too).
  const showHashed = useCallback(() => {
    const match = COMMENT_HASH.exec(window.location.hash);
    if (!match) return true;
    const element = document.getElementById(`comment-${match[1]}`);
    if (!element) return false;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView({ block: 'center', behavior: still ? 'auto' : 'smooth' });
    element.focus({ preventScroll: true });
    flash(Number(match[1]));
    return true;
  }, [flash]);
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    // A read of page 1 replaces the list, dropping a thread read for the link: it is read again after.
    if (state.loading === 'replace') revealed.current = null;
    if (!hydrated || hashShown.current || state.loading !== null) return;
    hashShown.current = showHashed();
    // A comment further down (another page of roots or replies): its thread is read once, then shown.
    const match = COMMENT_HASH.exec(window.location.hash);
    if (!hashShown.current && match && revealed.current !== match[1]) {
      revealed.current = match[1]!;
      void section.reveal(Number(match[1]));
    }
  }, [hydrated, state.threads, state.loading, showHashed, section]);
  useEffect(() => {
    const onHash = () => void showHashed();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [showHashed]);

  // A comment the viewer just posted (here or in the section's composer) is marked.
  useEffect(() => {
    if (state.justPosted !== null) flash(state.justPosted);
  }, [state.justPosted, flash]);

  const postReply = async (text: string) => {
    if (!replying) return false;
    const outcome: PostOutcome | { ok: false; busy: true } = await section.post(text, replying.parent);
    if (!outcome.ok) {
      if ('problem' in outcome) toast.warning(t(outcome.problem, { max: COMMENT_TEXT_LIMIT }));
      else if (!('busy' in outcome)) toast.error(outcome.message);
      return false;
    }
    toast.success(outcome.message);
    setReplying(null);
    requestAnimationFrame(() => document.getElementById(`comment-${outcome.comment.id}`)?.focus());
    return true;
  };

  const openReply = (comment: CommentView) => {
    if (!viewer.loggedIn) {
      toast.warning(t('discussion.loginFirst'));
      return;
    }
    setReplying((current) =>
      current?.parent.id === comment.id ? null : { rootId: comment.rootId ?? comment.id, parent: comment },
    );
  };
  const remove = async (comment: CommentView) => {
    const keepsPlace = comment.rootId === null && comment.replyCount > 0;
    const sure = await confirmDialog({
      title: t('discussion.delete.title'),
      message: t(keepsPlace ? 'discussion.delete.confirmWithReplies' : 'discussion.delete.confirm'),
      confirmText: t('discussion.delete'),
    });
    if (!sure) return;
    const outcome = await section.remove(comment.id);
    if (outcome.ok) {
      toast.success(outcome.message);
      if (replying?.parent.id === comment.id) setReplying(null);
      // The comment (and the focus with it) may be gone: keep the keyboard in the section.
      requestAnimationFrame(() => {
        if (!document.activeElement || document.activeElement === document.body)
          document.getElementById(headingId)?.focus();
      });
    } else if (!('busy' in outcome)) toast.error(outcome.message);
  };
  const pin = async (comment: CommentView) => {
    const outcome = await section.pin(comment.id, !comment.pinned);
    if (outcome.ok) toast.success(outcome.message);
    else if (!('busy' in outcome)) toast.error(outcome.message);
  };
  const moreReplies = async (rootId: number) => {
    const outcome = await section.loadReplies(rootId);
    if (!outcome.ok && !('busy' in outcome)) toast.error(outcome.message);
  };

  if (state.threads.length === 0) return null;
  const myUserId = viewer.ready ? (session?.userId ?? null) : null;
  const itemProps = (comment: CommentView) => ({
    comment,
    now,
    highlighted: highlighted === comment.id,
    busy: state.busy[comment.id] === true,
    viewerKnown: state.viewerKnown,
    myUserId,
    replying: replying?.parent.id === comment.id,
    onReply: openReply,
    onDelete: (target: CommentView) => void remove(target),
    onPin: (target: CommentView) => void pin(target),
    imageOptions,
    emoji,
  });
  const replacing = state.loading === 'replace';

  return (
    <ol
      aria-busy={replacing || undefined}
      aria-labelledby={headingId}
      className={`mt-4 divide-y divide-zinc-100 transition-opacity dark:divide-zinc-800 ${replacing ? 'opacity-60' : ''}`}
      data-testid="comment-list"
    >
      {state.threads.map((thread) => (
        <li key={thread.comment.id} className="py-1">
          <CommentItem {...itemProps(thread.comment)}>
            {thread.replies.length > 0 && (
              <ol
                aria-label={t('discussion.replies.label', { name: thread.comment.author.name })}
                className="mt-2 flex flex-col rounded-lg bg-zinc-50 px-3 py-1.5 dark:bg-zinc-800/40"
              >
                {thread.replies.map((reply) => (
                  <li key={reply.id}>
                    <CommentItem {...itemProps(reply)} />
                  </li>
                ))}
              </ol>
            )}
            {hasMoreReplies(thread) && (
              <button
                type="button"
                onClick={() => void moreReplies(thread.comment.id)}
                disabled={thread.loadingReplies}
                aria-busy={thread.loadingReplies || undefined}
                className="mt-1 self-start rounded-md px-1 py-1 text-sm text-accent hover:underline disabled:opacity-60"
              >
                {thread.loadingReplies
                  ? t('discussion.replies.loading')
                  : thread.repliesPage === 0
                    ? t('discussion.replies.all', { count: thread.comment.replyCount })
                    : t('discussion.replies.more')}
              </button>
            )}
            {replying?.rootId === thread.comment.id && (
              <div className="mt-2">
                {/* The input's label says the same to screen readers. */}
                <p aria-hidden="true" className="mb-1.5 text-xs text-zinc-600 dark:text-zinc-400">
                  {t('discussion.reply.label', { name: replying.parent.author.name })}
                </p>
                <CommentComposer
                  key={replying.parent.id}
                  label={t('discussion.reply.label', { name: replying.parent.author.name })}
                  sendLabel={t('discussion.reply.send')}
                  cancelLabel={t('discussion.reply.cancel')}
                  userId={session?.userId ?? 0}
                  sending={state.posting}
                  onSend={postReply}
                  onCancel={() => setReplying(null)}
                  autoFocus
                  rows={3}
                  testId="reply-composer"
                />
              </div>
            )}
          </CommentItem>
        </li>
      ))}
    </ol>
  );
}
