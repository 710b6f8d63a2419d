import type { ForcedColorMode } from '../shared/color-mode.ts';

/** What every page passes to its layout. */
export interface PageProps {
  title?: string;
  description?: string;
  /** A page may force light or dark (never system). */
  forceColorMode?: ForcedColorMode;
}
