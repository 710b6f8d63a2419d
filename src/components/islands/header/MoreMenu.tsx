import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { NavLink } from './NavLink.tsx';
import type { NavItemView } from './nav-view.ts';

interface MoreMenuProps {
  label: string;
  items: NavItemView[];
  activeId: string | null;
}

/** The 'More' dropdown: opens on hover (and on click or keyboard); its entries navigate. */
export function MoreMenu({ label, items, activeId }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onDown = (e: PointerEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
    };
  }, [open]);

  return (
    <div
      ref={root}
      className="relative"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      data-testid="nav-more"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((v) => !v)}
        className={`inline-flex h-9 items-center gap-1 rounded-lg px-3 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800 ${items.some((i) => i.id === activeId) ? 'font-medium text-accent' : ''}`}
      >
        {label}
        <Icon name="chevron-down" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      <div id={id} hidden={!open} className="absolute top-full left-0 z-50 pt-1">
        <div className="flex min-w-40 flex-col gap-0.5 rounded-xl bg-white p-1.5 shadow-xl ring-1 ring-black/5 dark:bg-zinc-900 dark:ring-white/10">
          {items.map((item) => (
            <NavLink
              key={item.id}
              item={item}
              active={item.id === activeId}
              variant="menu"
              onNavigate={() => setOpen(false)}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
