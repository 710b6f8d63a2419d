import type { ForcedColorMode } from '../shared/color-mode.ts';
import type { Area } from '../shared/i18n/index.ts';

/** What every page passes to its layout. */
export interface PageProps {
  title?: string;
  description?: string;
  /** A page may force light or dark (never system). */
  forceColorMode?: ForcedColorMode;
  /** Message areas the page's islands need beyond every page's (PAGE_AREAS): sent in the page's language. */
  messageAreas?: readonly Area[];
}
