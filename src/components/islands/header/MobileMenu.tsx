import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { NavLink } from './NavLink.tsx';
import type { NavItemView } from './nav-view.ts';

interface MobileMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: NavItemView[];
  activeId: string | null;
  labels: { title: string; close: string; brand: string };
  /** The header search box (default variant, not on /search), when the search part provides one. */
  search?: ReactNode;
  /** The creator sidebar, in the create variant. */
  creatorSidebar?: ReactNode;
  /** Register and login for a visitor (the header has no room for both on phones). */
  visitorLinks?: { login: { href: string; label: string }; register: { href: string; label: string } } | null;
  /** The button that opened the menu: focus goes back to it when the menu closes. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * The slide-in side panel below 1000 px. Radix Dialog traps focus, closes on Escape and locks body
 * scrolling while open.
 */
export function MobileMenu({
  open,
  onOpenChange,
  items,
  activeId,
  labels,
  search,
  creatorSidebar,
  visitorLinks,
  returnFocusTo,
}: MobileMenuProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="hk-fade fixed inset-0 z-[900] bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            // The menu button sits outside the dialog, so Radix cannot find it on its own.
            if (!returnFocusTo?.current) return;
            event.preventDefault();
            returnFocusTo.current.focus();
          }}
          data-testid="mobile-menu"
          className="hk-slide-in fixed inset-y-0 left-0 z-[901] flex w-[min(82vw,300px)] flex-col gap-4 overflow-y-auto bg-white p-4 shadow-2xl dark:bg-zinc-900"
        >
          <div className="flex items-center justify-between">
            <a
              href="/"
              className="flex items-center gap-2 text-lg font-semibold text-zinc-900 dark:text-white"
              onClick={() => onOpenChange(false)}
            >
              <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
              {labels.brand}
            </a>
            <Dialog.Close
              aria-label={labels.close}
              className="rounded-lg p-2 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
            >
              <Icon name="x" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">{labels.title}</Dialog.Title>
          {search}
          <nav className="flex flex-col gap-0.5">
            {items.map((item) => (
              <NavLink
                key={item.id}
                item={item}
                active={item.id === activeId}
                variant="menu"
                onNavigate={() => onOpenChange(false)}
              />
            ))}
          </nav>
          {visitorLinks && (
            <div className="grid grid-cols-2 gap-2 border-t border-zinc-100 pt-4 dark:border-zinc-800">
              <a href={visitorLinks.register.href} className="hk-btn hk-btn-ghost" onClick={() => onOpenChange(false)}>
                {visitorLinks.register.label}
              </a>
              <a href={visitorLinks.login.href} className="hk-btn hk-btn-primary" onClick={() => onOpenChange(false)}>
                {visitorLinks.login.label}
              </a>
            </div>
          )}
          {creatorSidebar}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
