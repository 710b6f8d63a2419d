import { createElement } from 'react';
import { icons, type IconName } from '../../../shared/icons.ts';

interface IconProps {
  name: IconName;
  className?: string;
  strokeWidth?: number;
}

/** A lucide icon as inline SVG, decorative (aria-hidden). */
export function Icon({ name, className = 'size-5', strokeWidth = 1.8 }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {icons[name].map(([tag, attrs], i) => createElement(tag, { key: i, ...attrs }))}
    </svg>
  );
}
