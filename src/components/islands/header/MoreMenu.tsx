import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef, useState } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { NavLink } from './NavLink.tsx';
import type { NavItemView } from './nav-view.ts';

interface MoreMenuProps {
  label: string;
  items: NavItemView[];
  activeId: string | null;
}

/**
 * The 'More' dropdown: opens on hover (and on click or keyboard); its entries navigate. Radix gives it
 * its keyboard handling, focus, Escape, outside click and ARIA; it is not modal so hovering works.
 */
export function MoreMenu({ label, items, activeId }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  return (
    <div
      ref={root}
      className="relative"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      data-testid="nav-more"
    >
      <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
        <DropdownMenu.Trigger
          onPointerDown={(event) => {
            // A mouse has opened it by hovering already: a click keeps it open instead of closing it.
            if (event.pointerType === 'mouse' && open) event.preventDefault();
          }}
          className={`inline-flex h-9 items-center gap-1 rounded-lg px-3 text-sm text-zinc-600 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-primary/40 dark:text-zinc-300 dark:hover:bg-zinc-800 ${items.some((i) => i.id === activeId) ? 'font-medium text-accent' : ''}`}
        >
          {label}
          <Icon name="chevron-down" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
        </DropdownMenu.Trigger>
        {/* Not portalled: the list stays inside this box, so moving the mouse onto it keeps it open. */}
        <DropdownMenu.Content
          // The trigger handles its own clicks; only a press elsewhere closes the menu.
          onInteractOutside={(event) => {
            if (root.current?.contains(event.target as Node)) event.preventDefault();
          }}
          align="start"
          sideOffset={0}
          loop
          className="z-50 pt-1 outline-none"
        >
          <div className="flex min-w-40 flex-col gap-0.5 rounded-xl bg-white p-1.5 shadow-xl ring-1 ring-black/5 dark:bg-zinc-900 dark:ring-white/10">
            {items.map((item) => (
              <DropdownMenu.Item
                key={item.id}
                asChild
                className="outline-none data-[highlighted]:ring-2 data-[highlighted]:ring-primary/40"
              >
                <NavLink item={item} active={item.id === activeId} variant="menu" onNavigate={() => setOpen(false)} />
              </DropdownMenu.Item>
            ))}
          </div>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
    </div>
  );
}
