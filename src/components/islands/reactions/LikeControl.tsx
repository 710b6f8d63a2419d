import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { likeKey, likes, type LikeEntry } from '../../../stores/reactions.ts';
import { toast } from '../../../stores/toast.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import type { LikeButtonProps } from './LikeButton.tsx';

export interface LikeControlProps extends LikeButtonProps {
  /**
   * false when whoever renders the button reads the viewer's likes itself (the comment section reads them
   * with its list), so the button does not ask again.
   */
  check?: boolean;
}

const sizes = {
  sm: 'inline-flex h-7 items-center gap-1 rounded-md px-1.5 text-xs',
  md: 'hk-btn hk-btn-ghost gap-1.5 px-3',
} as const;

/**
 * Like an item: optimistic, one request at a time (a double click sends once), rolled back with the
 * server's message when refused. Visitors are asked to log in. The first render is what the server
 * rendered for everyone: the count, not pressed.
 */
export default function LikeControl({
  targetType,
  targetId,
  count,
  liked,
  size = 'sm',
  check = true,
}: LikeControlProps) {
  const t = useT();
  const viewer = useViewer(false);
  const all = useStore(likes.$likes);

  useEffect(() => likes.seed(targetType, targetId, count, liked), [targetType, targetId, count, liked]);
  useEffect(() => {
    if (!viewer.ready || !viewer.loggedIn || !check || liked !== undefined) return;
    void likes.check(targetType, targetId).then((outcome) => {
      if (!outcome.ok) console.warn('[like] state unknown:', outcome.message);
    });
  }, [targetType, targetId, viewer.ready, viewer.loggedIn, check, liked]);

  const entry: LikeEntry = (viewer.ready ? all[likeKey(targetType, targetId)] : undefined) ?? {
    liked: liked ?? null,
    count,
    pending: false,
  };
  const on = viewer.loggedIn && entry.liked === true;

  const press = async () => {
    if (!viewer.loggedIn) {
      toast.warning(t('discussion.loginFirst'));
      return;
    }
    const outcome = await likes.toggle(targetType, targetId);
    if (!outcome.ok && !('busy' in outcome)) toast.error(outcome.message);
  };

  return (
    <button
      type="button"
      onClick={() => void press()}
      aria-pressed={on}
      aria-busy={entry.pending || undefined}
      aria-label={t('discussion.like.name', { count: entry.count })}
      data-state={entry.liked === null ? 'unknown' : on ? 'on' : 'off'}
      data-testid="like-button"
      className={`${sizes[size]} transition-colors ${
        on ? 'text-accent' : 'text-zinc-600 hover:text-accent dark:text-zinc-400 dark:hover:text-accent'
      } ${size === 'sm' ? 'hover:bg-zinc-100 dark:hover:bg-zinc-800' : ''}`}
    >
      <Icon name="thumbs-up" className={`${size === 'sm' ? 'size-4' : 'size-[18px]'} ${on ? 'fill-current' : ''}`} />
      <span className="tabular-nums" aria-hidden="true">
        {entry.count > 0 ? entry.count : t('discussion.like')}
      </span>
    </button>
  );
}
