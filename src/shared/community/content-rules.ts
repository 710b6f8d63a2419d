/**
 * Input rules the community, comments and reactions add to `input-rules.ts`: text that shows something.
 */

/** Characters that show nothing by themselves: white space and default-ignorable ones (zero-width, fillers). */
const INVISIBLE = /[\s\p{Default_Ignorable_Code_Point}]/gu;

/** Text made only of characters that show nothing ('\u200B', a Hangul filler…) reads as empty. */
export const showsNothing = (text: string): boolean => text.replace(INVISIBLE, '') === '';
