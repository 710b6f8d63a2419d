import type { AdStyle } from '../../../shared/navigation.ts';
import type { IconName } from '../../../shared/icons.ts';

/** A nav item as the header island receives it: names already in the page's language. */
export interface NavItemView {
  id: string;
  name: string;
  route: string;
  iconName: IconName;
  type: 'normal' | 'ad';
  adStyle?: AdStyle;
  tag?: string;
  external: boolean;
}
