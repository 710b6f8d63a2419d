import type { ReactNode } from 'react';
import type { CommentView } from '../../../shared/comments/comments.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import Avatar from '../display/Avatar.tsx';
import RichText from '../display/RichText.tsx';
import type { EmojiRendering } from '../media/use-emoji.ts';
import LikeControl from '../reactions/LikeControl.tsx';
import { ReportControl } from '../reactions/ReportButton.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

export interface CommentItemProps {
  comment: CommentView;
  /** Now, for "3 分钟前": the page's render time until hydrated, then the clock. */
  now: number;
  highlighted: boolean;
  /** A delete or pin of this comment is out. */
  busy: boolean;
  /** The comment's viewer flags are the viewer's (read with the login). */
  viewerKnown: boolean;
  myUserId: number | null;
  /** The reply form under the thread answers this comment. */
  replying: boolean;
  onReply: (comment: CommentView) => void;
  onDelete: (comment: CommentView) => void;
  onPin: (comment: CommentView) => void;
  /** The same on the server and in the first render in the browser (the page's image bed, emoji it resolved). */
  imageOptions: ImageUrlOptions;
  emoji: EmojiRendering;
  /** Under a root: its replies, their paging and the reply form. */
  children?: ReactNode;
}

const action =
  'inline-flex h-7 items-center gap-1 rounded-md px-1.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-accent disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-zinc-800';

const SLOT = '\u0001';

/** "回复 @name：" before a reply that answers another reply, the name linking to its author's space. */
function ReplyTo({ name, userId }: { name: string; userId: number }) {
  const t = useT();
  const [before = '', after = ''] = t('discussion.comment.replyTo', { name: SLOT }).split(SLOT);
  return (
    <span className="text-zinc-600 dark:text-zinc-400">
      {before}
      <a href={`/space/${userId}`} className="text-accent hover:underline" data-user-card={userId}>
        {name}
      </a>
      {after}
    </span>
  );
}

/** One comment (a root, or a reply inside its thread): who, when, the text and what the viewer may do. */
export function CommentItem({
  comment,
  now,
  highlighted,
  busy,
  viewerKnown,
  myUserId,
  replying,
  onReply,
  onDelete,
  onPin,
  imageOptions,
  emoji,
  children,
}: CommentItemProps) {
  const t = useT();
  const locale = useLocale();
  const root = comment.rootId === null;
  const space = `/space/${comment.author.userId}`;
  const mine = myUserId !== null && myUserId === comment.author.userId;
  // A reply that answers another reply (not its root) names whom it answers.
  const answersReply = !root && comment.replyTo !== null && comment.parentId !== comment.rootId;

  return (
    <article
      id={`comment-${comment.id}`}
      tabIndex={-1}
      aria-label={t('discussion.comment.by', { name: comment.author.name })}
      data-testid={root ? 'comment' : 'reply'}
      data-comment-id={comment.id}
      data-highlighted={highlighted || undefined}
      className={`flex scroll-mt-24 gap-3 rounded-lg transition-[background-color,box-shadow] duration-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${
        highlighted ? 'bg-primary-50 ring-2 ring-primary-300 dark:bg-primary-900/30 dark:ring-primary-700' : ''
      } ${root ? '-mx-2 px-2 py-3' : '-mx-1.5 px-1.5 py-1'}`}
    >
      <a href={space} tabIndex={-1} aria-hidden="true" className="shrink-0" data-user-card={comment.author.userId}>
        <Avatar
          src={comment.author.avatar}
          name={comment.author.name}
          size={root ? 'medium' : 'small'}
          imageOptions={imageOptions}
        />
      </a>
      <div className={`flex min-w-0 flex-1 flex-col ${root ? 'gap-1' : 'gap-0.5'}`}>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
          <a
            href={space}
            className="font-medium text-zinc-900 hover:text-accent dark:text-zinc-100"
            data-user-card={comment.author.userId}
            data-testid="comment-author"
          >
            {comment.author.name}
          </a>
          {comment.pinned && (
            <span
              className="inline-flex items-center gap-0.5 rounded bg-primary-50 px-1.5 py-px text-[11px] font-medium text-accent ring-1 ring-primary-200 dark:bg-primary-900/40 dark:ring-primary-800"
              data-testid="pinned-badge"
            >
              <Icon name="pin" className="size-3" />
              {t('discussion.comment.pinned')}
            </span>
          )}
          <time dateTime={comment.createdAt} className="text-xs text-zinc-600 dark:text-zinc-400">
            {timeAgo(comment.createdAt, now, locale)}
          </time>
        </div>

        {comment.hidden && (
          <p
            className="flex items-start gap-1.5 rounded-lg bg-rose-50 px-2.5 py-1.5 text-xs text-rose-900 ring-1 ring-rose-200 dark:bg-rose-500/10 dark:text-rose-200 dark:ring-rose-500/30"
            data-testid="comment-hidden"
          >
            <Icon name="eye-off" className="mt-px size-3.5 shrink-0" />
            {t('discussion.comment.hidden')}
          </p>
        )}
        {comment.deleted ? (
          <p className="text-sm text-zinc-600 italic dark:text-zinc-400" data-testid="comment-deleted">
            {t('discussion.comment.deleted')}
          </p>
        ) : (
          <div className="text-sm leading-6 break-words text-zinc-800 dark:text-zinc-200">
            {answersReply && comment.replyTo && <ReplyTo name={comment.replyTo.name} userId={comment.replyTo.userId} />}
            <RichText
              text={comment.content}
              previewGroup={`comment-${comment.id}`}
              className={answersReply ? 'inline' : undefined}
              {...emoji}
            />
          </div>
        )}

        {!comment.deleted && !comment.hidden && (
          <div
            role="group"
            aria-label={t('discussion.comment.actions')}
            className="-ml-1.5 flex flex-wrap items-center gap-x-1"
          >
            <LikeControl
              targetType="comment"
              targetId={comment.id}
              count={comment.likeCount}
              liked={viewerKnown ? comment.viewer.isLiked : undefined}
              check={false}
            />
            <button type="button" className={action} onClick={() => onReply(comment)} aria-expanded={replying}>
              <Icon name="reply" className="size-3.5" />
              {t('discussion.reply')}
            </button>
            {viewerKnown && comment.viewer.canPin && root && (
              <button type="button" className={action} onClick={() => onPin(comment)} disabled={busy}>
                <Icon name="pin" className="size-3.5" />
                {comment.pinned ? t('discussion.unpin') : t('discussion.pin')}
              </button>
            )}
            {viewerKnown && comment.viewer.canDelete && (
              <button
                type="button"
                className={`${action} hover:text-rose-700 dark:hover:text-rose-300`}
                onClick={() => onDelete(comment)}
                disabled={busy}
                data-testid="delete-comment"
              >
                <Icon name="trash" className="size-3.5" />
                {t('discussion.delete')}
              </button>
            )}
            {!mine && <ReportControl targetType="comment" targetId={comment.id} />}
          </div>
        )}
        {children}
      </div>
    </article>
  );
}
