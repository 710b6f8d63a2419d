import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { NSFW_MODES, type NsfwMode, type SessionUser } from '../../../shared/auth-model.ts';
import { api } from '../../../stores/api-client.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { toast } from '../../../stores/toast.ts';
import { saveUserSetting } from '../../../stores/user-setting.ts';
import { Icon } from '../ui/Icon.tsx';
import { useMenuHandoff, type MenuHandoff } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';
import type { UserMenuEntry } from './UserMenu.tsx';

interface UserMenuDropdownProps {
  user: SessionUser;
  entries: UserMenuEntry[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  handoff: RefObject<MenuHandoff>;
  /** The box around the avatar (the avatar button toggles the menu itself). */
  root: RefObject<HTMLDivElement | null>;
  label: string;
  triggerClass: string;
  /** The avatar shown in the trigger. */
  children: ReactNode;
}

const itemClass =
  'flex w-full cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-left text-sm text-zinc-700 outline-none transition-colors hover:bg-zinc-100 data-[highlighted]:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800 dark:data-[highlighted]:bg-zinc-800';

/**
 * The avatar menu itself, loaded on first use. Radix gives the menu its keyboard handling, focus,
 * Escape, outside click and ARIA.
 */
export function UserMenuDropdown({
  user,
  entries,
  open,
  onOpenChange,
  handoff,
  root,
  label,
  triggerClass,
  children,
}: UserMenuDropdownProps) {
  const t = useT();
  // Took over from the plain button: the focus stays on the avatar.
  const { trigger, content } = useMenuHandoff(open, handoff);

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
  const logout = async () => {
    if (await confirmDialog(t('user.logoutConfirm'))) await api.logout();
  };
  const afterClose = () => {
    if (!logoutChosen.current) return;
    logoutChosen.current = false;
    setTimeout(() => void logout(), 0);
  };

  return (
    // Not modal: the page behind stays in the accessibility tree (a modal menu would hide it while it
    // can still be focused); Escape, outside presses and focus return still close it.
    <DropdownMenu.Root
      modal={false}
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        // Should the focus return not be reported (the avatar re-rendered meanwhile), ask a moment later.
        if (!next && logoutChosen.current) setTimeout(afterClose, 250);
      }}
    >
      <DropdownMenu.Trigger
        ref={trigger}
        aria-label={label}
        title={user.name}
        className={triggerClass}
        data-testid="user-menu-button"
      >
        {children}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          ref={content}
          align="end"
          sideOffset={8}
          collisionPadding={12}
          loop
          onCloseAutoFocus={afterClose}
          // The avatar button toggles the menu itself.
          onInteractOutside={(event) => {
            if (root.current?.contains(event.target as Node)) event.preventDefault();
          }}
          className="hk-fade z-[60] w-60 max-w-[calc(100vw-1.5rem)] rounded-xl bg-white p-1.5 shadow-xl ring-1 ring-black/5 outline-none dark:bg-zinc-900 dark:ring-white/10"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-2.5">
            <div className="truncate text-sm font-semibold text-zinc-900 dark:text-white" data-testid="user-menu-name">
              {user.name}
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
          {/* The balance, leading to its history (after the cover choice, so the menu's keyboard order stays). */}
          <DropdownMenu.Item asChild className={itemClass}>
            <a
              href={`/space/${user.userId}/setting/points`}
              title={`${t('user.hpTitle')} · ${t('user.hpHistory')}`}
              data-testid="user-menu-hp-link"
            >
              <Icon name="sparkles" className="size-4 text-zinc-400" />
              <span
                className="inline-flex items-center rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-accent tabular-nums dark:bg-primary-900/40"
                data-testid="user-menu-hp"
              >
                {t('user.hp', { points: user.hikariPoint })}
              </span>
              <span className="ml-auto text-xs text-zinc-500 dark:text-zinc-400">{t('checkIn.history')}</span>
            </a>
          </DropdownMenu.Item>
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
  );
}
