import { useStore } from '@nanostores/react';
import type { ContentType } from '../../../shared/community/community.ts';
import { contentFavorites, contentKey } from '../../../stores/community.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { ToggleCountButton, type ToggleLook } from '../ui/ToggleCountButton.tsx';
import { useT } from '../ui/use-t.ts';

interface ContentFavoriteButtonProps {
  type: ContentType;
  id: number;
  initialCount: number;
  initialLoggedIn: boolean;
  loginHref: string;
}

const look: ToggleLook = {
  base: 'hk-btn h-9 gap-1.5 px-3.5',
  loginClass: 'hk-btn-ghost',
  onClass: 'bg-amber-500 text-zinc-950 hover:bg-amber-400',
  offClass: 'hk-btn-ghost',
  icon: 'star',
  fillOn: true,
  loginTestId: 'favorite-login',
  buttonTestId: 'favorite-button',
  logTag: 'favorite',
};

/** Favourite a post or article (the game page's FavoriteButton is for games only), with the count. */
function ContentFavoriteButton({ type, id, initialCount, initialLoggedIn, loginHref }: ContentFavoriteButtonProps) {
  const t = useT();
  const entry = useStore(contentFavorites.$favorites)[contentKey(type, id)];
  return (
    <ToggleCountButton
      target={contentKey(type, id)}
      initialCount={initialCount}
      initialLoggedIn={initialLoggedIn}
      loginHref={loginHref}
      state={entry && { on: entry.favorited, count: entry.count, pending: entry.pending }}
      seed={() => contentFavorites.seed(type, id, initialCount)}
      check={() => contentFavorites.check(type, id)}
      toggle={() => contentFavorites.toggle(type, id)}
      look={look}
      texts={{
        login: t('forum.action.favoriteLogin'),
        on: t('forum.action.favorited'),
        off: t('forum.action.favorite'),
        title: (count) => t('forum.stat.favorites', { count }),
        failed: (message) => t('forum.action.favoriteFailed', { message }),
      }}
    />
  );
}

export default withLocale(ContentFavoriteButton);
