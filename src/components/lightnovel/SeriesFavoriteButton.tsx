import { useStore } from '@nanostores/react';
import { contentFavorites, contentKey } from '../../stores/community.ts';
import { withLocale } from '../islands/ui/locale-context.tsx';
import { FAVORITE_LOOK as look, ToggleCountButton } from '../islands/ui/ToggleCountButton.tsx';
import { useT } from '../islands/ui/use-t.ts';

interface SeriesFavoriteButtonProps {
  lightnovelId: number;
  initialCount: number;
  initialLoggedIn: boolean;
  /** /login with the way back to this page. */
  loginHref: string;
}

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
