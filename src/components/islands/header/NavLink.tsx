import type { ComponentPropsWithRef, MouseEvent } from 'react';
import type { NavItemView } from './nav-view.ts';
import { Icon } from '../ui/Icon.tsx';

/** Classes in styles/header.css (and hk-ad-v1 in global.css). */
const adClass = {
  v1: 'hk-ad-v1 text-white',
  v2: 'hk-nav-ad-v2',
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
  const base = variant === 'bar' ? 'hk-nav-bar' : 'hk-nav-menu';
  const tone = item.type === 'ad' ? adClass[item.adStyle ?? 'v1'] : 'hk-nav-normal';
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
      {item.tag && <span className="hk-nav-tag">{item.tag}</span>}
    </a>
  );
}
