import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { SessionUser } from '../../../shared/auth-model.ts';
import { $privateUnread, $unreadCount } from '../../../stores/unread-count.ts';
import ColorModeToggle from '../ColorModeToggle.tsx';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { useLocale } from '../ui/use-t.ts';
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

/** The check-in button and its store: loaded only for a logged-in member (a visitor's page does without). */
const checkInCode = onDemand(() => import('./CheckInButton.tsx'));

/**
 * Where the check-in button goes (spec §2.4): its space is kept while its code loads, so the header does
 * not move; icon-only below the `sm` width, wide enough for the longer of its two labels above it.
 */
function CheckInSlot({ userId }: { userId: number | null }) {
  const locale = useLocale();
  const [code, load] = useOnDemand(checkInCode);
  useEffect(() => {
    if (userId !== null) void load().catch(() => {});
  }, [userId, load]);
  return (
    <div
      className={`h-9 w-9 shrink-0 ${locale === 'en' ? 'sm:w-[7.25rem]' : 'sm:w-[5.5rem]'}`}
      data-testid="check-in-slot"
    >
      {code && userId !== null ? (
        <code.CheckInButton userId={userId} />
      ) : (
        <span className="block size-full rounded-full bg-zinc-200 dark:bg-zinc-700" aria-hidden="true" />
      )}
    </div>
  );
}

/**
 * The right side of the header. Logged in: colour mode, check-in, the bell and the avatar menu. Visitors:
 * colour mode, and register/login when the flag is on.
 */
export function HeaderActions({
  showLogin,
  labels,
  hrefs = { login: '/login', register: '/register' },
  user,
}: HeaderActionsProps) {
  const memberId = user && user !== 'member' ? user.userId : null;
  const unreadCount = useUnreadCount(memberId);
  const privateUnread = useStore($privateUnread);
  return (
    <div className="flex shrink-0 items-center gap-1.5" data-testid="header-actions">
      <ColorModeToggle />
      {user ? (
        <>
          <CheckInSlot userId={memberId} />
          <NotificationBell unreadCount={unreadCount} privateUnread={privateUnread} />
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
