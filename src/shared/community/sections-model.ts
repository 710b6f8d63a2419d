import type { IconName } from '../icons.ts';

/** The limits and icons of sections and topics, without schemas (the management islands import these). */

export const SECTION_NAME_MAX = 20;
export const SECTION_DESCRIPTION_MAX = 200;
export const TOPIC_DESCRIPTION_MAX = 200;
/** Moderators of one section. */
export const SECTION_MODERATORS_MAX = 20;
/** Sections there can be (the order call sends them all). */
export const SECTIONS_MAX = 100;

/** Icons a section or topic may take: the sprite's names that read as a subject. */
export const SECTION_ICONS = [
  'messages',
  'message-circle',
  'gamepad',
  'book-open',
  'book',
  'download',
  'pen',
  'sparkles',
  'star',
  'heart',
  'flame',
  'trophy',
  'megaphone',
  'palette',
  'code',
  'images',
  'tag',
  'hash',
  'users',
  'languages',
] as const satisfies readonly IconName[];
export type SectionIcon = (typeof SECTION_ICONS)[number];
/** A section's or topic's icon: one of SECTION_ICONS, or '' for none. */
export type IconChoice = SectionIcon | '';
/** The stored icon as a choice ('' when it is not one of SECTION_ICONS). */
export const iconChoice = (value: string): IconChoice =>
  (SECTION_ICONS as readonly string[]).includes(value) ? (value as SectionIcon) : '';

export const HEX_COLOR = /^#[0-9a-f]{6}$/;
