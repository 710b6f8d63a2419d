import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { RefObject } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { useMenuHandoff, type MenuHandoff } from '../ui/on-demand.ts';
import { NavLink } from './NavLink.tsx';
import type { NavItemView } from './nav-view.ts';

interface MoreMenuDropdownProps {
  label: string;
  items: NavItemView[];
  activeId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  handoff: RefObject<MenuHandoff>;
  /** The box around trigger and list (hovering it keeps the menu open). */
  root: RefObject<HTMLDivElement | null>;
  triggerClass: string;
}

/**
 * The More menu itself, loaded on first use: Radix gives it its keyboard handling, focus, Escape,
 * outside click and ARIA; it is not modal so hovering works.
 */
export function MoreMenuDropdown({
  label,
  items,
  activeId,
  open,
  onOpenChange,
  handoff,
  root,
  triggerClass,
}: MoreMenuDropdownProps) {
  // Took over from the plain button: the focus stays on the trigger.
  const { trigger, content } = useMenuHandoff(open, handoff);

  return (
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <DropdownMenu.Trigger
        ref={trigger}
        onPointerDown={(event) => {
          // A mouse has opened it by hovering already: a click keeps it open instead of closing it.
          if (event.pointerType === 'mouse' && open) event.preventDefault();
        }}
        className={triggerClass}
      >
        {label}
        <Icon name="chevron-down" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </DropdownMenu.Trigger>
      {/* Not portalled: the list stays inside this box, so moving the mouse onto it keeps it open. */}
      <DropdownMenu.Content
        ref={content}
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
              <NavLink
                item={item}
                active={item.id === activeId}
                variant="menu"
                onNavigate={() => onOpenChange(false)}
              />
            </DropdownMenu.Item>
          ))}
        </div>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
