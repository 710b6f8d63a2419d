/**
 * What a tap or a key does in the reader. Tap zones: the left and right thirds turn pages, the middle
 * shows or hides the bars. In a book whose pages turn right to left (rtl, vertical Japanese and
 * Chinese), the left third goes forward, as a printed book of that kind does.
 */

export type ReaderMove = 'forward' | 'backward' | 'toggle-chrome';

/** `x` is the tap's position from the left edge of the page area, `width` that area's width. */
export function tapAction(x: number, width: number, rtl: boolean): ReaderMove {
  if (width <= 0) return 'toggle-chrome';
  const third = width / 3;
  if (x < third) return rtl ? 'forward' : 'backward';
  if (x > width - third) return rtl ? 'backward' : 'forward';
  return 'toggle-chrome';
}

/**
 * A key's move, or null. Arrows follow the screen (left is the left page: backward in a left-to-right
 * book, forward in a right-to-left one); PageDown, space and ArrowDown always go forward.
 */
export function keyAction(key: string, shiftKey: boolean, rtl: boolean): Exclude<ReaderMove, 'toggle-chrome'> | null {
  switch (key) {
    case 'ArrowLeft':
      return rtl ? 'forward' : 'backward';
    case 'ArrowRight':
      return rtl ? 'backward' : 'forward';
    case 'ArrowUp':
    case 'PageUp':
      return 'backward';
    case 'ArrowDown':
    case 'PageDown':
      return 'forward';
    case ' ':
    case 'Spacebar':
      return shiftKey ? 'backward' : 'forward';
    default:
      return null;
  }
}

/** Keys typed into a field are the field's, not page turns. */
export function isTypingTarget(target: { tagName?: string; isContentEditable?: boolean } | null): boolean {
  if (!target) return false;
  const tag = target.tagName?.toUpperCase();
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable === true;
}
