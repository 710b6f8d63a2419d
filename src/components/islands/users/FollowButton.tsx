import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { loginHref as loginPath } from '../../../shared/catalogue-format.ts';
import { userFollows, userKey } from '../../../stores/follow.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { ToggleCountButton, type ToggleLook } from '../ui/ToggleCountButton.tsx';
import { useT } from '../ui/use-t.ts';

export type FollowButtonSize = 'small' | 'medium';

export interface FollowButtonProps {
  userId: number;
  /** Whether the viewer follows the member, when the page knows (a member's own render); else asked. */
  initialFollowing?: boolean;
  initialFollowerCount?: number;
  size?: FollowButtonSize;
  /** Whether the page was rendered for a member (shared pages: `showsLoggedIn`). */
  initialLoggedIn?: boolean;
  /** /login with the way back; by default the page the button is on. */
  loginHref?: string;
}

const look: Omit<ToggleLook, 'base'> = {
  loginClass: 'hk-btn-primary',
  onClass: 'hk-btn-ghost bg-white dark:bg-zinc-900',
  offClass: 'hk-btn-primary',
  icon: 'plus',
  onIcon: 'check',
  loginTestId: 'user-follow-login',
  buttonTestId: 'user-follow-button',
  countless: true,
  logTag: 'user-follow',
};
const looks: Record<FollowButtonSize, ToggleLook> = {
  small: { ...look, base: 'hk-btn h-8 gap-1 px-3 text-xs' },
  medium: { ...look, base: 'hk-btn h-9 gap-1.5 px-4' },
};

/** The current page's address, for the way back after logging in (known once in the browser). */
function useHereLogin(given: string | undefined): string {
  const [here, setHere] = useState(given ?? '/login');
  useEffect(() => {
    if (!given) setHere(loginPath(`${window.location.pathname}${window.location.search}`));
  }, [given]);
  return here;
}

/**
 * Follow a member (spec §2.6, §4): 'follow' or 'followed', one state per member for the whole page;
 * visitors are sent to log in with the spec's notice; nobody sees it on their own name.
 */
function FollowButton({
  userId,
  initialFollowing,
  initialFollowerCount,
  size = 'medium',
  initialLoggedIn = false,
  loginHref,
}: FollowButtonProps) {
  const t = useT();
  const viewer = useViewer(initialLoggedIn);
  const entry = useStore(userFollows.$userFollows)[userKey(userId)];
  const login = useHereLogin(loginHref);
  if (viewer.userId === userId) return null;
  return (
    <ToggleCountButton
      target={userKey(userId)}
      initialCount={initialFollowerCount ?? 0}
      initialLoggedIn={initialLoggedIn}
      loginHref={login}
      state={entry && { on: entry.following, count: entry.count, pending: entry.pending }}
      seed={() => userFollows.seed(userId, { following: initialFollowing, count: initialFollowerCount })}
      check={() => userFollows.check(userId)}
      toggle={() => userFollows.toggle(userId)}
      look={looks[size]}
      texts={{
        login: t('userFollow.follow'),
        loginNotice: t('userFollow.login'),
        on: t('userFollow.followed'),
        off: t('userFollow.follow'),
        title: () => '',
        failed: (message) => t('userFollow.failed', { message }),
      }}
    />
  );
}

export default withLocale(FollowButton);
