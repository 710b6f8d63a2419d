import { useStore } from '@nanostores/react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useRef, useState } from 'react';
import { NSFW_MODES, type NsfwMode, type SessionUser } from '../../../shared/auth-model.ts';
import type { MessageKey } from '../../../shared/i18n/index.ts';
import type { IconName } from '../../../shared/icons.ts';
import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import { isPageBuilt } from '../../../shared/navigation.ts';
import { api } from '../../../stores/api-client.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { $publicConfig } from '../../../stores/public-config.ts';
import { toast } from '../../../stores/toast.ts';
import { saveUserSetting } from '../../../stores/user-setting.ts';
import Avatar from '../display/Avatar.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';

export const SYSTEM_MESSAGES_PATH = '/message/system';
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
  isBuilt?: (path: string) => boolean;
}

/** The bell that opens the system messages, with the unread badge (hidden at 0). */
export function NotificationBell({ unreadCount = 0, isBuilt = isPageBuilt }: NotificationBellProps) {
  const t = useT();
  if (!isBuilt(SYSTEM_MESSAGES_PATH)) return null;
  const badge = unreadBadgeText(unreadCount);
  const label = badge ? t('user.notificationsUnread', { count: badge }) : t('user.notifications');
  return (
    <a
      href={SYSTEM_MESSAGES_PATH}
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
          className="absolute -top-0.5 -right-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-500 px-1 text-[10px] leading-none font-semibold text-white tabular-nums ring-2 ring-white dark:ring-zinc-900"
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

const itemClass =
  'flex w-full cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-left text-sm text-zinc-700 outline-none transition-colors hover:bg-zinc-100 data-[highlighted]:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800 dark:data-[highlighted]:bg-zinc-800';

/**
 * The avatar button and its dropdown (spec §2.2): name, HP balance, the NSFW choice, links and logout.
 * Radix gives the menu its keyboard handling, focus, Escape, outside click and ARIA.
 */
export function UserMenu({ user, isBuilt = isPageBuilt }: UserMenuProps) {
  const t = useT();
  const config = useStore($publicConfig);
  const [hydrated, setHydrated] = useState(false);
  const entries = userMenuEntries(user, isBuilt);
  const imageOptions: ImageUrlOptions = hydrated
    ? { imageBedUrl: config.imageBedUrl, allowedHosts: config.imageAllowedHosts }
    : SERVER_IMAGE_OPTIONS;

  useEffect(() => setHydrated(true), []);

  const [savingNsfw, setSavingNsfw] = useState(false);
  const chooseNsfw = async (mode: NsfwMode) => {
    if (mode === user.userSetting.nsfw || savingNsfw) return;
    setSavingNsfw(true);
    try {
      await saveUserSetting({ nsfw: mode });
      // Covers are drawn on the server from the setting: load the page again to show the change.
      window.location.reload();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
      setSavingNsfw(false);
    }
  };

  // The confirmation opens once the menu has closed and given focus back to the avatar, so the dialog
  // neither loses its focus to the menu closing nor returns it to an item that is gone.
  const logoutChosen = useRef(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const logout = async () => {
    if (await confirmDialog(t('user.logoutConfirm'))) await api.logout();
  };
  const afterClose = () => {
    if (!logoutChosen.current) return;
    logoutChosen.current = false;
    setTimeout(() => void logout(), 0);
  };

  return (
    <div ref={rootRef} className="relative" data-testid="user-menu">
      {/* Not modal: the page behind stays in the accessibility tree (a modal menu would hide it while it
          can still be focused); Escape, outside presses and focus return still close it. */}
      <DropdownMenu.Root
        modal={false}
        // Should the focus return not be reported (the avatar re-rendered meanwhile), ask a moment later.
        onOpenChange={(open) => {
          if (!open && logoutChosen.current) setTimeout(afterClose, 250);
        }}
      >
        <DropdownMenu.Trigger
          aria-label={t('user.menu')}
          title={user.name}
          className="flex rounded-full p-0.5 ring-primary/40 transition-shadow outline-none hover:ring-2 focus-visible:ring-2 aria-expanded:ring-2"
          data-testid="user-menu-button"
        >
          <Avatar src={user.avatar} name={user.name} size="medium" imageOptions={imageOptions} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={8}
            collisionPadding={12}
            loop
            onCloseAutoFocus={afterClose}
            // The avatar button toggles the menu itself.
            onInteractOutside={(event) => {
              if (rootRef.current?.contains(event.target as Node)) event.preventDefault();
            }}
            className="hk-fade z-[60] w-60 max-w-[calc(100vw-1.5rem)] rounded-xl bg-white p-1.5 shadow-xl ring-1 ring-black/5 outline-none dark:bg-zinc-900 dark:ring-white/10"
          >
            <DropdownMenu.Label className="px-3 pt-2 pb-2.5">
              <div
                className="truncate text-sm font-semibold text-zinc-900 dark:text-white"
                data-testid="user-menu-name"
              >
                {user.name}
              </div>
              <div
                className="mt-1 inline-flex items-center rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-accent tabular-nums dark:bg-primary-900/40"
                title={t('user.hpTitle')}
                data-testid="user-menu-hp"
              >
                {t('user.hp', { points: user.hikariPoint })}
              </div>
            </DropdownMenu.Label>
            <div className="px-3 pb-2.5" data-testid="user-menu-nsfw">
              <div className="mb-1.5 text-xs text-zinc-500 dark:text-zinc-400" aria-hidden="true">
                {t('user.nsfw.label')}
              </div>
              <DropdownMenu.RadioGroup
                value={user.userSetting.nsfw}
                onValueChange={(mode) => void chooseNsfw(mode as NsfwMode)}
                aria-label={t('user.nsfw.label')}
                className="grid grid-cols-3 gap-1 rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800"
              >
                {NSFW_MODES.map((mode) => (
                  <DropdownMenu.RadioItem
                    key={mode}
                    value={mode}
                    disabled={savingNsfw}
                    // Keep the menu open while the choice is saved; the page reloads afterwards.
                    onSelect={(event) => event.preventDefault()}
                    className="cursor-pointer rounded-md px-2 py-1 text-center text-xs text-zinc-600 outline-none transition-colors hover:text-zinc-900 data-[disabled]:opacity-60 data-[highlighted]:ring-2 data-[highlighted]:ring-primary/40 data-[state=checked]:bg-white data-[state=checked]:font-medium data-[state=checked]:text-accent data-[state=checked]:shadow-sm dark:text-zinc-300 dark:hover:text-white dark:data-[state=checked]:bg-zinc-700"
                  >
                    {t(`user.nsfw.${mode}`)}
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.RadioGroup>
            </div>
            <DropdownMenu.Separator className="mx-1.5 mb-1 h-px bg-zinc-100 dark:bg-zinc-800" />
            {entries.map((entry) => (
              <DropdownMenu.Item key={entry.id} asChild className={itemClass}>
                <a href={entry.href}>
                  <Icon name={entry.icon} className="size-4 text-zinc-400" />
                  {t(entry.label)}
                </a>
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Item
              onSelect={() => (logoutChosen.current = true)}
              className={itemClass}
              data-testid="user-menu-logout"
            >
              <Icon name="log-out" className="size-4 text-zinc-400" />
              {t('user.menu.logout')}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
