import sprite from '../../../assets/icon-sprite.svg?url';
import type { IconName } from '../../../shared/icons.ts';

/** The address of an icon in the sprite (hashed and cached for good), for `<use href>`. */
export const iconHref = (name: IconName) => `${sprite}#${name}`;

/** Stroke width of the icons (the `hk-icon` class); others are set inline. */
export const ICON_STROKE_WIDTH = 1.8;
