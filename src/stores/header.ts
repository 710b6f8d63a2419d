import { atom } from 'nanostores';
import { headerVariant, type HeaderVariant } from '../shared/layout.ts';
import { showBackButton } from '../shared/header.ts';

export interface HeaderLocation {
  pathname: string;
  variant: HeaderVariant;
  showBack: boolean;
}

/** Where the persisted header is: updated after every client-side navigation. */
export const $headerLocation = atom<HeaderLocation>({ pathname: '/', variant: 'default', showBack: false });

export function updateHeaderLocation(pathname: string, historyLength: number, layout?: string): void {
  $headerLocation.set({
    pathname,
    variant: headerVariant(pathname, layout === 'community' ? 'community' : undefined),
    showBack: showBackButton(pathname, historyLength),
  });
}
