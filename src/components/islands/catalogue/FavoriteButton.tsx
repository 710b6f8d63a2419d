import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { favorites, type FavoriteEntry } from '../../../stores/catalogue.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import { useViewer } from './use-viewer.ts';
import { withLocale } from '../ui/locale-context.tsx';

interface FavoriteButtonProps {
  galgameId: number;
  initialCount: number;
  initialLoggedIn: boolean;
  /** /login with the way back to this page. */
  loginHref: string;
}

const base = 'hk-btn h-10 gap-2 px-4';

/** Favourite a game: optimistic, one request at a time, with the number of people who favourited it. */
function FavoriteButton({ galgameId, initialCount, initialLoggedIn, loginHref }: FavoriteButtonProps) {
  const t = useT();
  const viewer = useViewer(initialLoggedIn);
  const all = useStore(favorites.$favorites);

  useEffect(() => favorites.seed(galgameId, initialCount), [galgameId, initialCount]);
  useEffect(() => {
    if (!viewer.ready || !viewer.loggedIn) return;
    void favorites.check(galgameId).then((outcome) => {
      if (!outcome.ok) console.warn('[favorite] state unknown:', outcome.message);
    });
  }, [galgameId, viewer.ready, viewer.loggedIn]);

  // Until hydrated, exactly what the server rendered.
  const entry: FavoriteEntry = (viewer.ready ? all[String(galgameId)] : undefined) ?? {
    favorited: null,
    count: initialCount,
    pending: false,
  };
  const count = <span className="font-normal tabular-nums">{entry.count}</span>;

  if (!viewer.loggedIn) {
    return (
      <a href={loginHref} className={`${base} hk-btn-ghost`} data-testid="favorite-login">
        <Icon name="heart" className="size-4" />
        {t('galgame.favorite.login')}
        {count}
      </a>
    );
  }

  const on = entry.favorited === true;
  const toggle = async () => {
    const outcome = await favorites.toggle(galgameId);
    if (!outcome.ok && !('busy' in outcome)) toast.error(t('galgame.favorite.failed', { message: outcome.message }));
  };
  return (
    <button
      type="button"
      onClick={() => void toggle()}
      disabled={entry.pending}
      aria-pressed={on}
      aria-busy={entry.pending}
      data-state={entry.favorited === null ? 'unknown' : on ? 'on' : 'off'}
      title={t('galgame.favorite.count', { count: entry.count })}
      // On: filled and coloured, clearly the active state; off: an outline waiting to be pressed.
      className={`${base} ${on ? 'bg-rose-700 text-white shadow-sm shadow-rose-700/30 hover:bg-rose-800' : 'hk-btn-ghost bg-white/80 hover:text-rose-700 dark:bg-zinc-900/70 dark:hover:text-rose-300'}`}
      data-testid="favorite-button"
    >
      <Icon name="heart" className={`size-4 ${on ? 'fill-current' : ''}`} />
      {on ? t('galgame.favorite.added') : t('galgame.favorite.add')}
      {count}
    </button>
  );
}

export default withLocale(FavoriteButton);
