import type { ComponentPropsWithRef, MouseEvent } from 'react';
import type { NavItemView } from './nav-view.ts';
import { Icon } from '../ui/Icon.tsx';

const adClass = {
  v1: 'hk-ad-v1 text-white',
  v2: 'ring-1 ring-primary text-accent',
} as const;

/** Other anchor props (role, handlers, ref) pass through, so a menu can wrap the link as its item. */
interface NavLinkProps extends Omit<ComponentPropsWithRef<'a'>, 'href' | 'children'> {
  item: NavItemView;
  active: boolean;
  variant: 'bar' | 'menu';
  onNavigate?: () => void;
}

/** One navigation entry, in the header bar, the More dropdown or the mobile menu. */
export function NavLink({ item, active, variant, onNavigate, className, onClick, ...rest }: NavLinkProps) {
  const external = item.external ? { target: '_blank', rel: 'noopener sponsored' } : {};
  const base =
    variant === 'bar'
      ? 'inline-flex h-9 items-center gap-1.5 whitespace-nowrap rounded-lg px-3 text-sm transition-colors'
      : 'flex items-center gap-3 rounded-lg px-3 py-2.5 text-[15px] transition-colors';
  const tone =
    item.type === 'ad'
      ? adClass[item.adStyle ?? 'v1']
      : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 aria-[current=page]:bg-primary/10 aria-[current=page]:font-medium aria-[current=page]:text-accent dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white';
  return (
    <a
      {...rest}
      href={item.route}
      aria-current={active ? 'page' : undefined}
      data-nav-id={item.id}
      data-nav-type={item.type}
      className={`${base} ${tone}${className ? ` ${className}` : ''}`}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        onNavigate?.();
      }}
      {...external}
    >
      {variant === 'menu' && <Icon name={item.iconName} className="size-5 shrink-0 opacity-80" />}
      <span>{item.name}</span>
      {item.tag && (
        <span className="rounded bg-black/10 px-1 text-[10px] leading-4 font-medium dark:bg-white/15">{item.tag}</span>
      )}
    </a>
  );
}
