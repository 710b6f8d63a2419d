import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { SessionUser } from '../../../shared/auth-model.ts';
import type { MessageKey } from '../../../shared/i18n/index.ts';
import type { IconName } from '../../../shared/icons.ts';
import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import { isPageBuilt } from '../../../shared/navigation.ts';
import { $publicConfig } from '../../../stores/public-config.ts';
import Avatar from '../display/Avatar.tsx';
import { Icon } from '../ui/Icon.tsx';
import { onDemand, useDeferredMenu } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';

export const SYSTEM_MESSAGES_PATH = '/message/system';
export const PRIVATE_MESSAGES_PATH = '/message/private';
/** Spec §9: the unread badge is capped at 99. */
export const UNREAD_BADGE_CAP = 99;

export interface UserMenuEntry {
  id: string;
  label: MessageKey;
  href: string;
  icon: IconName;
}

/**
 * The avatar menu's links (spec §2.2): creator centre, creator application (hidden for the creator
 * group, spec §6) and the personal homepage; a link appears only once its page is built.
 */
export function userMenuEntries(
  user: Pick<SessionUser, 'userId' | 'hikariUserGroup'>,
  isBuilt: (path: string) => boolean = isPageBuilt,
): UserMenuEntry[] {
  const entries: UserMenuEntry[] = [
    { id: 'creator-center', label: 'user.menu.creatorCenter', href: '/create/home', icon: 'pen' },
    {
      id: 'creator-application',
      label: 'user.menu.creatorApplication',
      href: '/creator-application',
      icon: 'sparkles',
    },
    { id: 'homepage', label: 'user.menu.homepage', href: `/space/${user.userId}`, icon: 'user' },
  ];
  return entries.filter(
    (entry) => isBuilt(entry.href) && !(entry.id === 'creator-application' && user.hikariUserGroup === 'creator'),
  );
}

/** The badge text: nothing for 0, the count up to 99, then '99+'. */
export function unreadBadgeText(count: number): string | null {
  if (!Number.isFinite(count) || count < 1) return null;
  return count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(Math.floor(count));
}

// The server renders with no image hosts configured ($publicConfig is only filled in the browser), so
// the first client render must do the same or the avatar URL would not match the server's HTML.
const SERVER_IMAGE_OPTIONS: ImageUrlOptions = { imageBedUrl: '', allowedHosts: [] };

interface NotificationBellProps {
  unreadCount?: number;
  /** Unread private messages: counted in the badge; with no notification unread, the bell opens the chats. */
  privateUnread?: number;
  isBuilt?: (path: string) => boolean;
}

/** The bell that opens the system messages, with the unread badge (hidden at 0). */
export function NotificationBell({ unreadCount = 0, privateUnread = 0, isBuilt = isPageBuilt }: NotificationBellProps) {
  const t = useT();
  if (!isBuilt(SYSTEM_MESSAGES_PATH)) return null;
  const badge = unreadBadgeText(unreadCount + privateUnread);
  const href =
    unreadCount === 0 && privateUnread > 0 && isBuilt(PRIVATE_MESSAGES_PATH)
      ? PRIVATE_MESSAGES_PATH
      : SYSTEM_MESSAGES_PATH;
  const label = badge ? t('user.notificationsUnread', { count: badge }) : t('user.notifications');
  return (
    <a
      href={href}
      aria-label={label}
      title={label}
      data-testid="header-bell"
      className="relative inline-flex size-9 items-center justify-center rounded-full text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-accent dark:text-zinc-300 dark:hover:bg-zinc-800"
    >
      <Icon name="bell" />
      {badge && (
        <span
          aria-hidden="true"
          data-testid="header-bell-badge"
          className="absolute -top-0.5 -right-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-600 px-1 text-[10px] leading-none font-semibold text-white tabular-nums ring-2 ring-white dark:ring-zinc-900"
        >
          {badge}
        </span>
      )}
    </a>
  );
}

interface UserMenuProps {
  user: SessionUser;
  isBuilt?: (path: string) => boolean;
}

const dropdown = onDemand(() => import('./UserMenuDropdown.tsx'));

/** Where the avatar button goes until the page knows whose it is: the same size, nothing personal. */
export function UserMenuPlaceholder() {
  return (
    <div className="relative p-0.5" data-testid="user-menu-placeholder" aria-hidden="true">
      <span className="block size-10 rounded-full bg-zinc-200 dark:bg-zinc-700" />
    </div>
  );
}

export const avatarButtonClass =
  'flex rounded-full p-0.5 ring-primary/40 transition-shadow outline-none hover:ring-2 focus-visible:ring-2 aria-expanded:ring-2';

/**
 * The avatar button and its dropdown (spec §2.2): name, HP balance, the NSFW choice, links and logout.
 * The dropdown (Radix, with the logout and settings code) loads when the avatar is first hovered,
 * focused or pressed; the button opens it as soon as it is there.
 */
export function UserMenu({ user, isBuilt = isPageBuilt }: UserMenuProps) {
  const t = useT();
  const config = useStore($publicConfig);
  const [hydrated, setHydrated] = useState(false);
  const menu = useDeferredMenu(dropdown);
  const rootRef = useRef<HTMLDivElement>(null);
  const imageOptions: ImageUrlOptions = hydrated
    ? { imageBedUrl: config.imageBedUrl, allowedHosts: config.imageAllowedHosts }
    : SERVER_IMAGE_OPTIONS;

  useEffect(() => setHydrated(true), []);

  const avatar = <Avatar src={user.avatar} name={user.name} size="medium" imageOptions={imageOptions} />;
  const label = t('user.menu');

  return (
    <div ref={rootRef} className="relative" data-testid="user-menu">
      {menu.module ? (
        <menu.module.UserMenuDropdown
          user={user}
          entries={userMenuEntries(user, isBuilt)}
          open={menu.open}
          onOpenChange={menu.setOpen}
          handoff={menu.handoff}
          root={rootRef}
          label={label}
          triggerClass={avatarButtonClass}
        >
          {avatar}
        </menu.module.UserMenuDropdown>
      ) : (
        <button
          {...menu.triggerProps}
          aria-label={label}
          title={user.name}
          className={avatarButtonClass}
          data-testid="user-menu-button"
        >
          {avatar}
        </button>
      )}
    </div>
  );
}
