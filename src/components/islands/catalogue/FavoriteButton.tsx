import { useStore } from '@nanostores/react';
import { favorites } from '../../../stores/catalogue.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { FAVORITE_LOOK as look, ToggleCountButton } from '../ui/ToggleCountButton.tsx';
import { useT } from '../ui/use-t.ts';

interface FavoriteButtonProps {
  galgameId: number;
  initialCount: number;
  initialLoggedIn: boolean;
  /** /login with the way back to this page. */
  loginHref: string;
}

/** Favourite a game, with the number of people who favourited it. */
function FavoriteButton({ galgameId, initialCount, initialLoggedIn, loginHref }: FavoriteButtonProps) {
  const t = useT();
  const entry = useStore(favorites.$favorites)[String(galgameId)];
  return (
    <ToggleCountButton
      target={String(galgameId)}
      initialCount={initialCount}
      initialLoggedIn={initialLoggedIn}
      loginHref={loginHref}
      state={entry && { on: entry.favorited, count: entry.count, pending: entry.pending }}
      seed={() => favorites.seed(galgameId, initialCount)}
      check={() => favorites.check(galgameId)}
      toggle={() => favorites.toggle(galgameId)}
      look={look}
      texts={{
        login: t('galgame.favorite.login'),
        on: t('galgame.favorite.added'),
        off: t('galgame.favorite.add'),
        title: (count) => t('galgame.favorite.count', { count }),
        failed: (message) => t('galgame.favorite.failed', { message }),
      }}
    />
  );
}

export default withLocale(FavoriteButton);
