import type { IconName } from '../../../shared/icons.ts';
import { ICON_STROKE_WIDTH, iconHref } from './icon-href.ts';

interface IconProps {
  name: IconName;
  className?: string;
  strokeWidth?: number;
}

/** A lucide icon from the sprite, decorative (aria-hidden); stroke and fill come from the `hk-icon` class. */
export function Icon({ name, className = 'size-5', strokeWidth = ICON_STROKE_WIDTH }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={`hk-icon ${className}`}
      style={strokeWidth === ICON_STROKE_WIDTH ? undefined : { strokeWidth }}
      aria-hidden="true"
    >
      <use href={iconHref(name)} />
    </svg>
  );
}
