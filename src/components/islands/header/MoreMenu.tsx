import { useRef } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { onDemand, useDeferredMenu } from '../ui/on-demand.ts';
import type { NavItemView } from './nav-view.ts';

interface MoreMenuProps {
  label: string;
  items: NavItemView[];
  activeId: string | null;
}

const dropdown = onDemand(() => import('./MoreMenuDropdown.tsx'));

export const moreTriggerClass = (active: boolean) =>
  `inline-flex h-9 items-center gap-1 rounded-lg px-3 text-sm text-zinc-600 outline-none hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-primary/40 dark:text-zinc-300 dark:hover:bg-zinc-800 ${active ? 'font-medium text-accent' : ''}`;

/**
 * The 'More' dropdown: opens on hover (and on click or keyboard); its entries navigate. Its list (Radix)
 * loads when the pointer or the focus first reaches it; until then the button is a plain menu button.
 */
export function MoreMenu({ label, items, activeId }: MoreMenuProps) {
  const menu = useDeferredMenu(dropdown);
  const root = useRef<HTMLDivElement>(null);
  const active = items.some((i) => i.id === activeId);
  return (
    <div
      ref={root}
      className="relative"
      onMouseEnter={() => {
        menu.prepare();
        menu.setOpen(true);
      }}
      onMouseLeave={() => menu.setOpen(false)}
      data-testid="nav-more"
    >
      {menu.module ? (
        <menu.module.MoreMenuDropdown
          label={label}
          items={items}
          activeId={activeId}
          open={menu.open}
          onOpenChange={menu.setOpen}
          handoff={menu.handoff}
          root={root}
          triggerClass={moreTriggerClass(active)}
        />
      ) : (
        <button {...menu.triggerProps} className={moreTriggerClass(active)}>
          {label}
          <Icon name="chevron-down" className="size-4 transition-transform" />
        </button>
      )}
    </div>
  );
}
