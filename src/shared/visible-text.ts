/**
 * What a text shows. Shared by the forms and the API, so both refuse the same text: a title, comment,
 * message or name that draws nothing (zero-width characters, Hangul fillers, the blank braille
 * pattern, lone combining marks) is refused, and names may not hide such characters at all.
 */

// Blank-drawn characters in the classes below, beside Default_Ignorable_Code_Point: the Hangul fillers
// U+115F, U+1160, U+3164, U+FFA0 (default-ignorable too, but letters, so a name pattern of letters lets
// them through), the blank braille pattern U+2800 and the musical null notehead U+1D159.

/**
 * A character that shows something by itself: not white space or a separator, not default-ignorable
 * (zero-width characters, joiners, variation selectors, tags, fillers), not a combining mark (it only
 * changes the character before it), not a control or format character (bidi controls included), not a
 * surrogate and not drawn blank. Unassigned and private-use characters count: fonts draw them as boxes.
 */
const VISIBLE =
  /[^\p{White_Space}\p{Z}\p{Default_Ignorable_Code_Point}\p{M}\p{Cc}\p{Cf}\p{Cs}\u115F\u1160\u3164\uFFA0\u2800\u{1D159}]/u;

/** A character no name may hold: default-ignorable ones (zero-width, joiners, fillers…) and blank-drawn ones. */
const HIDDEN_IN_NAME = /[\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0\u2800\u{1D159}]/u;

/** Characters a name skeleton leaves out: the hidden ones and white space. */
const DROPPED_FROM_SKELETON =
  /[\p{Default_Ignorable_Code_Point}\p{White_Space}\u115F\u1160\u3164\uFFA0\u2800\u{1D159}]/gu;

/** Does the text show at least one character (see VISIBLE)? */
export const showsSomething = (text: string): boolean => VISIBLE.test(text);

/** Text made only of characters that show nothing ('', '\u200B', '\u2800', a Hangul filler, lone accents). */
export const showsNothing = (text: string): boolean => !VISIBLE.test(text);

/** Does a name hold a character that draws nothing, so two names can look the same? */
export const hasHiddenCharacter = (name: string): boolean => HIDDEN_IN_NAME.test(name);

/** The name without the characters that draw nothing (what a skeleton compares). */
export const withoutHiddenCharacters = (name: string): string => name.replace(DROPPED_FROM_SKELETON, '');
