import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { SessionUser } from '../../../shared/auth-model.ts';
import { $unreadCount } from '../../../stores/unread-count.ts';
import ColorModeToggle from '../ColorModeToggle.tsx';
import { NotificationBell, UserMenu, UserMenuPlaceholder } from './UserMenu.tsx';

interface HeaderActionsProps {
  showLogin: boolean;
  labels: { login: string; register: string };
  /** Where the login and register links go, with the way back to this page. */
  hrefs?: { login: string; register: string };
  /**
   * The logged-in user, null for a visitor, or 'member' on the copy of a page all members share (someone
   * is logged in; who, the session tells once hydrated).
   */
  user: SessionUser | 'member' | null;
}

/**
 * Keeps the bell's count for the logged-in member while the header is shown (stores/unread.ts, loaded
 * only then: a visitor's page does without it).
 */
function useUnreadCount(userId: number | null): number {
  const count = useStore($unreadCount);
  useEffect(() => {
    if (userId === null) return;
    let stop: (() => void) | null = null;
    let gone = false;
    void import('../../../stores/unread.ts').then(async ({ unread }) => {
      const keeper = await unread();
      if (!gone) stop = keeper.start(userId);
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [userId]);
  return count;
}

/**
 * The right side of the header. Logged in: colour mode, the bell and the avatar menu. Visitors:
 * colour mode, and register/login when the flag is on.
 */
export function HeaderActions({
  showLogin,
  labels,
  hrefs = { login: '/login', register: '/register' },
  user,
}: HeaderActionsProps) {
  const unreadCount = useUnreadCount(user && user !== 'member' ? user.userId : null);
  return (
    <div className="flex shrink-0 items-center gap-1.5" data-testid="header-actions">
      <ColorModeToggle />
      {user ? (
        <>
          <NotificationBell unreadCount={unreadCount} />
          {user === 'member' ? <UserMenuPlaceholder /> : <UserMenu user={user} />}
        </>
      ) : (
        showLogin && (
          <>
            <a href={hrefs.register} className="hk-btn hk-btn-ghost hidden h-8 px-3 sm:inline-flex">
              {labels.register}
            </a>
            <a href={hrefs.login} className="hk-btn hk-btn-primary h-8 px-3">
              {labels.login}
            </a>
          </>
        )
      )}
    </div>
  );
}
