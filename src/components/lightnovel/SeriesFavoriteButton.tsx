import { useStore } from '@nanostores/react';
import { contentFavorites, contentKey } from '../../stores/community.ts';
import { withLocale } from '../islands/ui/locale-context.tsx';
import { ToggleCountButton, type ToggleLook } from '../islands/ui/ToggleCountButton.tsx';
import { useT } from '../islands/ui/use-t.ts';

interface SeriesFavoriteButtonProps {
  lightnovelId: number;
  initialCount: number;
  initialLoggedIn: boolean;
  /** /login with the way back to this page. */
  loginHref: string;
}

// The game page's look: filled and coloured when on, an outline waiting to be pressed when off.
const look: ToggleLook = {
  base: 'hk-btn h-10 gap-2 px-4',
  loginClass: 'hk-btn-ghost',
  onClass: 'bg-rose-700 text-white shadow-sm shadow-rose-700/30 hover:bg-rose-800',
  offClass: 'hk-btn-ghost bg-white/80 hover:text-rose-700 dark:bg-zinc-900/70 dark:hover:text-rose-300',
  icon: 'heart',
  fillOn: true,
  loginTestId: 'favorite-login',
  buttonTestId: 'favorite-button',
  logTag: 'favorite',
};

/** Favourite a light-novel series, with the number of people who favourited it. */
function SeriesFavoriteButton({ lightnovelId, initialCount, initialLoggedIn, loginHref }: SeriesFavoriteButtonProps) {
  const t = useT();
  const entry = useStore(contentFavorites.$favorites)[contentKey('lightnovel', lightnovelId)];
  return (
    <ToggleCountButton
      target={contentKey('lightnovel', lightnovelId)}
      initialCount={initialCount}
      initialLoggedIn={initialLoggedIn}
      loginHref={loginHref}
      state={entry && { on: entry.favorited, count: entry.count, pending: entry.pending }}
      seed={() => contentFavorites.seed('lightnovel', lightnovelId, initialCount)}
      check={() => contentFavorites.check('lightnovel', lightnovelId)}
      toggle={() => contentFavorites.toggle('lightnovel', lightnovelId)}
      look={look}
      texts={{
        login: t('lightnovel.favorite.login'),
        on: t('lightnovel.favorite.added'),
        off: t('lightnovel.favorite.add'),
        title: (count) => t('lightnovel.favorite.count', { count }),
        failed: (message) => t('lightnovel.favorite.failed', { message }),
      }}
    />
  );
}

export default withLocale(SeriesFavoriteButton);
