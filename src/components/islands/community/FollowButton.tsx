import { useStore } from '@nanostores/react';
import type { FollowTargetType } from '../../../shared/community/community.ts';
import { follows, followKey } from '../../../stores/community.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { ToggleCountButton, type ToggleLook } from '../ui/ToggleCountButton.tsx';
import { useT } from '../ui/use-t.ts';

interface FollowButtonProps {
  targetType: FollowTargetType;
  targetId: number;
  initialCount: number;
  initialLoggedIn: boolean;
  /** /login with the way back to this page. */
  loginHref: string;
}

const look: ToggleLook = {
  base: 'hk-btn h-9 gap-1.5 px-4',
  loginClass: 'hk-btn-primary',
  onClass: 'hk-btn-ghost bg-white dark:bg-zinc-900',
  offClass: 'hk-btn-primary',
  icon: 'plus',
  onIcon: 'check',
  loginTestId: 'follow-login',
  buttonTestId: 'follow-button',
  countTestId: 'follow-count',
  logTag: 'follow',
};

/** Follow a section or topic, with the follower count; visitors are also told why they must log in. */
function FollowButton({ targetType, targetId, initialCount, initialLoggedIn, loginHref }: FollowButtonProps) {
  const t = useT();
  const entry = useStore(follows.$follows)[followKey(targetType, targetId)];
  return (
    <ToggleCountButton
      target={followKey(targetType, targetId)}
      initialCount={initialCount}
      initialLoggedIn={initialLoggedIn}
      loginHref={loginHref}
      state={entry && { on: entry.following, count: entry.count, pending: entry.pending }}
      seed={() => follows.seed(targetType, targetId, initialCount)}
      check={() => follows.check(targetType, targetId)}
      toggle={() => follows.toggle(targetType, targetId)}
      look={look}
      texts={{
        login: t('forum.follow'),
        loginNotice: t('forum.follow.login'),
        on: t('forum.following'),
        off: t('forum.follow'),
        title: (count) => t('forum.follow.count', { count }),
        failed: (message) => t('forum.follow.failed', { message }),
      }}
    />
  );
}

export default withLocale(FollowButton);
