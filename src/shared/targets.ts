/**
 * What a favourite, comment, like, report, notification, audit or search hit can point at. Each type
 * is registered on the server by the module that owns it (`targets` of its module object); a type
 * listed here but not registered yet has no items, and requests naming it answer 404.
 */
export const TARGET_TYPES = [
  'galgame',
  'lightnovel',
  'volume',
  'post',
  'article',
  'comment',
  'user',
  'person',
  'character',
  'producer',
  'rating',
  'section',
  'topic',
] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** A reference to one item: its type and id (numbers; users are referred to by their numeric userId). */
export interface TargetRef {
  type: TargetType;
  id: number;
}

/** What any page can show about an item it links to. */
export interface TargetSummary extends TargetRef {
  title: string;
  /** Its public page on this site. */
  url: string;
}

export function isTargetType(value: unknown): value is TargetType {
  return typeof value === 'string' && (TARGET_TYPES as readonly string[]).includes(value);
}
